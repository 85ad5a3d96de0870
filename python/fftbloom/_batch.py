# SPDX-License-Identifier: MIT
"""run_batch: the fftbloom command, run in this process."""

import json
import os
import sys
import tempfile
import threading

from . import _fftbloom
from ._errors import DeviceError, Error, FrameError, UsageError
from ._settings import option_name, option_text

# The command's stderr is taken from file descriptor 2, which the whole process shares: one run at a time.
_run_lock = threading.Lock()


def _arguments(inputs, options, args):
    """The command line: the options (True: the flag alone; False, None: left out), then ``args``, then ``--`` and the
    inputs (so that an input named like an option is read as an input)."""
    argv = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = ("-" if len(key) == 1 else "--") + option_name(key)
        argv += [flag] if value is True else [flag, option_text(flag, value)]
    argv += [os.fspath(a) for a in args]
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    return argv + ["--"] + [os.fspath(i) for i in inputs]


def _run_capturing_stderr(argv):
    """The command's exit code and what it wrote on stderr, which is written to stderr again after the run."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                code = _fftbloom.run(argv)
            finally:
                os.dup2(saved, 2)
            sink.seek(0)
            err = sink.read()
    finally:
        os.close(saved)
    if err:
        os.write(2, err)
    return code, err.decode("utf-8", "replace")


def _read_report(path, offset):
    """The report's lines from ``offset`` on: {"device", "frames" (by index), "summary"}."""
    result = {"device": None, "frames": [], "summary": None}
    try:
        with open(path, "rb") as report:
            report.seek(offset)
            lines = report.read().decode("utf-8", "replace").splitlines()
    except FileNotFoundError:  # a run stopped before it opened the report
        return result
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:  # a last line cut by a kill
            continue
        kind = entry.pop("type", None)
        if kind == "run":
            result["device"] = entry.get("device")
        elif kind == "frame":
            result["frames"].append(entry)
        elif kind == "summary":
            result["summary"] = entry
    result["frames"].sort(key=lambda f: f.get("index", 0))
    return result


def run_batch(inputs=(), *, args=(), **options):
    """Runs the ``fftbloom`` command in this process on image files, with every option of the command.

    inputs
        A path or a sequence of paths (str or os.PathLike): OpenEXR or Radiance .hdr frames, or frame patterns with
        ``frames`` (``"shot.####.exr"``, ``frames="1001-1100"``).
    options
        The command's options by their long names, ``-`` written ``_`` (README.md's table): ``out_dir="out"``,
        ``suffix="_bloom"``, ``output_pattern="{stem}_bloom.{frame}.exr"``, ``overwrite=True``, ``quiet=True``,
        ``validate=True``, ``device=0``, ``report="run.jsonl"``, and every bloom and kernel setting (``intensity=0.5``,
        ``kernel="psf.exr"``, ``kernel_size=128``, ``tint=(1, 0.9, 0.8)``...). One-letter names are short options:
        ``o="out.exr"`` is ``-o out.exr`` (``output`` is the composite mode, as ``--output``). True gives the flag
        alone, False and None leave the option out; other values as Bloomer's settings.
    args
        More arguments, given to the command as they are (``args=["--settings", "look.txt"]``).

    Returns a dict read from the run's report (``--report``: a temporary file unless ``report`` is given, when the
    lines this run appends are read): ``"device"`` (the device's name), ``"frames"`` (a dict per frame in the list's
    order: ``"input"``, ``"output"``, ``"status"`` "ok", "skipped" or "failed", ``"error"`` when failed, ``"width"``,
    ``"height"``, the FFT plan, values scrubbed, seconds; docs/python.md) and ``"summary"`` (counts and times). A run
    that writes no report (``dry_run=True``, ``help=True``) returns no frames and a summary of None.

    Raises UsageError (exit code 2: a bad option, a missing kernel, outputs that would overwrite inputs; nothing
    done), FrameError (exit code 1: some frames failed, the others were written; also a validation message with
    ``validate=True``), DeviceError (exit code 3: no usable device or a lost one; the batch stopped). Their message
    is the command's error lines; FrameError and DeviceError carry the result as ``result``.

    The command's progress goes to stdout (``quiet=True`` leaves it out); its error lines go to stderr after the run.
    The GIL is released during the run. Runs in one process take turns: file descriptor 2 (stderr) of the process is
    redirected to a temporary file during each, so what other threads write there then is shown after the run.
    Ctrl+C stops the run when it ends (the command's signal handlers are not installed).
    """
    with tempfile.TemporaryDirectory(prefix="fftbloom-") as scratch:
        report = options.get("report")
        if report is None:
            report = os.path.join(scratch, "report.jsonl")
            options = dict(options, report=report)
        try:
            offset = os.path.getsize(report)
        except OSError:
            offset = 0
        argv = _arguments(inputs, options, args)
        with _run_lock:
            code, err = _run_capturing_stderr(argv)
        result = _read_report(report, offset)
    message = "\n".join(line for line in err.splitlines() if line.strip()) or f"fftbloom exited with {code}"
    if code == 2:
        raise UsageError(message)
    if code == 1:
        raise FrameError(message, result)
    if code == 3:
        raise DeviceError(message, result)
    if code != 0:
        raise Error(message)
    return result
