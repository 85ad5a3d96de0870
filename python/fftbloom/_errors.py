# SPDX-License-Identifier: MIT
"""The exceptions of fftbloom: one class per exit code of the fftbloom command."""


class Error(Exception):
    """Base class of fftbloom's errors. ``str(error)`` is the message the fftbloom command prints: one line naming
    the setting, file or frame at fault and the reason (several lines when several frames of a batch failed)."""


class UsageError(Error, ValueError):
    """A setting, an option, an array or a kernel is refused (the fftbloom command's exit code 2): an unknown setting
    or a value outside its range, an array of another shape or dtype, a kernel file that is missing or unreadable,
    settings the device refuses for every frame. Nothing was done."""


class FrameError(Error):
    """A frame failed (exit code 1): the plugin refuses it (e.g. a frame needing an FFT longer than 16384), or, in
    run_batch, a frame could not be read or written; the other frames of the batch were written.

    ``result`` is run_batch's result (None for Bloomer.bloom)."""

    def __init__(self, message, result=None):
        super().__init__(message)
        self.result = result


class DeviceError(Error):
    """The Vulkan device failed (exit code 3): no usable device (``device=`` names none), a lost device, or a message
    of the validation layer when ``validate=True``. A Bloomer whose device failed during a bloom cannot be used again.

    ``result`` is run_batch's result (None otherwise)."""

    def __init__(self, message, result=None):
        super().__init__(message)
        self.result = result
