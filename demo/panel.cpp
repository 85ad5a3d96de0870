// SPDX-License-Identifier: MIT
// The panel (view, A / B, bloom, kernel, timings and memory, keys) and the keyboard and mouse.
#include "panel.h"
#include "viewer_internal.h"

#include "message.h"
#include "settings/presets.h"
#include "settings/setting_names.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace fftb::viewer
{

namespace
{

const char* const kTonemapperNames[] = {"ACES fitted (Narkowicz)", "ACES (Hill)", "Reinhard", "Clamp",
                                        "OpenColorIO ($OCIO)"};

/// The tonemappers offered: OpenColorIO's only when $OCIO names a config.
int tonemapperCount()
{
    const char* ocio = std::getenv("OCIO");
    return ocio && *ocio ? 5 : 4;
}
const char* const kAxisNames[] = {"auto", "x first", "y first"};

/// A combo box over the names of a public enum whose values are 0 .. N - 1, in the table's order.
template <typename Enum, std::size_t N>
void enumCombo(const char* label, Enum* value, const SettingName<Enum> (&names)[N],
               const char* const (*labels)[N] = nullptr)
{
    const char* items[N];
    for (std::size_t i = 0; i < N; ++i)
        items[i] = labels ? (*labels)[i] : names[i].name;
    int index = int(*value);
    if (ImGui::Combo(label, &index, items, int(N)))
        *value = names[index].value;
}
// The combo's items: auto, then the plugin's units in their values' order (FftbKernelSpanUnit 0 .. 2).
const char* const kKernelSpanNames[] = {"auto (the same look at every resolution)", "native (a texel a pixel)",
                                        "pixels", "fraction of the diagonal"};

} // namespace

std::pair<Box2i, Box2i> sceneWindows(const Scene& scene)
{
    const int w = scene.texels.width, h = scene.texels.height;
    const ImageLayout& layout = scene.layout;
    const Box2i data = layout.dataWindow.empty() ? Box2i{0, 0, w - 1, h - 1} : layout.dataWindow;
    const Box2i display = layout.displayWindow.empty() ? data : layout.displayWindow;
    const auto relative = [&](const Box2i& b) {
        return Box2i{b.minX - data.minX, b.minY - data.minY, b.maxX - data.minX, b.maxY - data.minY};
    };
    return {relative(data), relative(display)};
}

bool bloomEveryFrame(const Settings& settings, const WindowDevice& wd)
{
    // On a CPU device one bloom of a photograph takes about a second: recording it only on changes keeps the
    // panel usable.
    return settings.rerun == Rerun::EveryFrame ||
           (settings.rerun == Rerun::Auto && wd.properties().deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU);
}

void Panel::handleInput(const PanelFrame& f)
{
    if (!ImGui::GetIO().WantCaptureKeyboard)
        handleKeys(f);
    handleMouse(f);
}

void Panel::handleKeys(const PanelFrame& f)
{
    const View views[] = {View::Composite,  View::Bloom,  View::Input,   View::Split,
                          View::Difference, View::Kernel, View::Spectrum};
    for (int i = 0; i < 7; ++i)
        if (ImGui::IsKeyPressed(GLFW_KEY_1 + i))
            f.settings.view = views[i];
    if (ImGui::IsKeyPressed(GLFW_KEY_T))
        f.settings.tonemapper = Tonemapper((int(f.settings.tonemapper) + 1) % tonemapperCount());
    if (ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD))
        f.settings.exposure = std::min(f.settings.exposure + 0.5f, 16.0f);
    if (ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT))
        f.settings.exposure = std::max(f.settings.exposure - 0.5f, -16.0f);
    if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT_BRACKET))
        edited(f).bloom.frame.intensity += 0.05f;
    if (ImGui::IsKeyPressed(GLFW_KEY_LEFT_BRACKET))
        edited(f).bloom.frame.intensity = std::max(edited(f).bloom.frame.intensity - 0.05f, 0.0f);
    if (ImGui::IsKeyPressed(GLFW_KEY_B, false))
        toggleEditB(f);
    if (ImGui::IsKeyPressed(GLFW_KEY_S, false))
        actions_.save();
    if (ImGui::IsKeyPressed(GLFW_KEY_H, false))
        f.settings.ui = !f.settings.ui;
    if (ImGui::IsKeyPressed(GLFW_KEY_F, false))
        f.place.fit = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE) || ImGui::IsKeyPressed(GLFW_KEY_Q))
        glfwSetWindowShouldClose(wd_.window(), GLFW_TRUE);
}

