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
 *  "fftbSetKernel: FFTB_ERROR_INVALID_ARGUMENT". The message callback of the create info has the details. */
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

/** Owns one FftbContext: destroyed with the object, movable, not copyable. The same rules as the C handle
 *  apply (external synchronization; no command buffer recorded with it pending at destruction). Every member
 *  has a non-throwing form returning FftbResult; with exceptions enabled, the throwing forms throw Error. */
class Context
{
  public:
    Context() noexcept = default;
    ~Context() { reset(); }
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    Context(Context&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Context& operator=(Context&& other) noexcept
    {
        if (this != &other)
        {
            reset();
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }

    /** fftbCreateContext into `context` (its previous context destroyed first). */
    static FftbResult create(const FftbContextCreateInfo& info, Context& context) noexcept
    {
        context.reset();
        return fftbCreateContext(&info, &context.handle_);
    }

    /** fftbSetKernel. */
    FftbResult setKernel(const FftbKernelInfo& info, std::nothrow_t) noexcept { return fftbSetKernel(handle_, &info); }

    /** fftbCmdBloom. */
    FftbResult cmdBloom(VkCommandBuffer commandBuffer, const FftbBloomInfo& info, std::nothrow_t) noexcept
    {
        return fftbCmdBloom(handle_, commandBuffer, &info);
    }

#ifdef FFTBLOOM_HPP_EXCEPTIONS
    /** Creates the context or throws Error. */
    explicit Context(const FftbContextCreateInfo& info)
    {
        check("fftbCreateContext", create(info, *this));
    }
    void setKernel(const FftbKernelInfo& info)
    {
        check("fftbSetKernel", setKernel(info, std::nothrow));
    }
    void cmdBloom(VkCommandBuffer commandBuffer, const FftbBloomInfo& info)
    {
        check("fftbCmdBloom", cmdBloom(commandBuffer, info, std::nothrow));
    }
#endif

    /** The C handle, still owned by this object; null when empty. */
    FftbContext get() const noexcept
    {
        return handle_;
    }
    explicit operator bool() const noexcept
    {
        return handle_ != nullptr;
    }

    /** Destroys the context, leaving this object empty. */
    void reset() noexcept
    {
        fftbDestroyContext(handle_);
        handle_ = nullptr;
    }

    /** Gives up ownership: the caller destroys the returned handle with fftbDestroyContext. */
    FftbContext release() noexcept
    {
        return std::exchange(handle_, nullptr);
    }

  private:
#ifdef FFTBLOOM_HPP_EXCEPTIONS
    static void check(const char* call, FftbResult result)
    {
        if (result != FFTB_SUCCESS)
            throw Error(call, result);
    }
#endif

    FftbContext handle_ = nullptr;
};

} // namespace fftbloom

#endif
