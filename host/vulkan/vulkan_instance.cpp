// SPDX-License-Identifier: MIT
// Instance creation with the validation layer, synchronization validation and a counting messenger.
#include "vulkan/vulkan_instance.h"

#include "host_error.h"
#include "vulkan/loaded_libraries.h"

#include <iterator>

namespace fftb
{

VKAPI_ATTR VkBool32 VKAPI_CALL VulkanInstance::onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                                         VkDebugUtilsMessageTypeFlagsEXT,
                                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void* user)
{
    auto* self = static_cast<VulkanInstance*>(user);
    if (self->validationMessages_++ == 0)
        self->firstValidationMessage_ = data->pMessage ? data->pMessage : "(no text)";
    return VK_FALSE;
}

VulkanInstance::VulkanInstance(const VulkanInstanceOptions& options)
{
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = options.applicationName;
    app.apiVersion = options.apiVersion;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    std::vector<const char*> extensions = options.extensions;
    VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mci.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mci.pfnUserCallback = &VulkanInstance::onMessage;
    mci.pUserData = this;
    // Synchronization validation as well: hazards between commands (SYNC-HAZARD-*) arrive as validation errors
    // through the same messenger and are counted like any other message.
    const VkValidationFeatureEnableEXT enabledFeatures[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT validationFeatures{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    validationFeatures.pNext = &mci;
    validationFeatures.enabledValidationFeatureCount = uint32_t(std::size(enabledFeatures));
    validationFeatures.pEnabledValidationFeatures = enabledFeatures;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (options.validation)
    {
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = &layer;
        ici.pNext = &validationFeatures; // the messenger behind it also reports on instance creation, destruction
    }
    ici.enabledExtensionCount = uint32_t(extensions.size());
    ici.ppEnabledExtensionNames = extensions.data();
    if (VkResult r = vkCreateInstance(&ici, nullptr, &instance_); r != VK_SUCCESS)
        throw HostError(options.validation && r == VK_ERROR_LAYER_NOT_PRESENT
                            ? "Vulkan: VK_LAYER_KHRONOS_validation not installed (vulkan-validationlayers)"
                            : "Vulkan: vkCreateInstance failed with VkResult " + std::to_string(int(r)));
    keepLoadedLibrariesUntilExit(); // the layer and the drivers, for leak reports that name them
    if (options.validation)
    {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
        if (VkResult r = create(instance_, &mci, nullptr, &messenger_); r != VK_SUCCESS)
        {
            vkDestroyInstance(instance_, nullptr);
            throw HostError("Vulkan: vkCreateDebugUtilsMessengerEXT failed with VkResult " + std::to_string(int(r)));
        }
    }
}

VulkanInstance::~VulkanInstance()
{
    if (messenger_)
    {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
        destroy(instance_, messenger_, nullptr);
    }
    vkDestroyInstance(instance_, nullptr);
}

} // namespace fftb
