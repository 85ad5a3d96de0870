#!/usr/bin/python3
"""Draws fftbloom-bench's JSON results as a PNG: per case, our three passes stacked, VkFFT beside, the floor marked.

Usage: bench/plot_results.py RESULTS.json CHART.png   (needs Debian's python3-matplotlib)
"""
import json
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot_results: matplotlib missing; apt-get install python3-matplotlib")


def main(source, target):
    with open(source) as f:
        results = json.load(f)
    cases = [c for c in results["cases"] if "unsupported" not in c]
    labels = [c["case"].replace(" ", "\n") for c in cases]
    x = range(len(cases))
    width = 0.38
    fig, ax = plt.subplots(figsize=(max(8, len(cases) * 0.9), 5.5))
    bottom = [0.0] * len(cases)
    for key, name, colour in (("pass1Ms", "pass 1", "#4c72b0"), ("pass2Ms", "pass 2", "#55a868"),
                              ("pass3Ms", "pass 3", "#c44e52")):
        values = [c[key] for c in cases]
        ax.bar([i - width / 2 for i in x], values, width, bottom=bottom, label=f"fftbloom {name}", color=colour)
        bottom = [b + v for b, v in zip(bottom, values)]
    vkfft = [c["vkfft"]["endToEndMs"] if c.get("vkfft", {}).get("ok") else 0.0 for c in cases]
    ax.bar([i + width / 2 for i in x], vkfft, width, label="VkFFT end to end", color="#8c8c8c")
    ax.scatter([i - width / 2 for i in x], [c["floorMs"] for c in cases], marker="_", s=400, color="black",
               label="bandwidth floor", zorder=3)
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_ylabel("GPU time per frame, ms (median)")
    ax.set_title(f"fftbloom-bench on {results['device']} (driver {results['driver']})")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(target, dpi=110)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    main(sys.argv[1], sys.argv[2])
