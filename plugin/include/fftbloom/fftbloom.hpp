// SPDX-License-Identifier: MIT
/* fftbloom.hpp: a header-only C++17 RAII wrapper over the C API of fftbloom.h. It adds ownership and error
 * handling only; the structs are the C ones. */
#ifndef FFTBLOOM_HPP
#define FFTBLOOM_HPP

#include "fftbloom.h"

#include <new>
#include <utility>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#include <stdexcept>
#include <string>
#define FFTBLOOM_HPP_EXCEPTIONS 1
#endif

namespace fftbloom
{

#ifdef FFTBLOOM_HPP_EXCEPTIONS
/** Thrown by the throwing members: the FftbResult of the failed call and its name, e.g.
 *  "fftbCreateKernel: FFTB_ERROR_INVALID_ARGUMENT". The message callback of the create info has the details. */
class Error : public std::runtime_error
{
  public:
    Error(const char* call, FftbResult result)
        : std::runtime_error(std::string(call) + ": " + fftbResultToString(result)), result_(result)
    {
    }
    FftbResult result() const noexcept { return result_; }

  private:
    FftbResult result_;
};
#endif

/** Owns one handle of the C API, destroyed with `Destroy`: movable, not copyable. */
template <typename Handle, void (*Destroy)(Handle)> class UniqueHandle
{
  public:
    UniqueHandle() noexcept = default;
    /** Takes ownership of `handle`. */
    explicit UniqueHandle(Handle handle) noexcept : handle_(handle) {}
    ~UniqueHandle() { reset(); }
    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;
    UniqueHandle(UniqueHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    UniqueHandle& operator=(UniqueHandle&& other) noexcept
    {
        if (this != &other)
        {
            reset();
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }

    /** The C handle, still owned by this object; null when empty. */
    Handle get() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != nullptr; }
    /** Destroys the handle, leaving this object empty. */
    void reset() noexcept
    {
        Destroy(handle_);
        handle_ = nullptr;
    }
    /** Gives up ownership: the caller destroys the returned handle. */
    Handle release() noexcept { return std::exchange(handle_, nullptr); }

  protected:
    Handle handle_ = nullptr;
};

/** Owns one FftbKernel (fftbDestroyKernel). Made by Context::createKernel. */
class Kernel : public UniqueHandle<FftbKernel, fftbDestroyKernel>
{
  public:
    using UniqueHandle::UniqueHandle;
};

/** Owns one FftbContext (fftbDestroyContext). The same rules as the C handle apply (external synchronization; no
 *  command buffer recorded with it pending at destruction). Every member has a non-throwing form returning
 *  FftbResult; with exceptions enabled, the throwing forms throw Error. */
class Context : public UniqueHandle<FftbContext, fftbDestroyContext>
{
  public:
    using UniqueHandle::UniqueHandle;

    /** fftbCreateContext into `context` (its previous context destroyed first). */
    static FftbResult create(const FftbContextCreateInfo& info, Context& context) noexcept
    {
        context.reset();
        return fftbCreateContext(&info, &context.handle_);
    }

    /** fftbGetMemoryRequirements. */
    static FftbResult memoryRequirements(const FftbContextCreateInfo& info, FftbMemoryRequirements& out) noexcept
    {
        out.sType = FFTB_STRUCTURE_TYPE_MEMORY_REQUIREMENTS;
        out.pNext = nullptr;
        return fftbGetMemoryRequirements(&info, &out);
    }

    /** fftbResizeContext. */
    FftbResult resize(const FftbResizeInfo& info, std::nothrow_t) noexcept { return fftbResizeContext(handle_, &info); }

    /** fftbCreateKernel into `kernel` (its previous kernel destroyed first). */
    FftbResult createKernel(const FftbKernelInfo& info, Kernel& kernel, std::nothrow_t) noexcept
    {
        kernel.reset();
        FftbKernel handle = nullptr;
        const FftbResult result = fftbCreateKernel(handle_, &info, &handle);
        kernel = Kernel(handle);
        return result;
    }

    /** fftbDescribeNode. */
    FftbResult describeNode(const FftbBloomInfo& info, FftbNodeDescription& out, std::nothrow_t) noexcept
    {
        out.sType = FFTB_STRUCTURE_TYPE_NODE_DESCRIPTION;
        out.pNext = nullptr;
        return fftbDescribeNode(handle_, &info, &out);
    }

    /** fftbCmdBloom. */
    FftbResult cmdBloom(VkCommandBuffer commandBuffer, const FftbBloomInfo& info, std::nothrow_t) noexcept
    {
        return fftbCmdBloom(handle_, commandBuffer, &info);
    }

    /** fftbCmdPrepareKernel. */
    FftbResult cmdPrepareKernel(VkCommandBuffer commandBuffer, const FftbBloomInfo& info, std::nothrow_t) noexcept
    {
        return fftbCmdPrepareKernel(handle_, commandBuffer, &info);
    }

    /** fftbCmdGenerateKernel. */
    FftbResult cmdGenerateKernel(VkCommandBuffer commandBuffer, const FftbApertureInfo& info, FftbKernel kernel,
                                 std::nothrow_t) noexcept
    {
        return fftbCmdGenerateKernel(handle_, commandBuffer, &info, kernel);
    }

    /** fftbPreparePipelines; may run on another thread while this context records. */
    FftbResult preparePipelines(uint32_t count, const FftbBloomInfo* infos, std::nothrow_t) noexcept
    {
        return fftbPreparePipelines(handle_, count, infos);
    }

#ifdef FFTBLOOM_HPP_EXCEPTIONS
    /** Creates the context or throws Error. */
    explicit Context(const FftbContextCreateInfo& info)
    {
        check("fftbCreateContext", create(info, *this));
    }
    static FftbMemoryRequirements memoryRequirements(const FftbContextCreateInfo& info)
    {
        FftbMemoryRequirements out{};
        check("fftbGetMemoryRequirements", memoryRequirements(info, out));
        return out;
    }
    void resize(const FftbResizeInfo& info)
    {
        check("fftbResizeContext", resize(info, std::nothrow));
    }
    Kernel createKernel(const FftbKernelInfo& info)
    {
        Kernel kernel;
        check("fftbCreateKernel", createKernel(info, kernel, std::nothrow));
        return kernel;
    }
    FftbNodeDescription describeNode(const FftbBloomInfo& info)
    {
        FftbNodeDescription out{};
        check("fftbDescribeNode", describeNode(info, out, std::nothrow));
        return out;
    }
    /** Throws Error on a failure; false when nothing was recorded (FFTB_NOT_READY). */
    bool cmdBloom(VkCommandBuffer commandBuffer, const FftbBloomInfo& info)
    {
        return check("fftbCmdBloom", cmdBloom(commandBuffer, info, std::nothrow)) == FFTB_SUCCESS;
    }
    /** Throws Error on a failure; false when nothing was recorded (FFTB_NOT_READY). */
    bool cmdPrepareKernel(VkCommandBuffer commandBuffer, const FftbBloomInfo& info)
    {
        return check("fftbCmdPrepareKernel", cmdPrepareKernel(commandBuffer, info, std::nothrow)) == FFTB_SUCCESS;
    }
    void cmdGenerateKernel(VkCommandBuffer commandBuffer, const FftbApertureInfo& info, FftbKernel kernel)
    {
        check("fftbCmdGenerateKernel", cmdGenerateKernel(commandBuffer, info, kernel, std::nothrow));
    }
    void preparePipelines(uint32_t count, const FftbBloomInfo* infos)
    {
        check("fftbPreparePipelines", preparePipelines(count, infos, std::nothrow));
    }
#endif

  private:
#ifdef FFTBLOOM_HPP_EXCEPTIONS
    /** Throws Error for an error code (< 0); returns the others (FFTB_SUCCESS, FFTB_NOT_READY). */
    static FftbResult check(const char* call, FftbResult result)
    {
        if (result < 0)
            throw Error(call, result);
        return result;
    }
#endif
};

} // namespace fftbloom

#endif