void Panel::handleMouse(const PanelFrame& f)
{
    ImGuiIO& io = ImGui::GetIO();
    const VkExtent2D e = wd_.swapchainExtent();
    const float divider = f.place.dividerX(e, f.settings.split);
    const bool splitShown = f.settings.view == View::Split && f.nodes[1].started();
    if (!io.WantCaptureMouse)
    {
        if (splitShown && ImGui::IsMouseClicked(ImGuiMouseButton_Left) && std::abs(io.MousePos.x - divider) < 8.0f)
            draggingDivider_ = true;
        if (io.MouseWheel != 0.0f)
        {
            // Zoom about the cursor: the texel under it stays under it.
            const float mx = io.MousePos.x - f.place.viewCentreX(e), my = io.MousePos.y - float(e.height) * 0.5f;
            const float before[2] = {f.place.centre[0] + mx * f.place.texelsPerPixel,
                                     f.place.centre[1] + my * f.place.texelsPerPixel};
            f.place.texelsPerPixel =
                std::clamp(f.place.texelsPerPixel * std::pow(0.85f, io.MouseWheel), 1.0f / 32.0f, 64.0f);
            f.place.centre[0] = before[0] - mx * f.place.texelsPerPixel;
            f.place.centre[1] = before[1] - my * f.place.texelsPerPixel;
            f.place.fit = false;
        }
        if (!draggingDivider_ &&
            (ImGui::IsMouseDragging(ImGuiMouseButton_Left) || ImGui::IsMouseDragging(ImGuiMouseButton_Right)))
        {
            f.place.centre[0] -= io.MouseDelta.x * f.place.texelsPerPixel;
            f.place.centre[1] -= io.MouseDelta.y * f.place.texelsPerPixel;
            f.place.fit = false;
        }
    }
    if (draggingDivider_)
    {
        f.settings.split =
            std::clamp((io.MousePos.x - f.place.viewLeft) / (float(e.width) - f.place.viewLeft), 0.0f, 1.0f);
        if (!ImGui::IsMouseDown(ImGuiMouseButton_Left))
            draggingDivider_ = false;
    }
    if (splitShown)
    {
        ImDrawList* draw = ImGui::GetBackgroundDrawList();
        const float x = divider;
        const ImU32 colour = draggingDivider_ ? IM_COL32(255, 210, 120, 255) : IM_COL32(255, 255, 255, 200);
        draw->AddLine(ImVec2(x, 0.0f), ImVec2(x, float(e.height)), colour, 2.0f);
        draw->AddCircleFilled(ImVec2(x, float(e.height) * 0.5f), 7.0f, colour);
        draw->AddText(ImVec2(x - 22.0f, float(e.height) - 24.0f), colour, "A");
        draw->AddText(ImVec2(x + 14.0f, float(e.height) - 24.0f), colour, "B");
    }
}

void Panel::useKernelFile(const PanelFrame& f, const std::string& path)
{
    edited(f).bloom.kernel.file = kernelPath_ = path;
    kernelFromFile_ = true;
}

void Panel::toggleEditB(const PanelFrame& f)
{
    if (!editB_ && !actions_.startB())
        return;
    editB_ = !editB_;
    ++editSwitches_;
    kernelPath_ = edited(f).bloom.kernel.file;
    kernelFromFile_ = !kernelPath_.empty();
}

