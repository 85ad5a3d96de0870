# SPDX-License-Identifier: MIT
"""The Python module on the default device (lavapipe in CI) with the validation layer on: bloom() against a NumPy
double-precision FFT convolution, float16 and alpha, kernels as arrays and files, a reused Bloomer, run_batch, and
every error type."""

import os
import re
import subprocess
import sys
import time

import numpy as np
import pytest

import fftbloom

KERNEL_SIZE = 16
HEIGHT, WIDTH = 40, 48
INTENSITY = 0.5
#: The plugin's floor of the normalized convolution's weights (FFTB_MIN_BORDER_WEIGHT, shaders/shared/fftb_shared.h).
MIN_BORDER_WEIGHT = 0.0625
#: fp32 spectra against the float64 reference: largest |error| over each channel's largest |reference| (the GPU
#: tests' tolerance, tests/support/gpu_test_support.h).
FP32_TOLERANCE = 1e-5
#: float16 results: half a float16 ULP (2^-11 of the value) plus the fp32 tolerance.
FP16_RELATIVE = 2.0**-11


def disc_kernel():
    """16 x 16 RGB integers in 0..255 inside a disc of radius 6 about (8, 8), 0 outside (no light in the outer ring,
    so no warning); each texel's largest channel is at least 128 or all are 0, so that a Radiance .hdr file holds them
    exactly (exponent 8: an RGBE mantissa is the value itself)."""
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:KERNEL_SIZE, 0:KERNEL_SIZE] - KERNEL_SIZE // 2
    kernel = rng.integers(0, 256, (KERNEL_SIZE, KERNEL_SIZE, 3)).astype(np.float32)
    kernel[..., 1] = np.maximum(kernel[..., 1], 128)
    kernel[x * x + y * y > 36] = 0
    return kernel


def random_frame(channels, seed=1):
    """HEIGHT x WIDTH values in [0, 1) with a few highlights at 50; alpha in [0, 1)."""
    rng = np.random.default_rng(seed)
    frame = rng.random((HEIGHT, WIDTH, channels), dtype=np.float32)
    frame[rng.integers(0, HEIGHT, 6), rng.integers(0, WIDTH, 6), :3] = 50.0
    return frame


def write_hdr(path, rgb):
    """A Radiance .hdr of non-negative (H, W, 3) values, uncompressed RGBE scanlines (mantissas truncated)."""
    height, width, _ = rgb.shape
    peak = rgb.max(axis=2).astype(np.float64)
    mantissa, exponent = np.frexp(peak)
    lit = peak > 1e-32
    scale = np.where(lit, mantissa * 256.0 / np.where(lit, peak, 1.0), 0.0)
    rgbe = np.zeros((height, width, 4), np.uint8)
    rgbe[..., :3] = np.floor(rgb * scale[..., None])
    rgbe[..., 3] = np.where(lit, exponent + 128, 0)
    with open(path, "wb") as f:
        f.write(b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (height, width))
        f.write(rgbe.tobytes())


def reference(rgb, kernel, intensity, mask=None):
    """The default composite in float64: in + intensity (bloom - p), p = m in (m the mask, 1 by default), the bloom
    that of p: the zero-padded linear convolution
    out(p) = sum_j k(j) in(p - j + c), c = K // 2, with k normalized to unit sum per channel, divided by the same
    convolution of the frame's indicator (at least MIN_BORDER_WEIGHT): normalized convolution, --padding's default."""
    frame = rgb[..., :3].astype(np.float64)
    k = kernel.astype(np.float64) / kernel.astype(np.float64).sum(axis=(0, 1))
    height, width = frame.shape[:2]
    shape = (height + k.shape[0] - 1, width + k.shape[1] - 1)
    cy, cx = k.shape[0] // 2, k.shape[1] // 2

    def convolve(plane, taps):
        full = np.fft.irfft2(np.fft.rfft2(plane, shape) * np.fft.rfft2(taps, shape), shape)
        return full[cy:cy + height, cx:cx + width]

    m = np.ones((height, width)) if mask is None else mask.astype(np.float64)
    out = np.empty_like(frame)
    for c in range(3):
        weight = np.maximum(convolve(np.ones((height, width)), k[..., c]), MIN_BORDER_WEIGHT)
        bloom = convolve(m * frame[..., c], k[..., c]) / weight
        out[..., c] = frame[..., c] + intensity * (bloom - m * frame[..., c])
    return out


