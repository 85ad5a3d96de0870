// SPDX-License-Identifier: MIT
// Kernel texels: validation, per-channel normalization, upload; spectrum slots allocated on first use.
#include "kernel.h"

#include "bloom_plan.h"
#include "kernel_transform.h"

#include <array>
#include <atomic>
#include <cmath>

namespace fftb
{

namespace
{

uint64_t nextSerial()
{
    static std::atomic<uint64_t> last{0};
    return ++last;
}

} // namespace

std::string Kernel::nameOf(const char* what) const
{
    return "fftbloom: kernel " + std::to_string(width_) + "x" + std::to_string(height_) + " " + what;
}

Kernel::Kernel(std::shared_ptr<const Device> device, const FftbKernelInfo& info, const Extents& max,
               FftbLengthPolicy lengths)
    : device_(std::move(device)), serial_(nextSerial()), width_(info.width), height_(info.height),
      mode_(info.spectrumMode == FFTB_SPECTRUM_MODE_EXACT ? FFTB_SPECTRUM_MODE_EXACT : FFTB_SPECTRUM_MODE_RESAMPLED)
{
    if (info.spectrumMode != FFTB_SPECTRUM_MODE_RESAMPLED && info.spectrumMode != FFTB_SPECTRUM_MODE_EXACT)
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "kernelInfo.spectrumMode: unknown value"};
    if (!knownEnum(info.interpolation, FFTB_SPECTRUM_INTERPOLATION_LINEAR))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "kernelInfo.interpolation: unknown value"};
    const FftbSpectrumInterpolation interpolation =
        info.interpolation == FFTB_SPECTRUM_INTERPOLATION_CUBIC    ? FFTB_SPECTRUM_INTERPOLATION_CUBIC
        : info.interpolation == FFTB_SPECTRUM_INTERPOLATION_LINEAR ? FFTB_SPECTRUM_INTERPOLATION_LINEAR
                                                                   : FFTB_SPECTRUM_INTERPOLATION_ES;
    std::string reason;
    if (!makeSpectrumResampling(interpolation, info.interpolationWidth, info.spectrumOversampling, &resampling_,
                                &reason))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "kernelInfo." + reason};
    const size_t texels = size_t(info.width) * info.height;
    // A kernel made on the GPU may come without texels: until it is generated it holds a unit impulse at its centre
    // texel, the identity, which no placement moves.
    std::vector<float> impulse;
    if (!info.texels)
    {
        impulse.assign(texels * 3, 0.0f);
        std::fill_n(impulse.begin() + (size_t(height_ / 2) * width_ + width_ / 2) * 3, 3, 1.0f);
    }
    const float* given = info.texels ? info.texels : impulse.data();
    for (size_t i = 0; i < texels * 3; ++i)
    {
        const float v = given[i];
        if (!std::isfinite(v) || v < 0.0f)
            throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                          "kernelInfo.texels: texel (" + std::to_string((i / 3) % info.width) + ", " +
                              std::to_string((i / 3) / info.width) + ") is negative, NaN or infinite"};
    }
    const auto sumsOf = [&](const float* values, const char* field)
    {
        std::array<double, 3> sums{};
        for (size_t i = 0; i < texels * 3; ++i)
            sums[i % 3] += values[i];
        for (int c = 0; c < 3; ++c)
            if (!(sums[size_t(c)] > 0.0) || !std::isfinite(sums[size_t(c)]))
                throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS,
                              std::string("kernelInfo.") + field + ": channel " + std::to_string(c) + " sums to " +
                                  std::to_string(sums[size_t(c)]) + ", cannot be normalized"};
        return sums;
    };
    sumsOf(given, "texels");
    const KernelPlacement placement{info.rotationDegrees, info.centreOffsetU, info.centreOffsetV};
    if (!checkKernelPlacement(placement, &reason))
        throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "kernelInfo." + reason};
    const std::vector<float> placed = info.texels ? placeKernel(info.texels, width_, height_, placement) : impulse;
    const std::array<double, 3> sums = sumsOf(placed.data(), "centreOffsetU, centreOffsetV");

    const VkDeviceSize range = device_->properties.limits.maxStorageBufferRange;
    for (const FftbAxisOrder order : {FFTB_AXIS_ORDER_X_FIRST, FFTB_AXIS_ORDER_Y_FIRST})
    {
        const uint64_t elements =
            spectrumSlotChannelElements(max.width, max.height, width_, height_, max.kernelExtentWidth,
                                        max.kernelExtentHeight, order, mode_, resampling_.oversampling, lengths);
        if (elements * 8 > range)
            throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                          "kernelInfo: the kernel spectrum needs " + std::to_string(elements * 8) +
                              " bytes per channel, past the device's maxStorageBufferRange of " +
                              std::to_string(range)};
    }

    // Planar on the device: each channel's lines are contiguous for the kernel's first pass. A resampled spectrum
    // with the ES window is the transform of the deapodized kernel (resampling.h); the spectrum length S does not
    // depend on the axis order, so both slots share these texels.
    std::vector<double> deapodizeY(height_, 1.0);
    deapodizeX_.assign(width_, 1.0);
    if (mode_ == FFTB_SPECTRUM_MODE_RESAMPLED)
    {
        deapodizeX_ = fftb::deapodization(resampling_, width_, resampling_.oversampling * pow2Ceil(width_));
        deapodizeY = fftb::deapodization(resampling_, height_, resampling_.oversampling * pow2Ceil(height_));
    }
    if (auto next = findInChain<FftbKernelGeneratorInfo>(info.pNext, FFTB_STRUCTURE_TYPE_KERNEL_GENERATOR_INFO))
        generator_ = generatorSetupOf(info, *next, device_->properties.limits);
    texels_ = device_->createBuffer(VkDeviceSize(3) * texels * sizeof(float), true, nameOf("texels"));
    auto* planar = static_cast<float*>(texels_.mapped);
    for (size_t i = 0; i < texels; ++i)
        for (int c = 0; c < 3; ++c)
            planar[c * texels + i] =
                float(placed[i * 3 + size_t(c)] / sums[size_t(c)] * deapodizeX_[i % width_] * deapodizeY[i / width_]);
    try
    {
        // The GPU writes and reads generated texels: device-local, unlike the host-visible ones uploaded here.
        if (generator_.fftLength)
        {
            generatorBuffer_ = device_->createBuffer(generator_.bufferBytes, false, nameOf("generator"),
                                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT);
            generatedTexels_ = device_->createBuffer(texels_.sizeBytes, false, nameOf("generated texels"));
            generationWord_ = device_->createCompletionWord(nameOf("generated"));
        }
    }
    catch (...)
    {
        for (Buffer* b : {&texels_, &generatorBuffer_, &generatedTexels_, &generationWord_})
            device_->destroyBuffer(*b);
        throw;
    }
}

