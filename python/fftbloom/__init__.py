# SPDX-License-Identifier: MIT
"""fftbloom: FFT-convolution bloom of HDR images on a Vulkan device, from NumPy arrays or EXR files.

The bloom convolves an HDR image with a large point spread function (PSF, the kernel) through the FFT and composites
it over the image, as the ``fftbloom`` command does (README.md, docs/python.md):

- ``bloom(rgb, kernel=None, **settings)``: one array bloomed;
- ``Bloomer(kernel=None, **settings)``: the device, kernel and settings made once, then ``bloomer(rgb)`` per frame;
- ``run_batch(inputs, **options)``: the ``fftbloom`` command run in this process on EXR/HDR files;
- ``Error``, ``UsageError``, ``FrameError``, ``DeviceError``: the errors, one per exit code of the command.

Arrays are ``numpy.ndarray`` of shape (H, W, 3) (R, G, B) or (H, W, 4) (R, G, B, A), row 0 at the top, dtype
float32 or float16, values scene-linear (the units of an EXR's pixels). Settings are the command's options with ``_``
for ``-`` (``kernel_size=128`` is ``--kernel-size 128``), read by the same table with the same ranges and messages.
"""

import os
import warnings

from . import _fftbloom
from ._batch import run_batch
from ._errors import DeviceError, Error, FrameError, UsageError
from ._settings import option_name, option_text

__all__ = ["Bloomer", "bloom", "run_batch", "Error", "UsageError", "FrameError", "DeviceError", "__version__"]

#: The version of fftbloom the module was built from, "MAJOR.MINOR.PATCH".
__version__ = _fftbloom.__version__

#: The largest colour value the bloom sees by default (the command's --clamp): the largest finite float16.
DEFAULT_CLAMP = 65504.0
#: The largest device index: the extension takes a C int.
_MAX_DEVICE = 2**31 - 1

_HALF_MAX = 65504.0


def _numpy():
    import numpy  # imported on first use: the module imports without NumPy, for run_batch alone

    return numpy


def _float32_array(array, name, channels):
    """``array`` as a C-contiguous float32 ndarray of shape (H, W, C), C in ``channels``; UsageError otherwise."""
    np = _numpy()
    if not isinstance(array, np.ndarray):
        raise UsageError(f"{name}: a numpy.ndarray of shape (H, W, {' or '.join(map(str, channels))}), "
                         f"not {type(array).__name__}")
    if array.dtype not in (np.float32, np.float16):
        raise UsageError(f"{name}: dtype {array.dtype} is not float32 or float16")
    if array.ndim != 3 or array.shape[2] not in channels or array.shape[0] < 1 or array.shape[1] < 1:
        raise UsageError(f"{name}: shape {array.shape} is not (H, W, {' or '.join(map(str, channels))}) "
                         "with H, W >= 1")
    return np.ascontiguousarray(array, dtype=np.float32)


def _float32_matte(array):
    """A mask ``array`` as a C-contiguous float32 ndarray of shape (H, W) or (H, W, 1); UsageError otherwise."""
    np = _numpy()
    if not isinstance(array, np.ndarray) or array.dtype not in (np.float32, np.float16):
        raise UsageError(f"mask: a float32 or float16 numpy.ndarray of shape (H, W), not {type(array).__name__}"
                         + (f" of dtype {array.dtype}" if isinstance(array, np.ndarray) else ""))
    if array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] != 1):
        raise UsageError(f"mask: shape {array.shape} is not (H, W) or (H, W, 1)")
    return np.ascontiguousarray(array, dtype=np.float32)


