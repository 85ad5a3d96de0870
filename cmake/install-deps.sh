#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian bookworm packages fftbloom builds and tests with; does nothing when all are present.
set -euo pipefail

packages=(
    cmake g++ pkg-config                       # build
    libvulkan-dev glslang-tools glslang-dev    # Vulkan headers and loader, GLSL -> SPIR-V at build time and when a
                                               # plan is made (the plugin links glslang)
    mesa-vulkan-drivers vulkan-validationlayers # lavapipe (CPU Vulkan) and the Khronos validation layer
    libopenexr-dev libstb-dev libcli11-dev     # image I/O (OpenEXR with Imath) and argument parsing
    libfftw3-dev libgtest-dev                  # the double-precision reference and the tests
    libssl-dev                                 # SHA-256 of the kernel file in every output's provenance
    libopencolorio-dev                         # previews through the studio's OpenColorIO display transform
    nlohmann-json3-dev                         # JSON: the CLI's report, bench results, shader binding tables
    libspirv-cross-c-shared-dev                # fftbloom-shaders (HLSL/MSL/GLSL export), reflection in the tests
    clang libclang-rt-14-dev                   # the libFuzzer targets (clang, sanitizers)
    libvkfft-dev                               # the benchmark's VkFFT anchor (glslang compiles its shaders)
    libglfw3-dev libimgui-dev                  # fftbloom-viewer: window, swapchain surface, Dear ImGui
    xvfb xauth                                 # the viewer's screenshot test on a virtual X display
    slurmctld slurmd slurm-client munge        # the farm test: a private Slurm cluster on localhost
    pybind11-dev python3-dev python3-numpy     # the Python module (fftbloom) and its NumPy arrays
    python3-pytest                             # the Python module's tests
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "install-deps: installing ${missing[*]}"
"${sudo[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