void Panel::drawDisplayWindow(const PanelFrame& f)
{
    const auto [data, display] = sceneWindows(f.scene);
    const bool same = data.minX == display.minX && data.minY == display.minY && data.maxX == display.maxX &&
                      data.maxY == display.maxY;
    if (!showDisplayWindow_ || same || std::isnan(f.place.imageOrigin[0]))
        return;
    // Texel edges: the display window's first texel starts at minX, its last ends at maxX + 1.
    const ImVec2 from(f.place.imageOrigin[0] + float(display.minX) / f.place.texelsPerPixel,
                      f.place.imageOrigin[1] + float(display.minY) / f.place.texelsPerPixel);
    const ImVec2 to(f.place.imageOrigin[0] + float(display.maxX + 1) / f.place.texelsPerPixel,
                    f.place.imageOrigin[1] + float(display.maxY + 1) / f.place.texelsPerPixel);
    ImGui::GetBackgroundDrawList()->AddRect(from, to, IM_COL32(255, 200, 0, 255), 0.0f, 0, 2.0f);
}

void Panel::draw(const PanelFrame& f)
{
    ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(360, float(wd_.swapchainExtent().height) - 16.0f), ImGuiCond_FirstUseEver);
    ImGui::Begin("fftbloom");
    // Images are fitted beside the panel while it stays at the window's left.
    const float panelRight = ImGui::GetWindowPos().x + ImGui::GetWindowSize().x;
    f.place.viewLeft = ImGui::GetWindowPos().x < float(wd_.swapchainExtent().width) / 4.0f &&
                               panelRight < float(wd_.swapchainExtent().width) / 2.0f
                           ? panelRight + 8.0f
                           : 0.0f;
    drawSceneHeader(f);
    drawViewPanel(f);
    drawABPanel(f);
    Settings& e = edited(f);
    drawBloomPanel(f, e);
    drawKernelPanel(f, e);
    drawSettingsFilePanel(f, e);
    drawTimingPanel(f);
    if (ImGui::Button("Save EXR + PNG (S)"))
        actions_.save();

    drawKeysPanel();
    ImGui::End();
}

void Panel::drawSceneHeader(const PanelFrame& f)
{
    ImGui::TextWrapped("%s (%u x %u)", std::filesystem::path(f.scene.name).filename().c_str(),
                       uint32_t(f.scene.texels.width), uint32_t(f.scene.texels.height));
    if (const Box2i& display = f.scene.layout.displayWindow; !display.empty())
    {
        const Box2i& data = f.scene.layout.dataWindow;
        if (data.minX != display.minX || data.minY != display.minY || data.maxX != display.maxX ||
            data.maxY != display.maxY)
        {
            ImGui::Checkbox("##display window", &showDisplayWindow_);
            ImGui::SameLine();
            ImGui::TextWrapped("display window (%d, %d) - (%d, %d), data window (%d, %d) - (%d, %d)", display.minX,
                               display.minY, display.maxX, display.maxY, data.minX, data.minY, data.maxX, data.maxY);
        }
    }
    // The OpenEXR part, layer and view shown, read again on Enter (the CLI's --part, --layer and --view).
    if (ImGui::InputText("Part", &partText_, ImGuiInputTextFlags_EnterReturnsTrue))
        f.settings.selection.part = partText_;
    if (ImGui::InputText("Layer", &layerText_, ImGuiInputTextFlags_EnterReturnsTrue))
        f.settings.selection.layer = layerText_;
    if (ImGui::InputText("View", &viewText_, ImGuiInputTextFlags_EnterReturnsTrue))
        f.settings.selection.view = viewText_;
    if (!ImGui::IsAnyItemActive()) // not while typing: the selection the scene was read with, after a refusal
    {
        partText_ = f.settings.selection.part;
        layerText_ = f.settings.selection.layer;
        viewText_ = f.settings.selection.view;
    }
    if (!f.notice.empty())
        ImGui::TextWrapped("%s", f.notice.c_str());
    if (!f.message.empty())
    {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.55f, 0.4f, 1.0f));
        ImGui::TextWrapped("%s", oneLine(f.message).c_str());
        ImGui::PopStyleColor();
    }
}

