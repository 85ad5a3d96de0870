// SPDX-License-Identifier: MIT
// The extension fftbloom._fftbloom: the Bloomer and the fftbloom command's run, under the package python/fftbloom,
// which checks and converts the arrays and documents the API.
#include "bloomer.h"
#include "cli/run.h"
#include "fftbloom/fftbloom.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace fftb::python
{
namespace
{

/// float32, C order: the package converts other layouts and float16 before the call.
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

/// An (H, W, C) array as W x H texels of `components`: its C channels first, then alpha 1 (a 3-channel frame as RGBA).
Texels texelsOf(const FloatArray& array, const char* what, int components)
{
    const auto shape = [&array]
    {
        return py::str(py::tuple(py::cast(std::vector<py::ssize_t>(array.shape(), array.shape() + array.ndim()))))
            .cast<std::string>();
    };
    const bool channels = array.ndim() == 3 && (array.shape(2) == 3 || (components == 4 && array.shape(2) == 4));
    if (!channels || array.shape(0) < 1 || array.shape(1) < 1)
        throw BloomerError(Failure::Usage, std::string(what) + ": shape " + shape() + " is not (H, W, " +
                                               (components == 4 ? "3 or 4" : "3") + ") with H, W >= 1");
    if (array.shape(0) > std::numeric_limits<int>::max() / 4 || array.shape(1) > std::numeric_limits<int>::max() / 4)
        throw BloomerError(Failure::Usage, std::string(what) + ": shape " + shape() + " is too large");
    const int height = int(array.shape(0)), width = int(array.shape(1)), given = int(array.shape(2));
    Texels texels(width, height, components);
    const float* in = array.data();
    float* out = texels.values.data();
    for (std::size_t i = 0, n = std::size_t(width) * std::size_t(height); i < n; ++i, in += given, out += components)
    {
        std::memcpy(out, in, sizeof(float) * std::size_t(std::min(given, components)));
        if (given < components)
            out[3] = 1.0f;
    }
    return texels;
}

/// The first `channels` components of `texels` as an (H, W, channels) float32 array.
FloatArray arrayOf(const Texels& texels, int channels)
{
    FloatArray array({py::ssize_t(texels.height), py::ssize_t(texels.width), py::ssize_t(channels)});
    const float* in = texels.values.data();
    float* out = array.mutable_data();
    for (std::size_t i = 0, n = std::size_t(texels.width) * std::size_t(texels.height); i < n;
         ++i, in += texels.components, out += channels)
        std::memcpy(out, in, sizeof(float) * std::size_t(channels));
    return array;
}

/// A BloomerError as the package's exception of its kind (fftbloom/_errors.py).
void translate(std::exception_ptr failure)
{
    try
    {
        if (failure)
            std::rethrow_exception(failure);
    }
    catch (const BloomerError& e)
    {
        static const char* const kNames[] = {"UsageError", "FrameError", "DeviceError"};
        const py::object type = py::module_::import("fftbloom._errors").attr(kNames[int(e.failure())]);
        PyErr_SetString(type.ptr(), e.what());
    }
}

/// `work()`, run without the GIL, its result or exception returned or rethrown once the GIL is back. The GIL is taken
/// back outside any destructor: at interpreter exit, CPython ends a daemon thread that asks for the GIL by unwinding
/// it (pthread_exit), which pybind11's gil_scoped_release, whose destructor is noexcept, turns into std::terminate.
template <typename Work> auto withoutGil(const Work& work)
{
    using Result = decltype(work());
    std::optional<Result> result;
    std::exception_ptr failure;
    PyThreadState* const state = PyEval_SaveThread();
    try
    {
        result.emplace(work());
    }
    catch (...)
    {
        failure = std::current_exception();
    }
    PyEval_RestoreThread(state); // may end this thread at interpreter exit, unwinding through here
    if (failure)
        std::rethrow_exception(failure);
    return std::move(*result);
}

std::unique_ptr<Bloomer> makeBloomer(std::vector<std::pair<std::string, std::string>> settings,
                                     const std::optional<FloatArray>& kernel, int device, bool validate, float clamp)
{
    BloomerOptions options;
    options.settings = std::move(settings);
    if (kernel)
        options.kernel = texelsOf(*kernel, "kernel array", 3);
    options.deviceIndex = device;
    options.validation = validate;
    options.scrubMax = clamp;
    // The kernel's generation and the device's creation take a while.
    return withoutGil([&options] { return std::make_unique<Bloomer>(options); });
}

FloatArray bloom(Bloomer& bloomer, const FloatArray& rgb, const std::optional<FloatArray>& mask)
{
    Texels frame = texelsOf(rgb, "rgb", 4);
    std::vector<float> matte;
    if (mask)
    {
        const bool shaped = (mask->ndim() == 2 || (mask->ndim() == 3 && mask->shape(2) == 1)) &&
                            mask->shape(0) == rgb.shape(0) && mask->shape(1) == rgb.shape(1);
        if (!shaped)
            throw BloomerError(Failure::Usage, "mask: not of shape (H, W) or (H, W, 1) with rgb's H, W");
        matte.assign(mask->data(), mask->data() + mask->size());
    }
    const Texels result = withoutGil([&] { return bloomer.bloom(std::move(frame), mask ? &matte : nullptr); });
    return arrayOf(result, int(rgb.shape(2)));
}

/// runFftbloom with "fftbloom" and `args` as its argv; stdout and stderr flushed after it.
int run(const std::vector<std::string>& args)
{
    std::vector<std::string> argv{"fftbloom"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> pointers;
    for (std::string& arg : argv)
        pointers.push_back(arg.data());
    pointers.push_back(nullptr);
    return withoutGil(
        [&pointers]
        {
            const int code = runFftbloom(int(pointers.size() - 1), pointers.data());
            std::fflush(stdout);
            std::fflush(stderr);
            return code;
        });
}

} // namespace
} // namespace fftb::python

PYBIND11_MODULE(_fftbloom, m)
{
    using namespace fftb::python;
    m.doc() = "fftbloom's extension: use the package fftbloom, which documents and checks its arguments.";
    m.attr("__version__") = std::to_string(FFTB_VERSION_MAJOR) + "." + std::to_string(FFTB_VERSION_MINOR) + "." +
                            std::to_string(FFTB_VERSION_PATCH);
    py::register_exception_translator(&translate);
    py::class_<Bloomer>(m, "Bloomer")
        .def(py::init(&makeBloomer), py::arg("settings"), py::arg("kernel"), py::arg("device"), py::arg("validate"),
             py::arg("clamp"))
        .def("bloom", &bloom, py::arg("rgb"), py::arg("mask"))
        .def_property_readonly("device_name", &Bloomer::deviceName)
        .def_property_readonly("kernel", [](const Bloomer& b) { return arrayOf(b.kernel(), 3); })
        .def_property_readonly("kernel_warning", &Bloomer::kernelWarning)
        .def("setting_lines", &Bloomer::settingLines);
    m.def("run", &run, py::arg("args"));
}
