// SPDX-License-Identifier: MIT
// Links the shared library from C++ through fftbloom.hpp: an invalid create info throws fftbloom::Error.
#include <fftbloom/fftbloom.hpp>

#include <cstdio>

int main()
{
    FftbContextCreateInfo info{};
    info.sType = FFTB_STRUCTURE_TYPE_CONTEXT_CREATE_INFO;
    try
    {
        fftbloom::Context context(info);
    }
    catch (const fftbloom::Error& e)
    {
        if (e.result() != FFTB_ERROR_INVALID_ARGUMENT || fftbGetVersion() != FFTB_VERSION)
            return 1;
        std::printf("consumer_cpp: %s\n", e.what());
        return 0;
    }
    std::fprintf(stderr, "consumer_cpp: an empty create info was accepted\n");
    return 1;
}