void Panel::drawViewPanel(const PanelFrame& f)
{
    if (ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen))
    {
        int view = int(f.settings.view);
        const char* names[] = {"Composite", "Bloom only", "Input", "A/B split", "Difference", "Kernel", "Spectrum"};
        for (int i = 0; i < 7; ++i)
        {
            if (i != 0 && i != 3 && i != 5)
                ImGui::SameLine();
            ImGui::RadioButton(names[i], &view, i);
        }
        f.settings.view = View(view);
        int tonemapper = int(f.settings.tonemapper);
        ImGui::Combo("Tonemapper", &tonemapper, kTonemapperNames, tonemapperCount());
        f.settings.tonemapper = Tonemapper(tonemapper);
        if (f.settings.tonemapper == Tonemapper::Ocio)
        {
            // Applied on Enter: each change bakes the transform again. Empty: the config's own default.
            OcioChoice& ocio = f.settings.ocio;
            if (ImGui::InputTextWithHint("Display", "the config's default", &ocioText_.display,
                                         ImGuiInputTextFlags_EnterReturnsTrue))
                ocio.display = ocioText_.display;
            if (ImGui::InputTextWithHint("View", "the display's default", &ocioText_.view,
                                         ImGuiInputTextFlags_EnterReturnsTrue))
                ocio.view = ocioText_.view;
            if (ImGui::InputTextWithHint("Look", "none, or e.g. grade", &ocioText_.look,
                                         ImGuiInputTextFlags_EnterReturnsTrue))
                ocio.look = ocioText_.look;
            if (!ImGui::IsAnyItemActive())
                ocioText_ = ocio;
        }
        ImGui::SliderFloat("Exposure", &f.settings.exposure, -10.0f, 10.0f, "%+.1f stops");
        if (f.settings.view == View::Kernel)
            ImGui::TextDisabled("kernel texels, log10: 6 decades below the peak");
        if (f.settings.view == View::Spectrum)
            ImGui::TextDisabled("|spectrum| at S = pow2ceil(K), log10: 6 decades below DC, DC at the centre");
        if (f.settings.view == View::Split || f.settings.view == View::Difference)
        {
            ImGui::SliderFloat("Divider", &f.settings.split, 0.0f, 1.0f, "%.2f");
            ImGui::SliderFloat("Difference gain", &f.settings.differenceGain, 0.0f, 16.0f, "%.1f stops");
            int compare = f.settings.compareBloomOnly ? 1 : 0;
            ImGui::RadioButton("compare composites", &compare, 0);
            ImGui::SameLine();
            ImGui::RadioButton("blooms", &compare, 1);
            f.settings.compareBloomOnly = compare == 1;
        }
    }
}

void Panel::drawABPanel(const PanelFrame& f)
{
    if (ImGui::CollapsingHeader("A / B", ImGuiTreeNodeFlags_DefaultOpen))
    {
        int which = editB_ ? 1 : 0;
        ImGui::RadioButton("Controls edit A", &which, 0);
        ImGui::SameLine();
        ImGui::RadioButton("B", &which, 1);
        if ((which == 1) != editB_)
            toggleEditB(f);
        ImGui::SameLine();
        if (ImGui::Button(editB_ ? "B = A" : "A = B") && f.nodes[1].started())
            copySettings(editB_ ? f.settingsB : f.settings, editB_ ? f.settings : f.settingsB);
    }
}

