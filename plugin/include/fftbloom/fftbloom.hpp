// SPDX-License-Identifier: MIT
/* fftbloom.hpp: a header-only C++17 RAII wrapper over the C API of fftbloom.h. It adds ownership and error
 * handling only; the structs are the C ones. */
#ifndef FFTBLOOM_HPP
#define FFTBLOOM_HPP

#include "fftbloom_generator.h"

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

/** Owns one FftbBloomPlan (fftbDestroyBloomPlan). Made by Context::createBloomPlan. Every member has a non-throwing
 *  form returning FftbResult; with exceptions enabled, the throwing forms throw Error. */
class BloomPlan : public UniqueHandle<FftbBloomPlan, fftbDestroyBloomPlan>
{
  public:
    using UniqueHandle::UniqueHandle;

    /** fftbDescribeBloomPlan. */
    FftbResult describe(FftbBloomPlanDescription& out, std::nothrow_t) const noexcept
    {
        out.sType = FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION;
        out.pNext = nullptr;
        return fftbDescribeBloomPlan(handle_, &out);
    }

    /** fftbCmdBloom. */
    FftbResult cmdBloom(VkCommandBuffer commandBuffer, const FftbBloomInfo& info, std::nothrow_t) noexcept
    {
        return fftbCmdBloom(handle_, commandBuffer, &info);
    }

    /** fftbCmdPrepareKernel. */
    FftbResult cmdPrepareKernel(VkCommandBuffer commandBuffer, std::nothrow_t) noexcept
    {
        return fftbCmdPrepareKernel(handle_, commandBuffer);
    }

#ifdef FFTBLOOM_HPP_EXCEPTIONS
    FftbBloomPlanDescription describe() const
    {
        FftbBloomPlanDescription out{};
        check("fftbDescribeBloomPlan", describe(out, std::nothrow));
        return out;
    }
    void cmdBloom(VkCommandBuffer commandBuffer, const FftbBloomInfo& info)
    {
        check("fftbCmdBloom", cmdBloom(commandBuffer, info, std::nothrow));
    }
    void cmdPrepareKernel(VkCommandBuffer commandBuffer)
    {
        check("fftbCmdPrepareKernel", cmdPrepareKernel(commandBuffer, std::nothrow));
    }

  private:
    /** Throws Error for an error code (< 0). */
    static void check(const char* call, FftbResult result)
    {
        if (result < 0)
            throw Error(call, result);
    }
#endif
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

    /** fftbCreateBloomPlan into `plan` (its previous plan destroyed first). */
    FftbResult createBloomPlan(const FftbBloomPlanCreateInfo& info, BloomPlan& plan, std::nothrow_t) noexcept
    {
        plan.reset();
        FftbBloomPlan handle = nullptr;
        const FftbResult result = fftbCreateBloomPlan(handle_, &info, &handle);
        plan = BloomPlan(handle);
        return result;
    }

    /** fftbCmdGenerateKernel. */
    FftbResult cmdGenerateKernel(VkCommandBuffer commandBuffer, const FftbApertureInfo& info, FftbKernel kernel,
                                 std::nothrow_t) noexcept
    {
        return fftbCmdGenerateKernel(handle_, commandBuffer, &info, kernel);
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
    BloomPlan createBloomPlan(const FftbBloomPlanCreateInfo& info)
    {
        BloomPlan plan;
        check("fftbCreateBloomPlan", createBloomPlan(info, plan, std::nothrow));
        return plan;
    }
    void cmdGenerateKernel(VkCommandBuffer commandBuffer, const FftbApertureInfo& info, FftbKernel kernel)
    {
        check("fftbCmdGenerateKernel", cmdGenerateKernel(commandBuffer, info, kernel, std::nothrow));
    }

  private:
    /** Throws Error for an error code (< 0). */
    static void check(const char* call, FftbResult result)
    {
        if (result < 0)
            throw Error(call, result);
    }
#endif
};

} // namespace fftbloom

#endif
