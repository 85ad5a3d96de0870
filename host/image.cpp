// Channel lookup for in-memory images.
#include "image.h"

namespace fftb
{

int Image::find(const std::string& name) const
{
    for (std::size_t i = 0; i < channels.size(); ++i)
    {
        if (channels[i].name == name)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace fftb