void Panel::drawBloomPanel(const PanelFrame& f, Settings& e)
{
    if (ImGui::CollapsingHeader(editB_ ? "Bloom (B)" : "Bloom (A)", ImGuiTreeNodeFlags_DefaultOpen))
    {
        // A look to start from: its settings replace those it names (presets.h); the sliders then change them.
        if (ImGui::BeginCombo("Preset", "apply a look ..."))
        {
            for (const Preset& preset : presets())
                if (ImGui::Selectable(preset.title))
                {
                    Settings looked = e;
                    std::string error;
                    if (applySetting(looked, std::string("preset=") + preset.name, &error) &&
                        checkViewerSettings(looked, &error))
                        e = looked;
                    else
                        f.message = error;
                }
            ImGui::EndCombo();
        }
        // Ctrl+click types any value in the setting's range (0: the input, as the CLI writes it): past the slider's 4.
        if (ImGui::SliderFloat("Intensity", &e.bloom.frame.intensity, 0.0f, 4.0f, "%.3f"))
            e.bloom.frame.intensity = std::isfinite(e.bloom.frame.intensity)
                                          ? std::clamp(e.bloom.frame.intensity, 0.0f, float(kMaxLinearValue))
                                          : 1.0f;
        if (ImGui::ColorEdit3("Tint", e.bloom.frame.tint.data(), ImGuiColorEditFlags_Float | ImGuiColorEditFlags_HDR))
            for (float& t : e.bloom.frame.tint)
                t = std::isfinite(t) ? std::max(t, 0.0f) : 1.0f;
        ImGui::SliderFloat("Sharpening", &e.bloom.frame.sharpen, 0.0f, 1.0f, "%.3f");
        int additive = e.bloom.frame.output == FFTB_OUTPUT_MODE_ADDITIVE ? 1 : 0;
        ImGui::RadioButton("Energy-conserving", &additive, 0);
        ImGui::SameLine();
        ImGui::RadioButton("Additive composite", &additive, 1);
        e.bloom.frame.output = additive == 1 ? FFTB_OUTPUT_MODE_ADDITIVE : FFTB_OUTPUT_MODE_COMPOSITE;
        // The knee no wider than the threshold (checkSettings): it follows a threshold lowered past it.
        if (ImGui::SliderFloat("Threshold", &e.bloom.frame.prefilter.threshold, 0.0f, 100.0f,
                               e.bloom.frame.prefilter.threshold == 0.0f ? "off" : "%.3f",
                               ImGuiSliderFlags_Logarithmic))
            e.bloom.frame.prefilter.knee = std::min(e.bloom.frame.prefilter.knee, e.bloom.frame.prefilter.threshold);
        ImGui::BeginDisabled(e.bloom.frame.prefilter.threshold == 0.0f);
        ImGui::SliderFloat("Knee", &e.bloom.frame.prefilter.knee, 0.0f, e.bloom.frame.prefilter.threshold,
                           e.bloom.frame.prefilter.threshold == 0.0f ? "off" : "%.3f", ImGuiSliderFlags_AlwaysClamp);
        ImGui::EndDisabled();
        ImGui::SliderFloat("Clamp", &e.bloom.frame.prefilter.clamp, 0.0f, 1000.0f,
                           e.bloom.frame.prefilter.clamp == 0.0f ? "none" : "%.1f", ImGuiSliderFlags_Logarithmic);
        drawMask(f, e);
        enumCombo("Padding", &e.bloom.plan.padding, kPaddingNames);
        // The engineering controls: how the bloom is computed, not how it looks. The fold is a display setting
        // (advanced=), kept for A and B alike.
        ImGui::SetNextItemOpen(f.settings.advanced);
        f.settings.advanced = ImGui::TreeNode("Advanced");
        if (f.settings.advanced)
        {
            enumCombo("Axis order", &e.bloom.plan.axisOrder, kAxisOrderNames, &kAxisNames);
            enumCombo("Spectrum", &e.bloom.kernel.spectrum, kSpectrumModeNames);
            enumCombo("Storage", &e.bloom.plan.storage, kStoragePrecisionNames);
            if (e.bloom.plan.storage == FFTB_STORAGE_PRECISION_FLOAT16 && e.bloom.frame.prefilter.clamp == 0.0f)
                ImGui::TextDisabled("fp16: set a clamp beside extreme highlights");
            enumCombo("Resolution", &e.bloom.plan.resolution, kResolutionNames);
            drawPlan(f);
            ImGui::TreePop();
        }
    }
}

