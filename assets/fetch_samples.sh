#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches OpenEXR's sample images from Debian's psychtoolbox-3-common package into assets/samples/.
set -euo pipefail

readonly package=psychtoolbox-3-common
readonly images_in_package=usr/share/psychtoolbox-3/PsychDemos/OpenEXRImages
readonly copyright_in_package=usr/share/doc/${package}/copyright
# The images' own licence (ILM's BSD-3-Clause) is quoted in full only in this file of the package.
readonly contents_in_package=${images_in_package}/Contents.m
readonly names=(CandleGlass Desk GoldenGate Ocean StillLife WideColorGamut)

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
samples_dir=${script_dir}/samples

have_all() {
    local name
    for name in "${names[@]}"; do
        [[ -s ${samples_dir}/${name}.exr ]] || return 1
    done
    [[ -s ${samples_dir}/Contents.psychtoolbox.m && -s ${samples_dir}/COPYRIGHT.psychtoolbox ]]
}

if have_all; then
    echo "fetch_samples: ${samples_dir} is complete"
    exit 0
fi

work_dir=$(mktemp -d)
trap 'rm -rf -- "${work_dir}"' EXIT
# apt downloads as its unprivileged _apt user when that user can write the target folder; otherwise it
# falls back to root with a warning.
if id -u _apt >/dev/null 2>&1; then
    chown _apt -- "${work_dir}"
fi

# apt-get download writes into the current folder; run it in the scratch folder.
download() {
    (cd -- "${work_dir}" && apt-get download "${package}")
}

# On a fresh system the package lists are empty and apt cannot locate the package until they are fetched.
if ! download; then
    echo "fetch_samples: apt-get download failed; updating package lists and retrying" >&2
    apt-get update
    download
fi

debs=("${work_dir}"/"${package}"_*.deb)
dpkg -x "${debs[0]}" "${work_dir}/root"

mkdir -p -- "${samples_dir}"
for name in "${names[@]}"; do
    image=${work_dir}/root/${images_in_package}/${name}.exr
    if [[ ! -s ${image} ]]; then
        echo "fetch_samples: ${debs[0]##*/} has no ${images_in_package}/${name}.exr" >&2
        exit 1
    fi
done
# Copy every image the package ships, not only the six listed above, so none is silently dropped.
cp -- "${work_dir}/root/${images_in_package}"/*.exr "${samples_dir}/"
cp -- "${work_dir}/root/${contents_in_package}" "${samples_dir}/Contents.psychtoolbox.m"
# Written last: have_all() takes its presence to mean an earlier run copied every image whole.
cp -- "${work_dir}/root/${copyright_in_package}" "${samples_dir}/COPYRIGHT.psychtoolbox"

# shellcheck disable=SC2016 # dpkg-deb expands ${Package} and ${Version} itself.
echo "fetch_samples: copied $(dpkg-deb --show --showformat='${Package} ${Version}' "${debs[0]}") into ${samples_dir}"
