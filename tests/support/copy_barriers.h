// SPDX-License-Identifier: MIT
// The image barriers of a bloom recorded between an upload copy and a readback copy, as the tests record it.
#pragma once

#include "fftbloom/fftbloom.h"

/// The FftbImageBarrierInfo of a bloom after a copy into `input` (left VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL) and
/// before a copy out of `output` (from VK_IMAGE_LAYOUT_UNDEFINED, left VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL), both
/// over `range`, on one queue family.
inline FftbImageBarrierInfo betweenCopies(VkImage input, VkImage output, const VkImageSubresourceRange& range)
{
    FftbImageBarrierInfo b{FFTB_STRUCTURE_TYPE_IMAGE_BARRIER_INFO};
    b.inputImage = input;
    b.inputRange = range;
    b.inputLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.inputStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    b.inputAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    b.outputImage = output;
    b.outputRange = range;
    b.outputOldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.outputSrcStageMask = VK_PIPELINE_STAGE_2_NONE;
    b.outputSrcAccessMask = VK_ACCESS_2_NONE;
    b.outputNewLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    b.outputDstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    b.outputDstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
    return b;
}