void Panel::drawKernelPanel(const PanelFrame& f, Settings& e)
{
    if (ImGui::CollapsingHeader(editB_ ? "Kernel (B)" : "Kernel (A)", ImGuiTreeNodeFlags_DefaultOpen))
    {
        int sizeLog2 = int(std::log2(e.bloom.kernel.sizeTexels));
        ImGui::SliderInt("Size", &sizeLog2, 1, 12, std::to_string(1 << sizeLog2).c_str()); // 2..4096 texels
        e.bloom.kernel.sizeTexels = 1 << sizeLog2;
        drawKernelSpan(f, e);
        ImGui::SliderFloat("Rotation", &e.bloom.kernel.rotationDegrees, -180.0f, 180.0f, "%.1f deg",
                           ImGuiSliderFlags_AlwaysClamp);
        ImGui::SliderFloat2("Centre offset", e.bloom.kernel.centreOffset.data(), -1.0f, 1.0f, "%.3f",
                            ImGuiSliderFlags_AlwaysClamp);
        // The radial fade: the kernel's own (auto) until moved.
        float fade = float(e.bloom.kernel.fadeOf());
        if (ImGui::SliderFloat("Fade", &fade, 0.0f, 1.0f, e.bloom.kernel.fade ? "%.3f of the radius" : "auto: %.2f",
                               ImGuiSliderFlags_AlwaysClamp))
            e.bloom.kernel.fade = fade;
        if (f.nodes.kernelJobRunning())
            ImGui::TextDisabled("making the kernel (%s) ...", f.nodes.kernelJobNode() == 0 ? "A" : "B");
        if (ImGui::RadioButton("Generated PSF", !kernelFromFile_))
        {
            kernelFromFile_ = false;
            e.bloom.kernel.file.clear();
        }
        ImGui::SameLine();
        if (ImGui::RadioButton("File", kernelFromFile_))
            kernelFromFile_ = true;
        if (!kernelFromFile_)
            drawGeneratedPsf(f, e);
        else
        {
            // Opened on Enter or with the button; Shift + drop fills it in too.
            const bool entered = ImGui::InputText("##kernel path", &kernelPath_, ImGuiInputTextFlags_EnterReturnsTrue);
            ImGui::SameLine();
            if ((ImGui::Button("Open") || entered) && !kernelPath_.empty())
                e.bloom.kernel.file = kernelPath_;
            ImGui::TextDisabled("%s", e.bloom.kernel.file.empty() ? "EXR or .hdr, centre at (w/2, h/2)"
                                                                  : e.bloom.kernel.file.c_str());
        }
    }
}

void Panel::drawGeneratedPsf(const PanelFrame& f, Settings& e)
{
    ImGui::SliderInt("Blades", &e.bloom.kernel.aperture.blades, 0, 16,
                     e.bloom.kernel.aperture.blades == 0 ? "circle" : "%d");
    if (e.bloom.kernel.aperture.blades == 1 || e.bloom.kernel.aperture.blades == 2)
        e.bloom.kernel.aperture.blades = 3;
    float curvature = float(e.bloom.kernel.aperture.bladeCurvature);
    ImGui::SliderFloat("Curvature", &curvature, 0.0f, 1.0f);
    e.bloom.kernel.aperture.bladeCurvature = curvature;
    float obstruction = float(e.bloom.kernel.aperture.obstruction);
    ImGui::SliderFloat("Obstruction", &obstruction, 0.0f, 0.9f);
    e.bloom.kernel.aperture.obstruction = obstruction;
    ImGui::SliderInt("Vanes", &e.bloom.kernel.aperture.vanes, 0, 8);
    float airy = float(e.bloom.kernel.airyRadius);
    ImGui::SliderFloat("Airy radius", &airy, 1.0f, 16.0f, "%.2f / 256 of the kernel");
    e.bloom.kernel.airyRadius = airy;
    float glare = float(e.bloom.kernel.glare);
    ImGui::SliderFloat("Glare", &glare, 0.0f, 1.0f, "%.2f of the light", ImGuiSliderFlags_AlwaysClamp); // eye's scatter
    e.bloom.kernel.glare = glare;
    float corona = float(e.bloom.kernel.aperture.corona);
    ImGui::SliderFloat("Corona", &corona, 0.0f, 1.0f); // an eye's lens fibres and particles
    e.bloom.kernel.aperture.corona = corona;
    int seed = int(std::min<uint32_t>(e.bloom.kernel.aperture.seed, 1000000000u));
    ImGui::InputInt("Seed", &seed);
    e.bloom.kernel.aperture.seed = uint32_t(std::clamp(seed, 0, 1000000000));
    ImGui::Checkbox("Eye: made on the GPU every frame", &e.bloom.kernel.animate);
    if (e.bloom.kernel.animate && !kernelKeyOf(e, f.settings.exposure).animated())
        ImGui::TextDisabled("needs a kernel size of 64..2048");
    else if (e.bloom.kernel.animate)
        ImGui::TextDisabled("particles flicker; the pupil follows the exposure");
}

