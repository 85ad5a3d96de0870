// SPDX-License-Identifier: MIT
// A test hook for device loss, shared by VulkanDevice (the CLI, tests) and the viewer's WindowDevice: waits report
// VK_ERROR_DEVICE_LOST as they do after a loss, though the device and the work it ran are fine, so that what a
// program does on a lost device can be tested on any driver.
#pragma once

#include <vulkan/vulkan.h>

namespace fftb
{

/// The environment's FFTBLOOM_TEST_LOSE_DEVICE_AFTER=N (docs/reliability.md), -1 when it is not set.
int loseDeviceAfterFromEnvironment();
/// Whether the environment sets FFTBLOOM_TEST_DEVICE_STAYS_LOST=1: a program that makes a new device after the
/// simulated loss (the viewer) is to fail as when the GPU itself is gone.
bool deviceStaysLostFromEnvironment();

/// Counts one device's waits: the first `afterWaits` pass through, every later one reports VK_ERROR_DEVICE_LOST.
class SimulatedDeviceLoss
{
  public:
    /// `afterWaits` < 0: off, every result passes through.
    explicit SimulatedDeviceLoss(int afterWaits = -1) : afterWaits_(afterWaits) {}

    /// The result of a wait as the program should see it: `result`, or VK_ERROR_DEVICE_LOST once the device counts
    /// as lost.
    VkResult afterWait(VkResult result)
    {
        if (result != VK_SUCCESS || afterWaits_ < 0)
            return result;
        if (waits_++ >= afterWaits_)
            lost_ = true;
        return lost_ ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
    }

    /// Whether a wait has reported the loss.
    bool lost() const { return lost_; }

  private:
    int afterWaits_ = -1;
    int waits_ = 0;
    bool lost_ = false;
};

} // namespace fftb