def relative_error(result, expected):
    """max over R, G, B of max |result - expected| / max |expected| of that channel."""
    error = np.abs(result[..., :3].astype(np.float64) - expected).max(axis=(0, 1))
    return float((error / np.abs(expected).max(axis=(0, 1))).max())


@pytest.fixture(scope="module")
def bloomer():
    """One device and kernel for the module's tests: the disc kernel as an array at its own size."""
    return fftbloom.Bloomer(disc_kernel(), validate=True, kernel_size=KERNEL_SIZE, intensity=INTENSITY)


def test_bloom_of_an_array_is_the_convolution(bloomer):
    rgb = random_frame(3)
    out = bloomer(rgb)
    assert out.shape == rgb.shape and out.dtype == np.float32
    error = relative_error(out, reference(rgb, disc_kernel(), INTENSITY))
    assert error <= FP32_TOLERANCE, f"relative error {error:.3g} above {FP32_TOLERANCE}"


def test_the_glow_alone_has_no_value_below_zero():
    """The bloom of a frame of values >= 0 by a kernel of texels >= 0 is >= 0: the FFT's round-off below 0 is set to 0
    (docs/kernels.md), the glow itself kept."""
    rgb = np.full((HEIGHT, WIDTH, 3), 0.05, np.float32)
    rgb[HEIGHT // 2, WIDTH // 2] = 1000.0
    glow = fftbloom.bloom(rgb, disc_kernel(), validate=True, kernel_size=KERNEL_SIZE, output="bloom", threshold=1)
    assert glow.min() >= 0.0
    assert glow[HEIGHT // 2, WIDTH // 2].min() > 1.0
    assert (glow == 0.0).any(), "the texels the threshold keeps dark"


def test_the_generated_psfs_glare_reaches_every_corner():
    """The generated PSF's glare continues past its kernel as a far field (glare_reach, a frame diagonal by default):
    a light at the centre lights every corner texel; at glare_reach=0 the kernel does not reach them (round-off only)."""
    rgb = np.zeros((HEIGHT, WIDTH, 3), np.float32)
    rgb[HEIGHT // 2, WIDTH // 2] = 1e6
    far = fftbloom.bloom(rgb, validate=True, kernel_size=64, output="bloom")
    near = fftbloom.bloom(rgb, validate=True, kernel_size=64, output="bloom", glare_reach=0)
    for y, x in [(0, 0), (0, WIDTH - 1), (HEIGHT - 1, 0), (HEIGHT - 1, WIDTH - 1)]:
        assert far[y, x].min() > 0.0, f"corner ({x}, {y}) unlit"
        assert near[y, x].max() < 0.01 * far[y, x].min(), f"corner ({x}, {y}) lit without the far field"


def test_float16_with_alpha_keeps_alpha_and_dtype(bloomer):
    rgba = random_frame(4, seed=2).astype(np.float16)
    out = bloomer.bloom(rgba)
    assert out.shape == rgba.shape and out.dtype == np.float16
    np.testing.assert_array_equal(out[..., 3], rgba[..., 3])
    expected = reference(rgba.astype(np.float64), disc_kernel(), INTENSITY)
    error = np.abs(out[..., :3].astype(np.float64) - expected)
    bound = FP16_RELATIVE * np.abs(expected) + FP32_TOLERANCE * np.abs(expected).max(axis=(0, 1))
    assert (error <= bound).all(), f"largest error {error.max():.3g} over float16 rounding"


def test_a_mask_weights_what_blooms_and_alpha_is_kept(bloomer):
    """A matte array (clamped to 0..1) weights the bloom's source, p = m in; mask="A" takes rgb's alpha and
    mask_invert 1 minus it; the result's alpha is rgb's, not the matte."""
    rgba = random_frame(4, seed=5)
    matte = np.zeros((HEIGHT, WIDTH), np.float32)
    matte[:, : WIDTH // 2] = 1.0
    matte[5, 30] = 1.7
    out = bloomer.bloom(rgba, mask=matte)
    np.testing.assert_array_equal(out[..., 3], rgba[..., 3])
    error = relative_error(out, reference(rgba, disc_kernel(), INTENSITY, np.clip(matte, 0.0, 1.0)))
    assert error <= FP32_TOLERANCE, f"masked: relative error {error:.3g}"
    assert relative_error(bloomer.bloom(rgba), reference(rgba, disc_kernel(), INTENSITY, matte)) > 1e-2
    inverted = fftbloom.bloom(rgba, disc_kernel(), mask="A", mask_invert=True, validate=True, kernel_size=KERNEL_SIZE,
                              intensity=INTENSITY)
    error = relative_error(inverted, reference(rgba, disc_kernel(), INTENSITY, 1.0 - rgba[..., 3]))
    assert error <= FP32_TOLERANCE, f"alpha inverted: relative error {error:.3g}"


def test_mask_errors_are_usage_errors(bloomer):
    with pytest.raises(fftbloom.UsageError, match="rgb's H, W"):
        bloomer.bloom(random_frame(3), mask=np.zeros((3, 3), np.float32))
    with pytest.raises(fftbloom.UsageError, match=r"mask: shape \(40, 48, 2\)"):
        bloomer.bloom(random_frame(3), mask=np.zeros((HEIGHT, WIDTH, 2), np.float32))
    with pytest.raises(fftbloom.UsageError, match="run_batch's"):
        fftbloom.Bloomer(mask="matte")


def test_strided_input_is_read_as_its_values(bloomer):
    rgba = random_frame(4, seed=3)
    np.testing.assert_array_equal(bloomer(rgba[:, :, :3]), bloomer(np.ascontiguousarray(rgba[:, :, :3])))


def test_kernel_file_and_one_shot_bloom_equal_the_reused_bloomer(bloomer, tmp_path):
    psf = tmp_path / "disc.hdr"
    write_hdr(psf, disc_kernel())
    rgb = random_frame(3, seed=4)
    once = fftbloom.bloom(rgb, psf, validate=True, kernel_size=KERNEL_SIZE, intensity=INTENSITY)
    np.testing.assert_array_equal(once, bloomer(rgb))
    np.testing.assert_allclose(bloomer.kernel, disc_kernel() / disc_kernel().sum(axis=(0, 1)), rtol=1e-6)


def test_settings_are_the_tables(bloomer):
    assert bloomer.settings["intensity"] == "0.5"
    assert bloomer.settings["kernel-size"] == str(KERNEL_SIZE)
    assert "blades" not in bloomer.settings  # the generated PSF's, not an array's
    assert isinstance(bloomer.device_name, str) and bloomer.device_name


@pytest.mark.parametrize("settings, message", [
    ({"intensity": -1}, "intensity: -1 is not a finite number in [0, 1000000000]"),
    ({"kernel_size": 3}, "kernel-size: 3 is not a power of two"),
    ({"spectrum": "fast"}, "spectrum: 'fast' is not exact or resampled"),
    ({"no_such_setting": 1}, "unknown setting 'no-such-setting'"),
    ({"kernel_extent": "64px"}, "'kernel-extent' is now 'kernel-span'"),
    ({"knee": 1, "threshold": 0.5}, "knee 1: the soft knee must not be wider than threshold (0.5)"),
])
def test_bad_settings_are_usage_errors(settings, message):
    with pytest.raises(fftbloom.UsageError, match=re.escape(message)):
        fftbloom.Bloomer(validate=True, **settings)


def setting_edges():
    """The rows of tests/support/setting_edges.txt: (settings as keyword arguments, the refusal's text or None)."""
    path = os.path.join(os.path.dirname(__file__), os.pardir, "support", "setting_edges.txt")
    rows = []
    with open(path, encoding="utf-8") as table:
        for line in table:
            if line.startswith("#") or "\t" not in line:
                continue
            words, expected = line.rstrip("\n").split("\t")
            settings = dict(word.split("=", 1) for word in words.split())
            rows.append(({k.replace("-", "_"): v for k, v in settings.items()}, None if expected == "ok" else expected))
    return rows


@pytest.mark.parametrize("settings, refusal", setting_edges())
def test_setting_edges_are_accepted_or_refused_as_the_cli_and_the_viewer_do(settings, refusal):
    if refusal is None:
        fftbloom.Bloomer(validate=True, **settings)
    else:
        with pytest.raises(fftbloom.UsageError, match=re.escape(refusal)):
            fftbloom.Bloomer(validate=True, **settings)


@pytest.mark.parametrize("array, message", [
    (np.zeros((4, 4, 3), np.float64), "dtype float64 is not float32 or float16"),
    (np.zeros((4, 4, 2), np.float32), r"shape \(4, 4, 2\) is not \(H, W, 3 or 4\)"),
    (np.zeros((4, 4), np.float32), r"shape \(4, 4\)"),
    ([[0.0, 0.0, 0.0]], "a numpy.ndarray"),
])
def test_bad_arrays_are_usage_errors(bloomer, array, message):
    with pytest.raises(fftbloom.UsageError, match=message):
        bloomer(array)


def test_missing_kernel_file_is_a_usage_error_naming_it(tmp_path):
    missing = tmp_path / "missing.exr"
    with pytest.raises(fftbloom.UsageError, match="missing.exr: no such file"):
        fftbloom.Bloomer(missing, validate=True)


def test_a_frame_the_plugin_refuses_is_a_frame_error(bloomer):
    with pytest.raises(fftbloom.FrameError, match="needs an FFT longer than 16384"):
        bloomer(np.zeros((1, 20000, 3), np.float32))
    bloomer(random_frame(3))  # still usable


@pytest.mark.parametrize("size", [8, 16, 32])
def test_a_negative_kernel_texel_is_refused_at_every_kernel_size(size):
    kernel = np.ones((9, 9, 3), np.float32)
    kernel[4, 2, 1] = -0.001
    with pytest.raises(fftbloom.UsageError, match=r"kernel array: kernel: texel \(2, 4\) channel G is -0.001"):
        fftbloom.Bloomer(kernel, kernel_size=size, validate=True)


def test_a_device_index_past_a_c_int_is_a_one_line_usage_error():
    with pytest.raises(fftbloom.UsageError, match=r"^device: 2147483648 is not") as error:
        fftbloom.bloom(random_frame(3), device=2**31)
    assert "\n" not in str(error.value)


def test_interpreter_exit_while_a_daemon_thread_blooms_exits_cleanly():
    """CPython ends a daemon thread that takes the GIL back once finalization began (PyThread_exit_thread, a forced
    unwind): the bloom it comes back from must let it end rather than abort the process. The child's last write fills
    the pipe, which is not read for a second: finalization flushes it with the GIL released, so the blooming thread
    takes the GIL back meanwhile."""
    script = (
        "import sys, threading, time\n"
        "import numpy as np\n"
        "import fftbloom\n"
        "bloomer = fftbloom.Bloomer(kernel_size=16)\n"
        "frame = np.ones((64, 64, 3), np.float32)\n"
        "bloomer(frame)\n"
        "def loop():\n"
        "    while True:\n"
        "        bloomer(frame)\n"
        "threading.Thread(target=loop, daemon=True).start()\n"
        "time.sleep(0.05)\n"
        "sys.stderr.write('exiting\\n')\n"
        "sys.stderr.flush()\n"
        "sys.stdout.write('x' * 1000000)\n")
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stderr.readline() == "exiting\n"
    time.sleep(1.0)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    assert len(out) == 1000000


def test_no_such_device_is_a_device_error():
    with pytest.raises(fftbloom.DeviceError, match="no device 99"):
        fftbloom.Bloomer(device=99, validate=True)


def frames(folder, count):
    """`count` small .hdr frames shot.1001.hdr ... in `folder`."""
    paths = []
    for i in range(count):
        path = folder / f"shot.{1001 + i}.hdr"
        write_hdr(path, random_frame(3, seed=10 + i)[:16, :24])
        paths.append(path)
    return paths


def test_run_batch_blooms_a_shot_and_fails_a_corrupt_frame(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    inputs = frames(tmp_path, 2)
    options = dict(out_dir=out, suffix="_bloom", kernel_size=8, quiet=True, validate=True)
    result = fftbloom.run_batch(inputs, **options)
    assert [f["status"] for f in result["frames"]] == ["ok", "ok"]
    assert [f["input"] for f in result["frames"]] == [os.fspath(p) for p in inputs]
    assert sorted(os.listdir(out)) == ["shot.1001_bloom.exr", "shot.1002_bloom.exr"]
    assert result["summary"]["ok"] == 2 and result["device"]

    corrupt = tmp_path / "shot.1003.hdr"
    corrupt.write_bytes(b"#?RADIANCE\ntruncated")
    with pytest.raises(fftbloom.FrameError, match="shot.1003.hdr") as failed:
        fftbloom.run_batch(inputs + [corrupt], **options)
    assert [f["status"] for f in failed.value.result["frames"]] == ["skipped", "skipped", "failed"]


def test_run_batch_errors_are_typed(tmp_path):
    inputs = frames(tmp_path, 1)
    with pytest.raises(fftbloom.UsageError, match="intensity"):
        fftbloom.run_batch(inputs, out_dir=tmp_path, intensity=-1, quiet=True)
    with pytest.raises(fftbloom.UsageError, match="say where outputs go"):
        fftbloom.run_batch(inputs, quiet=True)
    with pytest.raises(fftbloom.DeviceError, match="no device 99"):
        fftbloom.run_batch(inputs, out_dir=tmp_path, device=99, quiet=True, validate=True)