void Panel::drawSettingsFilePanel(const PanelFrame& f, Settings& e)
{
    if (ImGui::CollapsingHeader(editB_ ? "Settings file (B)" : "Settings file (A)"))
    {
        // The bloom's and kernel's settings as a file both tools read, and the CLI command that blooms as these do.
        ImGui::InputText("##settings path", &settingsPath_);
        ImGui::SameLine();
        if (ImGui::Button("Save") && !settingsPath_.empty())
        {
            std::string error;
            if (writeSettingsFile(e, settingsPath_, {f.scene.name, e.bloom.kernel.file}, &error))
            {
                f.notice = "saved " + settingsPath_ + " (fftbloom --settings " + settingsPath_ + ")";
                f.message.clear();
            }
            else
                f.message = error;
        }
        const std::string command = cliCommand(e, f.scene.name, savedName(f.scene.name, 1) + ".exr");
        ImGui::TextWrapped("%s", command.c_str());
        if (ImGui::Button("Copy the command"))
            ImGui::SetClipboardText(command.c_str());
    }
}

void Panel::drawTimingPanel(const PanelFrame& f)
{
    if (ImGui::CollapsingHeader("GPU time (A), memory", ImGuiTreeNodeFlags_DefaultOpen))
    {
        int rerun = int(f.settings.rerun);
        const char* reruns[] = {"auto (every frame on a GPU)", "every frame", "on changes"};
        ImGui::Combo("Bloom runs", &rerun, reruns, 3);
        f.settings.rerun = Rerun(rerun);
        drawTimings(f);
        if (!bloomEveryFrame(f.settings, wd_))
        {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
            ImGui::TextWrapped("the bloom runs when the frame, the kernel or a bloom setting changes");
            ImGui::PopStyleColor();
        }
        const VkDeviceSize pluginBytes = pluginDeviceMemoryBytes();
        ImGui::Text("Plugin device memory: %.1f MiB (%s)", double(pluginBytes) / (1024.0 * 1024.0),
                    f.nodes[1].started() ? "A and B" : "A");
    }
}

void Panel::drawKeysPanel()
{
    if (ImGui::CollapsingHeader("Keyboard and mouse"))
    {
        ImGui::TextUnformatted("Drop an EXR or .hdr file on the window to open it;\n"
                               "with Shift held, it becomes the kernel.\n"
                               "1 2 3       composite, bloom only, input\n"
                               "4 5         A/B split, difference\n"
                               "6 7         kernel, kernel spectrum\n"
                               "B           controls edit A or B\n"
                               "T           next tonemapper\n"
                               "+ / -       exposure +- 0.5 stop\n"
                               "] / [       intensity +- 0.05\n"
                               "S           save the output (EXR, PNG)\n"
                               "H           hide or show this panel\n"
                               "F           fit the image to the window\n"
                               "wheel       zoom about the cursor\n"
                               "drag        pan; the divider in the split\n"
                               "Esc, Q      quit");
    }
}

void Panel::copySettings(const Settings& from, Settings& to)
{
    to.bloom = from.bloom;
    to.bloom.kernel = from.bloom.kernel;
}

void Panel::drawMask(const PanelFrame& f, Settings& e)
{
    // The matte is the scene's, A's and B's alike (the viewer reads it into the scene's alpha): a channel or layer of
    // the file, or a file mask= named; each node inverts it or not.
    MaskSettings& mask = f.settings.bloom.frame.mask;
    if (ImGui::BeginCombo("Mask", mask.active() ? mask.source.c_str() : "none"))
    {
        if (ImGui::Selectable("none", !mask.active()))
            mask.source.clear();
        for (const std::string& name : f.scene.masks)
            if (ImGui::Selectable(name.c_str(), name == mask.source))
                mask.source = name;
        ImGui::EndCombo();
    }
    ImGui::BeginDisabled(!mask.active());
    ImGui::Checkbox("Invert the mask", &e.bloom.frame.mask.invert);
    ImGui::EndDisabled();
}