class Bloomer:
    """A device, a kernel and settings made once, to bloom any number of frames of any extent.

    ``Bloomer(kernel=None, *, device=None, validate=False, clamp=65504.0, **settings)``

    kernel
        None: the generated PSF (a six-blade iris with glare, the command's default; its options ``blades``,
        ``airy_radius``, ``glare``... apply). A path (str or os.PathLike): an OpenEXR or Radiance .hdr PSF file, read
        as ``--kernel FILE``. A numpy.ndarray of shape (h, w, 3), float32 or float16, non-negative, centre texel
        (w // 2, h // 2): read as such a file would be. A file or array is resampled to ``kernel_size`` (default 256)
        texels, faded by ``kernel_fade`` (default 0) and normalized to unit sum per channel; at the default
        ``kernel_span`` (auto: native for a file or array) it keeps its own extent in pixels on the frame, whatever ``kernel_size``: give
        ``kernel_size`` equal to its side to use its texels as they are.
    device
        None: the first discrete GPU, else the first CPU device (lavapipe); an int: that Vulkan physical device index.
    validate
        Enable the Khronos validation layer: any message it prints raises DeviceError.
    clamp
        The largest colour value the bloom sees (the command's ``--clamp``), > 0; NaN and negative values are seen as
        0. The composite keeps the input's finite values.
    settings
        The command's bloom and kernel options (README.md's table), ``-`` written ``_``: ``intensity`` (the bloom's
        weight, a fraction; default 0.25), ``threshold`` and ``knee`` (the prefilter, in the frame's linear values;
        default 0, off), ``output`` ("composite": ``in + intensity (bloom - prefiltered)``, "additive", "bloom"),
        ``kernel_size`` (texels, a power of two in 2..4096, default 256), ``kernel_span`` ("auto", the default: the
        generated PSF the same share of every frame; "native", "300px", "0.25diag"), ``kernel_rotation`` (degrees),
        ``tint`` (a tuple R, G, B), ``mask`` ("A": rgb's alpha weights what blooms) and ``mask_invert``,
        ``padding``, ``spectrum``, ``precision``, ``preset`` ("camera", "soft-glow", "eye", "unreal"; applied before
        the others), ``blades``...
        Values are bool, int, float (passed with ``repr`` precision), str or a tuple of numbers.

    Raises UsageError for an unknown setting or a value outside its range (the settings table's one-line message),
    a kernel file that is missing or unreadable (naming it), a kernel array of another shape or dtype, or settings
    the device refuses for every frame; DeviceError when no usable Vulkan device can be made (``device=99``).
    A kernel whose light reaches its border unfaded gives a UserWarning, as the command warns.

    The device is kept until the Bloomer is deleted. Methods release the GIL while the device works, and one Bloomer
    blooms one frame at a time (calls from several threads wait for each other); several Bloomers work in parallel.
    """

    def __init__(self, kernel=None, *, device=None, validate=False, clamp=DEFAULT_CLAMP, **settings):
        pairs = [(option_name(k), option_text(k, v)) for k, v in settings.items()]
        array = None
        if kernel is None:
            pass
        elif isinstance(kernel, (str, os.PathLike)):
            pairs.append(("kernel", os.fspath(kernel)))
        else:
            array = _float32_array(kernel, "kernel", (3,))
        if device is None:
            device = -1
        elif isinstance(device, bool) or not isinstance(device, int) or not 0 <= device <= _MAX_DEVICE:
            raise UsageError(f"device: {device!r} is not a Vulkan physical device index 0 .. {_MAX_DEVICE} (or None)")
        self._bloomer = _fftbloom.Bloomer(pairs, array, device, bool(validate), float(clamp))
        if self._bloomer.kernel_warning:
            warnings.warn(self._bloomer.kernel_warning, UserWarning, stacklevel=2)

    def bloom(self, rgb, mask=None):
        """``rgb`` bloomed: a new array of its shape and dtype.

        rgb
            numpy.ndarray of shape (H, W, 3) or (H, W, 4), dtype float32 or float16, scene-linear R, G, B (and A),
            row 0 at the top; any strides (copied to C order). Alpha is copied. A float16 result's R, G, B are
            limited to +-65504, the largest finite float16, as the command writes half-float EXRs.
        mask
            None: the ``mask`` setting's matte (none by default; ``mask="A"``: rgb's alpha). A numpy.ndarray of shape
            (H, W) or (H, W, 1), float32 or float16: a matte m weighting what blooms, ``p = m prefilter(rgb)``,
            clamped to 0..1 (NaN as 0): where it is 0 the light keeps its value without a glow; ``mask_invert=True``
            takes 1 - m.

        Raises UsageError for another type, dtype or shape; FrameError when the plugin refuses the frame (e.g. an
        extent needing an FFT longer than 16384; the Bloomer stays usable); DeviceError for a Vulkan failure (the
        Bloomer cannot be used again) or a validation message.
        """
        np = _numpy()
        frame = _float32_array(rgb, "rgb", (3, 4))
        matte = None if mask is None else _float32_matte(mask)
        out = self._bloomer.bloom(frame, matte)
        if rgb.dtype == np.float16:
            np.clip(out[..., :3], -_HALF_MAX, _HALF_MAX, out=out[..., :3])
            out = out.astype(np.float16)
        return out

    __call__ = bloom

    @property
    def device_name(self):
        """The Vulkan device's name (str), e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"."""
        return self._bloomer.device_name

    @property
    def kernel(self):
        """The kernel as the device takes it: a new float32 array (kernel_size, kernel_size, 3), each channel summing
        to 1, centre texel (kernel_size // 2, kernel_size // 2)."""
        return self._bloomer.kernel

    @property
    def settings(self):
        """Every setting that applies, as {name: text} in the command's option names (a settings file's lines)."""
        return dict(line.split("=", 1) for line in self._bloomer.setting_lines())


def bloom(rgb, kernel=None, *, mask=None, device=None, validate=False, clamp=DEFAULT_CLAMP, **settings):
    """``rgb`` bloomed once: ``Bloomer(kernel, device=..., validate=..., clamp=..., **settings).bloom(rgb, mask)``.

    mask is Bloomer.bloom's: an array, or None; a str is the ``mask`` setting ("A": rgb's alpha).

    rgb is a numpy.ndarray (H, W, 3) or (H, W, 4) of float32 or float16; the result has its shape and dtype. Making
    the device and kernel costs more than a bloom of a small frame: keep a Bloomer for several frames. Arguments,
    settings and errors are Bloomer's and Bloomer.bloom's.
    """
    _float32_array(rgb, "rgb", (3, 4))  # refused before the device is made
    if isinstance(mask, str):
        settings["mask"] = mask
        mask = None
    elif mask is not None:
        _float32_matte(mask)
    return Bloomer(kernel, device=device, validate=validate, clamp=clamp, **settings).bloom(rgb, mask)
