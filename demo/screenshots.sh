#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates the viewer screenshots in README.md and docs/looks.md: demo/screenshots.sh [BUILD_DIR] (default build),
# from any folder.
# Needs a built fftbloom-viewer, xvfb-run (Debian xvfb) and the sample images (assets/fetch_samples.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
shoot() {
    local out=$1 size=$2
    shift 2
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/bin/fftbloom-viewer" "$root/assets/samples/CandleGlass.exr" \
        --size "$size" --frames 4 --screenshot "$root/demo/screenshots/$out" --settings "$@"
}
# The composite with the default PSF: six fading diffraction spikes, half the light in the eye's glare.
shoot composite.png 1280x720 exposure=1.5 intensity=0.35 kernel-size=512
# A/B: the six-blade iris (A, left) against a circular aperture (B, right).
shoot ab-split.png 1280x720 show=split exposure=1.5 intensity=0.35 kernel-size=512 split=0.367 b.blades=0 b.spectrum=resampled
# The presets (docs/looks.md), each over the viewer's defaults, without the panel.
for look in camera soft-glow eye unreal; do
    shoot "look-$look.png" 800x450 preset=$look exposure=1.5 ui=off
done
