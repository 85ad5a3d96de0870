// SPDX-License-Identifier: MIT
// An OpenColorIO display transform for previews: the look of the studio's colour pipeline instead of a fixed tonemap.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fftb
{

/// The display transform of an OpenColorIO config (OpenColorIO 2): from its `scene_linear` role to its default display
/// and that display's default view, as a DisplayViewTransform. Applying it is thread-safe.
class OcioDisplay
{
  public:
    /// The transform of the config $OCIO names, or std::nullopt when $OCIO is unset or empty. Throws HostError
    /// "$OCIO=<path>: <OpenColorIO's reason>" when the config cannot be read or has no such transform.
    static std::optional<OcioDisplay> fromEnvironment();

    /// "display '<display>', view '<view>' of <config path>", for the CLI's messages.
    const std::string& description() const { return description_; }

    /// Transforms `rgb`, `count` packed R, G, B float triples, in place.
    void apply(float* rgb, std::size_t count) const;

  private:
    struct Processor;
    std::shared_ptr<const Processor> processor_;
    std::string description_;
};

} // namespace fftb
