// SPDX-License-Identifier: MIT
// An OpenColorIO display transform for previews: the look of the studio's colour pipeline instead of a fixed tonemap.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace fftb
{

/// Which transform of an OpenColorIO config: each name empty means the config's default (its default display, that
/// display's default view, no look beyond the view's own).
struct OcioChoice
{
    std::string display; ///< a display of the config's `displays`
    std::string view;    ///< a view of that display
    std::string look;    ///< looks of the config's `looks`, as OpenColorIO reads them ("grade", "+a, -b")

    bool operator==(const OcioChoice&) const = default;
};

/// The display transform of an OpenColorIO config (OpenColorIO 2): from its `scene_linear` role through the chosen
/// looks (a LookTransform) to the chosen display and view (a DisplayViewTransform). Applying it is thread-safe.
class OcioDisplay
{
  public:
    /// The transform of the config $OCIO names, or std::nullopt when $OCIO is unset or empty and nothing is chosen.
    /// The processor is made in a child process first (OpenColorIO 2.1 crashes on some configs). Throws HostError
    /// "$OCIO=<path>: <reason>" when the config cannot be read, crashes OpenColorIO, or has no such display, view or
    /// look (naming those it has), and HostError when a name is chosen but $OCIO is unset.
    static std::optional<OcioDisplay> fromEnvironment(const OcioChoice& choice = {});

    /// "display '<display>', view '<view>'[, look '<look>'] of <config path>", for the CLI's messages.
    const std::string& description() const { return description_; }

    /// Transforms `rgb`, `count` packed R, G, B float triples, in place.
    void apply(float* rgb, std::size_t count) const;

    /// The transform sampled for a GPU: `size`^3 RGBA float texels (A = 1), red fastest, then green, then blue; node
    /// i > 0 of each axis holds the scene-linear value 2^(log2Min + (log2Max - log2Min) i / (size - 1)) and node 0
    /// holds 0, so that a shader reads colour c at the normalized coordinate (log2(c) - log2Min) / (log2Max -
    /// log2Min), clamped to [0, 1] (a log2 shaper: even steps in stops, as the eye and display transforms see light;
    /// black and everything below 2^log2Min at node 0). size 2 .. 256, log2Min < log2Max.
    std::vector<float> lut(int size, float log2Min, float log2Max) const;

  private:
    struct Processor;
    std::shared_ptr<const Processor> processor_;
    std::string description_;
};

} // namespace fftb
