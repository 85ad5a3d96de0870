#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates the viewer screenshots in README.md: demo/screenshots.sh [BUILD_DIR] (default build), from any folder.
# Needs a built fftbloom-viewer, xvfb-run (Debian xvfb) and the sample images (assets/fetch_samples.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
shoot() {
    local out=$1
    shift
    xvfb-run -a -s "-screen 0 1600x1000x24" "$build/bin/fftbloom-viewer" "$root/assets/samples/CandleGlass.exr" \
        --size 1280x720 --frames 4 --screenshot "$root/demo/screenshots/$out" --settings "$@"
}
# The composite with the default six-blade diffraction PSF.
shoot composite.png exposure=1.5 intensity=0.35 kernel-size=512
# A/B: the six-blade iris (A, left) against a circular aperture (B, right).
shoot ab-split.png view=split exposure=1.5 intensity=0.35 kernel-size=512 split=0.367 b.blades=0 b.spectrum=resampled
