// SPDX-License-Identifier: MIT
// OcioDisplay: OpenColorIO's config, display and view, and its CPU processor.
#include "image/ocio_display.h"

#include "host_error.h"

#include <OpenColorIO/OpenColorIO.h>

#include <cstdlib>

namespace fftb
{

namespace OCIO = OCIO_NAMESPACE;

struct OcioDisplay::Processor
{
    OCIO::ConstCPUProcessorRcPtr cpu;
};

std::optional<OcioDisplay> OcioDisplay::fromEnvironment()
{
    const char* path = std::getenv("OCIO");
    if (!path || !*path)
        return std::nullopt;
    try
    {
        const OCIO::ConstConfigRcPtr config = OCIO::Config::CreateFromFile(path);
        const std::string display = config->getDefaultDisplay();
        const std::string view = config->getDefaultView(display.c_str());
        const OCIO::DisplayViewTransformRcPtr transform = OCIO::DisplayViewTransform::Create();
        transform->setSrc(OCIO::ROLE_SCENE_LINEAR);
        transform->setDisplay(display.c_str());
        transform->setView(view.c_str());
        OcioDisplay result;
        result.processor_ = std::make_shared<const Processor>(
            Processor{config->getProcessor(transform)->getOptimizedCPUProcessor(OCIO::OPTIMIZATION_DEFAULT)});
        result.description_ = "display '" + display + "', view '" + view + "' of " + path;
        return result;
    }
    catch (const OCIO::Exception& e)
    {
        throw HostError(std::string("$OCIO=") + path + ": " + e.what());
    }
}

void OcioDisplay::apply(float* rgb, std::size_t count) const
{
    OCIO::PackedImageDesc image(rgb, long(count), 1, 3);
    processor_->cpu->apply(image);
}

} // namespace fftb
