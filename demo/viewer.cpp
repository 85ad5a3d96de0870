// SPDX-License-Identifier: MIT
// The viewer's set-up and frame loop, the scene it loads, node B started, the kernel view made, and device loss
// recovered from (the class in viewer_internal.h; the bloom nodes, the panel and the display in their own files, the
// files read and written in viewer_files.cpp).
#include "viewer_internal.h"

#include "host_error.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>

namespace fftb::viewer
{

void Viewer::start()
{
    const ViewerOptions& options = options_;
    initImGui();
    display_.createDeviceObjects(displayFrame());

    glfwSetWindowUserPointer(wd_.window(), this);
    glfwSetDropCallback(wd_.window(),
                        [](GLFWwindow* w, int count, const char** paths)
                        {
                            auto* self = static_cast<Viewer*>(glfwGetWindowUserPointer(w));
                            if (count > 0)
                                self->pendingLoad_ = paths[count - 1];
                        });

    const std::string first = options.imagePath.empty() ? std::string(FFTBLOOM_DEFAULT_SAMPLE) : options.imagePath;
    if (!loadImage(first))
    {
        if (script_.active())
            throw ViewerError(message_);
        const std::string reason = message_;
        loadScene(placeholderScene(), kPlaceholderScene);
        message_ = reason;
    }
    if (!nodes_.applyKernel(nodes_[0], settings_, settings_.exposure))
        throw ViewerError(message_);
    if ((settings_.view == View::Split || settings_.view == View::Difference) && !startB())
        throw ViewerError(message_);
}

Viewer::~Viewer()
{
    if (wd_.device()) // none when re-creating it after a loss failed
    {
        vkDeviceWaitIdle(wd_.device());
        display_.destroyDeviceObjects(displayFrame());
    }
    if (imguiGlfw_)
        ImGui_ImplGlfw_Shutdown();
    if (ImGui::GetCurrentContext())
        ImGui::DestroyContext();
}

int Viewer::run()
{
    script_.checkSupport();
    while (!glfwWindowShouldClose(wd_.window()))
    {
        try
        {
            if (!step())
                break;
        }
        catch (const VulkanError& e)
        {
            if (e.result() != VK_ERROR_DEVICE_LOST)
                throw;
            recoverFromDeviceLoss(e);
        }
    }
    checkVulkan(vkDeviceWaitIdle(wd_.device()), "vkDeviceWaitIdle");
    return 0;
}

bool Viewer::step()
{
    glfwPollEvents();
    script_.beforePass(frameNumber_, scriptHooks());
    if (script_.minimizedPass() || minimized())
    {
        glfwWaitEvents(); // nothing to draw, nor to compute, until the window is restored
        return true;
    }
    int fbWidth = 0, fbHeight = 0;
    glfwGetFramebufferSize(wd_.window(), &fbWidth, &fbHeight);
    if (display_.swapchainStale() || uint32_t(fbWidth) != wd_.swapchainExtent().width ||
        uint32_t(fbHeight) != wd_.swapchainExtent().height)
    {
        if (!display_.recreateSwapchain(displayFrame()))
        {
            // The surface has no extent though the window has an area (a minimize on its way): wait a little.
            glfwWaitEventsTimeout(0.1);
            return true;
        }
    }
    if (settings_.tonemapper == Tonemapper::Ocio && lutChoice_ != settings_.ocio)
        updateDisplayLut();
    // Another part, layer, view or mask chosen (the panel, --later): the scene's file read again. The mask's matte is
    // the scene's: B takes A's.
    settingsB_.bloom.frame.mask.source = settings_.bloom.frame.mask.source;
    if (scene_.name != kPlaceholderScene &&
        (settings_.selection != loaded_ || settings_.bloom.frame.mask.source != loadedMask_))
        loadImage(scene_.name);
    if (!pendingLoad_.empty())
    {
        const std::string path = std::exchange(pendingLoad_, std::string());
        if (glfwGetKey(wd_.window(), GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
            glfwGetKey(wd_.window(), GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS)
            panel_.useKernelFile(panelFrame(), path); // shift + drop: the file becomes the kernel
        else
            loadImage(path);
    }

    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    const PanelFrame frame = panelFrame();
    panel_.handleInput(frame);
    const bool last = script_.lastFrame(frameNumber_);
    if (settings_.ui)
    {
        const bool printed = last && options_.printPanel;
        if (printed)
            ImGui::LogToTTY(0); // stdout; depth 0: folds stay as they are
        panel_.draw(frame);
        if (printed)
            ImGui::LogFinish();
    }
    else
        place_.viewLeft = 0.0f;
    panel_.drawDisplayWindow(frame);
    ImGui::Render();
    if (!ImGui::IsAnyItemActive())
        updateNodes();

    if (last) // the screenshot shows the settings' kernels, not the ones still being made
        nodes_.finishKernels(settings_, settingsB_);
    if (!display_.drawFrame(displayFrame(), last, frameNumber_))
        return true;
    ++frameNumber_;
    if (last)
    {
        checkVulkan(vkQueueWaitIdle(wd_.queue()), "vkQueueWaitIdle");
        script_.writeScreenshot(display_.screenshot());
        if (options_.save)
        {
            save();
            if (!message_.empty())
                throw ViewerError(message_);
        }
        return false;
    }
    return true;
}

void Viewer::updateDisplayLut()
{
    lutChoice_ = settings_.ocio;
    try
    {
        const std::optional<OcioDisplay> ocio = OcioDisplay::fromEnvironment(settings_.ocio);
        if (!ocio)
            throw HostError("tonemap=ocio: $OCIO names no OpenColorIO config");
        std::vector<float> lut = ocio->lut(DISPLAY_LUT_SIZE, DISPLAY_LUT_LOG2_MIN, DISPLAY_LUT_LOG2_MAX);
        waitIdle(); // the frames in flight read the LUT it replaces
        display_.setDisplayLut(displayFrame(), std::move(lut), DISPLAY_LUT_SIZE);
    }
    catch (const HostError& e)
    {
        message_ = e.what();
        settings_.tonemapper = Tonemapper::AcesFitted;
        lutChoice_.reset(); // tried again when tonemap=ocio is picked again
        if (script_.active())
            throw ViewerError(message_);
    }
}

ScriptHooks Viewer::scriptHooks()
{
    return {[this](const std::string& path) { pendingLoad_ = path; },
            [this](const std::string& keyValue)
            {
                const bool ofB = keyValue.compare(0, 2, "b.") == 0;
                Settings& settings = ofB ? settingsB_ : settings_;
                std::string error;
                if (ofB && keyValue.compare(0, 7, "b.mask=") == 0)
                    throw ViewerError(kMaskOfB);
                if (!applySetting(settings, ofB ? keyValue.substr(2) : keyValue, &error) ||
                    !checkViewerSettings(settings, &error, ofB ? "b." : ""))
                    throw ViewerError(error);
            }};
}

void Viewer::updateNodes()
{
    nodes_.updateKernels(settings_, settingsB_);
    if ((settings_.view == View::Split || settings_.view == View::Difference) && !nodes_[1].started() && !startB())
        settings_.view = View::Composite;
    // A kernel handed to the plugin, or the controls switched between A and B, since the kernel view was made.
    if (const uint64_t changes = nodes_.kernelsInstalled(0) + nodes_.kernelsInstalled(1) + panel_.editSwitches();
        changes != kernelViewChanges_)
    {
        kernelViewStale_ = true;
        kernelViewChanges_ = changes;
    }
    // FFTW plans on one thread at a time: the spectrum view waits for a kernel being generated.
    if ((settings_.view == View::Kernel || settings_.view == View::Spectrum) &&
        (kernelViewStale_ || settings_.view != kernelViewShows_) && !nodes_.kernelJobRunning())
        makeKernelView();
}

bool Viewer::minimized() const
{
    int width = 0, height = 0;
    glfwGetFramebufferSize(wd_.window(), &width, &height);
    // 0 x 0 where minimizing takes the window's area (Windows); iconified where it keeps its size (X11).
    return width == 0 || height == 0 || glfwGetWindowAttrib(wd_.window(), GLFW_ICONIFIED);
}

void Viewer::initImGui()
{
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr; // the same layout every start, and no file left in the working folder
    ImGui::StyleColorsDark();
    ImGui::GetStyle().Colors[ImGuiCol_WindowBg].w = 0.85f;
    imguiGlfw_ = ImGui_ImplGlfw_InitForVulkan(wd_.window(), true);
}

bool Viewer::startB()
{
    if (nodes_[1].started())
        return true;
    if (!nodes_.startB(uint32_t(scene_.texels.width), uint32_t(scene_.texels.height), settingsB_, settings_.exposure))
        return false;
    waitIdle();
    display_.createOutput(nodes_[1]);
    display_.updateDisplaySets(displayFrame());
    return true;
}

void Viewer::makeKernelView()
{
    const Texels view = kernelViewTexels(nodes_[panel_.editB() && nodes_[1].started() ? 1 : 0].kernel.texels,
                                         settings_.view == View::Spectrum);
    waitIdle();
    display_.setKernelView(displayFrame(), view);
    kernelViewStale_ = false;
    kernelViewShows_ = settings_.view;
    place_.fit = true;
}

bool Viewer::loadScene(Texels rgba, const std::string& name, const ImageLayout& layout)
{
    const uint32_t w = uint32_t(rgba.width), h = uint32_t(rgba.height);
    waitIdle();
    if (!nodes_.fitNode(nodes_[0], w, h) || (nodes_[1].started() && !nodes_.fitNode(nodes_[1], w, h)))
    {
        message_ = name + ": " + message_;
        return false;
    }

    display_.uploadScene(displayFrame(), rgba);
    scene_.texels = std::move(rgba);
    scene_.original = Texels();
    scene_.alpha.clear();
    scene_.masks.clear();
    scene_.layout = layout;
    scene_.name = name;
    ++scene_.generation;
    glfwSetWindowTitle(wd_.window(), ("fftbloom-viewer: " + std::filesystem::path(name).filename().string()).c_str());
    message_.clear();
    notice_.clear();
    place_.fit = true;
    return true;
}

bool Viewer::loadImage(const std::string& path)
{
    SceneFile file;
    try
    {
        file = readScene(path, settings_.selection, settings_.bloom.frame.mask);
    }
    catch (const std::exception& e)
    {
        message_ = e.what();
        settings_.selection = loaded_;
        settings_.bloom.frame.mask.source = loadedMask_;
        return false;
    }
    if (!loadScene(std::move(file.rgba), path, file.layout))
    {
        settings_.selection = loaded_;
        settings_.bloom.frame.mask.source = loadedMask_;
        return false;
    }
    loaded_ = settings_.selection;
    loadedMask_ = settings_.bloom.frame.mask.source;
    scene_.original = std::move(file.original);
    scene_.alpha = std::move(file.alpha);
    scene_.masks = std::move(file.masks);
    if (!file.notice.empty())
        notice_ = file.notice;
    return true;
}

void Viewer::save()
{
    const SavedOutput saved = display_.readBackOutput(displayFrame());
    try
    {
        notice_ = writeOutput(saved, scene_, settings_);
        message_.clear();
    }
    catch (const std::exception& e)
    {
        message_ = e.what();
    }
}

int runViewer(const ViewerOptions& options)
{
    WindowDevice wd(options.window);
    int code = 0;
    {
        Viewer viewer(wd, options);
        viewer.start();
        code = viewer.run();
    }
    if (options.window.validation && wd.validationMessageCount() > 0)
        throw ViewerError("validation: " + std::to_string(wd.validationMessageCount()) +
                          " message(s), the first: " + wd.firstValidationMessage());
    return code;
}

// Device loss: every object made on the device destroyed, a new device made, and what the viewer keeps on the host (the
// scene, the kernels, the settings) uploaded again, so that the image stays and the panel says what happened.

void Viewer::recoverFromDeviceLoss(const VulkanError& loss)
{
    // A loss found while the panel was being built: its frame is closed so that the next one starts cleanly.
    if (ImGui::GetCurrentContext()->WithinFrameScope)
    {
        ImGui::ErrorCheckEndFrameRecover(nullptr);
        ImGui::EndFrame();
    }
    const bool withB = bool(nodes_[1].started());
    vkDeviceWaitIdle(wd_.device()); // VK_ERROR_DEVICE_LOST at once on a lost device: nothing more is pending
    display_.destroyDeviceObjects(displayFrame());
    kernelViewStale_ = true;
    try
    {
        wd_.recreateDevice();
        script_.checkSupport();
        display_.createDeviceObjects(displayFrame());
        uploadHostCopies(withB);
    }
    catch (const std::exception& e)
    {
        throw ViewerError(std::string("the GPU device was lost (") + loss.what() +
                          ") and could not be re-created: " + e.what());
    }
    message_ = std::string("The GPU device was lost and has been re-created; the image and the kernels were "
                           "uploaded again (") +
               loss.what() + ")";
}

void Viewer::uploadHostCopies(bool withB)
{
    const uint32_t w = uint32_t(scene_.texels.width), h = uint32_t(scene_.texels.height);
    for (size_t i = 0; i < (withB ? 2u : 1u); ++i)
    {
        BloomNode& node = nodes_[i];
        if (!nodes_.fitNode(node, w, h))
            throw ViewerError(message_);
    }
    display_.uploadScene(displayFrame(), scene_.texels);
}

} // namespace fftb::viewer