Kernel::~Kernel()
{
    device_->destroyBuffer(texels_);
    device_->destroyBuffer(generatedTexels_);
    device_->destroyBuffer(generatorBuffer_);
    device_->destroyBuffer(generationWord_);
    for (Slot& slot : slots_)
    {
        device_->destroyBuffer(slot.buffer);
        device_->destroyBuffer(slot.word);
    }
    for (BloomPlan* user : users_)
        user->forgetKernel();
}

std::vector<PipelineKey> Kernel::generatorPipelines() const
{
    if (!generator_.fftLength)
        return {};
    const uint32_t n = generator_.fftLength;
    return {{Pass::PsfApertureFft, n}, {Pass::PsfPatternFft, n}, {Pass::PsfSpectralRgb, 0}, {Pass::PsfNormalize, 0}};
}

Kernel::Generation Kernel::replaceTexels()
{
    std::lock_guard lock(mutex_);
    for (Slot& slot : slots_)
        slot.value = nextCompletionValue();
    serial_ = nextSerial();
    return {generatedTexels_.buffer, generatorBuffer_.buffer, generationWord_, nextCompletionValue()};
}

const Kernel::Slot& Kernel::slotOf(const Plan& plan) const
{
    const auto slot = findSlot(slots_, plan);
    if (slot != slots_.end())
        return *slot;
    throw Failure{FFTB_ERROR_INVALID_ARGUMENT, VK_SUCCESS, "plan: its kernel holds no spectrum for it"};
}

void Kernel::reserve(const Plan& plan, BloomPlan* user)
{
    std::lock_guard lock(mutex_);
    auto slot = findSlot(slots_, plan);
    if (slot == slots_.end())
    {
        const uint64_t needed = spectrumChannelElements(plan);
        if (needed * 8 > device_->properties.limits.maxStorageBufferRange)
            throw Failure{FFTB_ERROR_DEVICE_LIMIT, VK_SUCCESS,
                          "kernel: its spectrum at this plan's frequencies needs " + std::to_string(needed * 8) +
                              " bytes per channel, past the device's maxStorageBufferRange"};
        const std::string name = nameOf(plan.firstAxisIsX ? "spectrum, x first" : "spectrum, y first");
        Slot made;
        made.key = keyOf(plan);
        made.channelElements = needed;
        made.value = nextCompletionValue();
        made.buffer = device_->createBuffer(spectrumBufferBytes(needed), false, name);
        try
        {
            made.word = device_->createCompletionWord(name + " computed");
        }
        catch (...)
        {
            device_->destroyBuffer(made.buffer);
            throw;
        }
        slot = slots_.insert(slots_.end(), made);
    }
    ++slot->users;
    users_.push_back(user);
}

void Kernel::release(const Plan& plan, BloomPlan* user)
{
    std::lock_guard lock(mutex_);
    const auto slot = findSlot(slots_, plan);
    // The last plan that read it is destroyed, so no command buffer that reads it is pending.
    if (slot != slots_.end() && --slot->users == 0)
    {
        device_->destroyBuffer(slot->buffer);
        device_->destroyBuffer(slot->word);
        slots_.erase(slot);
    }
    std::erase(users_, user);
}

Kernel::Binding Kernel::bind(const Plan& plan) const
{
    std::lock_guard lock(mutex_);
    const Slot& slot = slotOf(plan);
    // Nothing about a generation is trusted when it is recorded: its command buffer may be dropped, or execute after
    // blooms recorded after it. The generated texels are bound once the host saw one execute (they then always hold
    // a whole generation's), and whatever is computed from the texels is tagged with the generation word's value
    // when it executes (0: the texels uploaded at creation). A dropped generation leaves the texels and what was
    // computed from them valid; one that executes changes the word, so the next bind recomputes the spectrum (and
    // border weights) from its texels, also when a bloom recorded before it executed after it.
    const uint32_t generation = generationWord_.mapped ? device_->valueOf(generationWord_) : 0;
    return {generation ? generatedTexels_.buffer : texels_.buffer,
            slot.buffer.buffer,
            slot.channelElements * 8,
            !device_->completed(slot.word, slot.value, generation),
            serial_,
            slot.word,
            slot.value,
            generation,
            generation ? generationWord_ : Buffer{}};
}

} // namespace fftb
