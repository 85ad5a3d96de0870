# SPDX-License-Identifier: MIT
"""Python values as the text of the fftbloom command's options."""

import numbers
import os

from ._errors import UsageError


def option_name(key):
    """A keyword argument's name as the option's: ``kernel_size`` -> ``kernel-size``."""
    return key.replace("_", "-")


def option_text(name, value):
    """A Python value as the text the settings table parses: ``True`` -> ``true``, a float by ``repr`` (the shortest
    text that reads back as the same double), a tuple or list (``tint=(1, 0.9, 0.8)``) comma-separated, a path
    (``os.PathLike``) as its ``os.fspath``; str as it is. Raises UsageError naming ``name`` for other types."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, (tuple, list)):
        return ",".join(option_text(name, v) for v in value)
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise UsageError(f"{name}: {value!r} is not a bool, number, str, path or tuple of numbers")
