#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Merges the cuFFT anchors' JSON lines into a fftbloom-bench JSON run from the same device call.

Blooms (cufft-bloom-anchor.py): each full-resolution case gets a `cufft` object from the anchor's lines of the same
frame and kernel, the fastest padded size's `totalMs` with its `paddedWidth` and `paddedHeight` (the anchor is a
zero-padded full-resolution bloom: the same anchor for every padding, spectrum mode and storage of that frame).
Half-resolution cases get none.

The engine alone (`--fft-lines`, cufft-lines-anchor.py): each case whose label and N x B the anchor names gets a
`cufft` object with its `rowMs`, `rowFraction` (of the copy bandwidth the anchor measured) and `forwardInverseMs`.

The run's JSON is rewritten in place through a temporary file.

Usage: bench/merge_cufft.py RUN.json ANCHOR.jsonl
"""
import json
import os
import sys


def merge_blooms(run, rows):
    best = {}
    for row in rows:
        key = (row['width'], row['height'], row['kernel'])
        if key not in best or row['totalMs'] < best[key]['totalMs']:
            best[key] = row
    merged = 0
    for case in run['cases']:
        row = best.get((case['width'], case['height'], case['kernel']))
        if row is None or case['resolution'] != 'full':
            continue
        case['cufft'] = {k: row[k] for k in ('totalMs', 'paddedWidth', 'paddedHeight')}
        merged += 1
    return merged


def merge_lines(run, rows):
    named = {row['case']: row for row in rows}
    merged = 0
    for case in run['cases']:
        row = named.get(f"{case['label']} {case['length']} x {case['lines']}")
        if row is None:
            continue
        case['cufft'] = {k: row[k] for k in ('forwardInverseMs', 'rowFraction', 'rowMs')}
        merged += 1
    return merged


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    run_path, anchor_path = sys.argv[1:]
    with open(run_path) as f:
        run = json.load(f)
    with open(anchor_path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    header, rows = lines[0], lines[1:]  # the first line names the device and its copy bandwidth
    if 'totalMs' in (rows[0] if rows else {}):
        merged = merge_blooms(run, rows)
    else:
        merged = merge_lines(run, rows)
        run['cufftDevice'] = header['device']
    temporary = run_path + '.tmp'
    with open(temporary, 'w') as f:
        json.dump(run, f, indent=1)
    os.replace(temporary, run_path)
    print(f'{run_path}: cuFFT anchor merged into {merged} of {len(run["cases"])} cases')


if __name__ == '__main__':
    main()
