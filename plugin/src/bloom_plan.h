// SPDX-License-Identifier: MIT
// The object behind FftbBloomPlan: a resolved recipe, its kernel, its border weights; recording replays the recipe.
#pragma once

#include "context.h"

namespace fftb
{

class BloomPlan
{
  public:
    /// Resolves `info` (resolveRecipe), compiles the recipe's pipelines, reserves the kernel's spectrum and allocates
    /// the border weights. Throws Failure.
    BloomPlan(Context& context, const FftbBloomPlanCreateInfo& info);
    ~BloomPlan();
    BloomPlan(const BloomPlan&) = delete;
    BloomPlan& operator=(const BloomPlan&) = delete;

    /// fftbDescribeBloomPlan.
    void describe(FftbBloomPlanDescription* description) const;
    /// fftbGetPassStatistics: FFTB_SUCCESS or FFTB_INCOMPLETE; throws Failure on an error.
    FftbResult passStatistics(uint32_t* count, FftbPassStatistic* statistics) const;
    /// fftbCmdPrepareKernel.
    void cmdPrepareKernel(VkCommandBuffer cb);
    /// fftbCmdBloom.
    void cmdBloom(VkCommandBuffer cb, const FftbBloomInfo& info);

    /// The device the plan reports its failures to; it outlives the context.
    const Device& device() const { return *device_; }
    /// Throws FFTB_ERROR_INVALID_ARGUMENT once the plan's context was destroyed (orphan): every call but
    /// fftbDestroyBloomPlan checks it first.
    void checkContext() const;
    /// The context's destruction: the plan's GPU objects are destroyed and it forgets the context's.
    void orphan();
    /// Its kernel's destruction (fftbDestroyKernel before the plan): every call but fftbDestroyBloomPlan then refuses.
    void forgetKernel() { kernel_ = nullptr; }

  private:
    /// A plan's far field (FftbFarFieldInfo): `recipe` (resolveRecipe's farRecipe) with `kernel`.
    BloomPlan(Context& context, Kernel* kernel, Recipe recipe, const std::string& name);
    /// What both constructors do once the recipe is resolved: compiles its pipelines, reserves the kernel's spectrum,
    /// allocates the border weights and joins the context's plans. Throws Failure, leaving nothing behind.
    void make(Context& context, const std::string& name);
    /// The kernel, or FFTB_ERROR_INVALID_ARGUMENT once it was destroyed.
    Kernel& kernel() const;
    /// Whether a bloom with the kernel bound as `kernel` computes the border weights first: until a command buffer
    /// that computed them from a spectrum of the bound texels executed (Device::completed, Kernel::Binding::tag).
    bool needsBorderWeights(const Kernel::Binding& kernel) const
    {
        return recipe_.normalized &&
               (weightsSerial_ != kernel.serial || !device_->completed(weightsWord_, weightsValue_, kernel.tag));
    }
    /// Records what the bloom reads unless a command buffer that computed it executed: the kernel spectrum and, with
    /// `borderWeights` (their passes read the views), the border weights, each followed by its completion word.
    /// Records passes 1-3 with the far field's (farField_, in its own window of the scratch, Recipe::scratchOffset):
    /// its pass 1 beside pass 1, its pass 2, its pass 3 beside pass 2, then pass 3; barriers between; a timestamp after
    /// each of this plan's passes that wants one. `far` is the far field's resources.
    template <typename Stamp>
    void recordWithFarField(VkCommandBuffer cb, const PassResources& resources, const PassResources& far,
                            const FftbBloomInfo& info, Stamp stamp) const;
    void recordOnce(VkCommandBuffer cb, const PassResources& resources, const Kernel::Binding& kernel,
                    bool borderWeights);
    /// Throws FFTB_ERROR_DEVICE_LIMIT when the context's scratch no longer holds the plan's (fftbResizeContext).
    void checkScratch() const;
    /// The resources every pass of the plan binds, the views aside.
    PassResources resources(const Kernel::Binding& kernel) const;
    /// Records `passes` with `push`, a barrier after each but the last; a timestamp after those that want one.
    template <typename Stamp>
    void record(VkCommandBuffer cb, const std::vector<CompiledDispatch>& passes, const PassResources& resources,
                const FftbPushConstants& push, Stamp stamp) const;

    Context* context_; ///< null once orphaned
    std::shared_ptr<const Device> device_;
    Kernel* kernel_; ///< null once the kernel was destroyed
    Recipe recipe_;
    /// The recipe's pass lists with their pipelines.
    std::vector<CompiledDispatch> spectrumPasses_, borderWeightPasses_, framePasses_;
    Buffer borderWeights_;
    Buffer weightsWord_;         ///< the border weights' completion word (Device::completed)
    uint64_t weightsSerial_ = 0; ///< the Kernel::serial() of the border weights weightsValue_ stands for
    uint32_t weightsValue_ = 0;  ///< what weightsWord_ holds once they exist
    /// The far field's plan (FftbFarFieldInfo), recorded before this plan's passes 1-3, or null.
    std::unique_ptr<BloomPlan> farField_;
};

/// The object behind an FftbBloomPlan handle (the handle is its address).
inline BloomPlan* bloomPlanOf(FftbBloomPlan handle)
{
    return reinterpret_cast<BloomPlan*>(handle);
}

} // namespace fftb
