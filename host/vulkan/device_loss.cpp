// SPDX-License-Identifier: MIT
// The device-loss test hook's environment variable.
#include "vulkan/device_loss.h"

#include <cstdlib>

namespace fftb
{

int loseDeviceAfterFromEnvironment()
{
    const char* after = std::getenv("FFTBLOOM_TEST_LOSE_DEVICE_AFTER");
    return after && *after ? std::atoi(after) : -1;
}

bool deviceStaysLostFromEnvironment()
{
    const char* staysLost = std::getenv("FFTBLOOM_TEST_DEVICE_STAYS_LOST");
    return staysLost && std::atoi(staysLost) != 0;
}

} // namespace fftb
