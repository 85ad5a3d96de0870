/* SPDX-License-Identifier: MIT */
/* Links the static library from C: the version agrees with the header and an invalid create info is refused
 * before any Vulkan call. Exits non-zero on any disagreement. */
#include <fftbloom/fftbloom.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    FftbContextCreateInfo info;
    FftbContext context = NULL;
    FftbResult result;
    memset(&info, 0, sizeof info);
    info.sType = FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
    if (fftbGetVersion() != FFTB_VERSION)
    {
        fprintf(stderr, "consumer_c: library version %u, header %u\n", fftbGetVersion(), FFTB_VERSION);
        return 1;
    }
    result = fftbCreateContext(&info, &context);
    if (result != FFTB_ERROR_INVALID_ARGUMENT || context != NULL)
    {
        fprintf(stderr, "consumer_c: an empty create info gave %s\n", fftbResultToString(result));
        return 1;
    }
    printf("consumer_c: fftbloom %u.%u.%u\n", FFTB_VERSION_MAJOR, FFTB_VERSION_MINOR, FFTB_VERSION_PATCH);
    return 0;
}