void Panel::drawKernelSpan(const PanelFrame& f, Settings& e)
{
    const double diagonal = std::max(std::hypot(double(f.scene.texels.width), double(f.scene.texels.height)), 1.0);
    KernelSpan& span = e.bloom.plan.kernelSpan;
    const int current = span.automatic ? 0 : 1 + int(span.unit);
    int item = current;
    if (ImGui::Combo("Span", &item, kKernelSpanNames, 4) && item != current)
    {
        // A unit starts at the kernel's native span.
        const auto unit = FftbKernelSpanUnit(item - 1);
        span =
            item == 0
                ? autoKernelSpan()
                : KernelSpan{unit, float(unit == FFTB_KERNEL_SPAN_FRAME_DIAGONAL ? e.bloom.kernel.sizeTexels / diagonal
                                                                                 : e.bloom.kernel.sizeTexels)};
    }
    const ImGuiSliderFlags flags = ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp;
    if (span.automatic)
        return;
    if (span.unit == FFTB_KERNEL_SPAN_PIXELS)
        ImGui::SliderFloat("Pixels", &span.value, 1.0f, float(FFTB_MAX_KERNEL_LENGTH), "%.0f across", flags);
    else if (span.unit == FFTB_KERNEL_SPAN_FRAME_DIAGONAL)
        ImGui::SliderFloat("Of diagonal", &span.value, 0.001f, float(FFTB_MAX_KERNEL_LENGTH / diagonal), "%.3f", flags);
}

void Panel::drawPlan(const PanelFrame& f)
{
    // The edited node's plan as the plugin made it (fftbDescribeBloomPlan); a plan is made when its bloom is next
    // recorded after a change.
    const BloomNode& node = f.nodes[editB_ ? 1 : 0];
    if (!node.plan)
        return;
    FftbBloomPlanDescription plan{FFTB_STRUCTURE_TYPE_BLOOM_PLAN_DESCRIPTION};
    if (const FftbResult r = fftbDescribeBloomPlan(node.plan, &plan); r != FFTB_SUCCESS)
    {
        ImGui::TextWrapped("plan: %s", fftbResultToString(r));
        return;
    }
    const bool planXFirst = plan.axisOrder == FFTB_AXIS_ORDER_X_FIRST;
    ImGui::Text("Plan: %s first: N %u x %u", planXFirst ? "x" : "y", planXFirst ? plan.paddedWidth : plan.paddedHeight,
                planXFirst ? plan.paddedHeight : plan.paddedWidth);
    if (!node.planSettings.kernelSpan.native())
        ImGui::TextDisabled("kernel %u x %u pixels on the frame (x%.3g)", plan.kernelExtentWidth,
                            plan.kernelExtentHeight, plan.kernelScale);
    ImGui::TextDisabled("modelled cost %.3g (FFT lines x length cost, plus texels moved)%s", plan.modelledCost,
                        node.planSettings.axisOrder == FFTB_AXIS_ORDER_AUTO ? ": auto picks the cheaper order" : "");
}

void Panel::drawTimings(const PanelFrame& f)
{
    if (!wd_.timestamps())
    {
        ImGui::TextDisabled("this queue has no timestamps");
        return;
    }
    if (f.timings.blooms.empty())
        return;
    std::array<double, 5> mean{};
    for (const auto& t : f.timings.blooms)
        for (size_t i = 0; i < mean.size(); ++i)
            mean[i] += t[i] / double(f.timings.blooms.size());
    const char* names[] = {"1 first-axis FFT", "2 second axis: FFT, product, inverse",
                           "3 first-axis inverse, composite", "bloom total", "display pass"};
    // The default font is fixed-width: columns by padding.
    for (size_t i = 0; i < mean.size(); ++i)
        ImGui::Text("%-36s %9.3f ms", names[i], mean[i]);
    ImGui::TextDisabled("%-36s %9.3f ms", "kernel spectrum (last computed)", f.timings.spectrumMs);
    ImGui::TextDisabled("mean of the last %zu blooms; %s", f.timings.blooms.size(), wd_.properties().deviceName);
}

} // namespace fftb::viewer
