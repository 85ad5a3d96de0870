// SPDX-License-Identifier: MIT
// The presets' settings. Each sets the glow's size on the frame (kernel-span in fractions of the diagonal, the same
// look at every resolution) and the generated PSF's aperture and glare; the rest of the settings stay as they are.
#include "settings/presets.h"

namespace fftb
{
namespace
{

constexpr const char* kCamera[] = {
    "kernel=generated", "blades=6", "blade-curvature=0", "obstruction=0",    "vanes=0",
    "airy-radius=2",    "corona=0", "glare=0.25",        "kernel-fade=auto", "kernel-span=0.25diag"};
constexpr const char* kSoftGlow[] = {
    "kernel=generated", "blades=0", "blade-curvature=0", "obstruction=0",    "vanes=0",
    "airy-radius=3",    "corona=0", "glare=0.85",        "kernel-fade=auto", "kernel-span=0.35diag"};
constexpr const char* kEye[] = {"kernel=generated", "blades=0",           "blade-curvature=0", "obstruction=0",
                                "vanes=0",          "airy-radius=2",      "corona=0.5",        "glare=0.62",
                                "kernel-fade=auto", "kernel-span=0.2diag"};
constexpr const char* kUnreal[] = {"kernel=generated",
                                   "blades=6",
                                   "blade-curvature=0.5",
                                   "obstruction=0",
                                   "vanes=0",
                                   "airy-radius=2",
                                   "corona=0",
                                   "glare=0.5",
                                   "kernel-fade=auto",
                                   "kernel-span=0.87diag",
                                   "kernel-size=512",
                                   "kernel-centre-offset=0,0"};

constexpr Preset kPresets[] = {
    {"camera", "Camera, six-blade iris",
     "a photographic lens stopped down to a hexagonal aperture: six diffraction spikes (Fraunhofer diffraction of the "
     "straight blades) over a quarter of the light in scatter, the lens's veiling glare (Spencer et al. 1995's terms)",
     kCamera},
    {"soft-glow", "Round iris, soft glow",
     "a wide-open lens with a round aperture: an Airy disc and rings, and most of the light (0.85) in a wide glow, as "
     "a "
     "diffusion or mist filter makes",
     kSoftGlow},
    {"eye", "Eye",
     "the human eye at daylight: a round pupil with the lens fibres and particles of Ritschel et al. 2009 (the "
     "lenticular halo and ciliary corona) and the photopic scatter share of Spencer et al. 1995 (0.62 of the light)",
     kEye},
    {"unreal", "Unreal-like convolution bloom",
     "Unreal Engine's convolution bloom at its defaults (FConvolutionBloomSettings: Scale 1, the kernel as wide as the "
     "view, 0.87 of a 16:9 diagonal; Center UV 0.5, 0.5) with a star-and-glow kernel in place of its "
     "default kernel texture, which is not ours to ship: six soft spikes and half the light in glow",
     kUnreal},
};

} // namespace

std::span<const Preset> presets()
{
    return kPresets;
}

const Preset* findPreset(std::string_view name)
{
    for (const Preset& p : kPresets)
        if (name == p.name)
            return &p;
    return nullptr;
}

} // namespace fftb
