#pragma once
// A Level Zero image: a core::Image of its context on one device, its format mapped to the
// OpenCL channel order and type that kernels see (compiler/image_abi.h). A view
// (zeImageViewCreateExp) is an image over another image's texels; it holds that image's
// core::Image, so the texels stay while the view does.
#include <level_zero/ze_api.h>

#include <memory>

#include "level_zero/handle/handle.h"
#include "loom/core/device_info.h"
#include "loom/core/image.h"

namespace loom::l0 {

class Context;

class Image : public _ze_image_handle_t {
 public:
  Image(Context& context, std::shared_ptr<core::Image> image, ze_image_desc_t desc,
        std::shared_ptr<core::Image> viewed = nullptr)
      : context_(context), image_(std::move(image)), viewed_(std::move(viewed)), desc_(desc) {}
  static Image* fromHandle(ze_image_handle_t handle) { return static_cast<Image*>(handle); }

  Context& context() const { return context_; }
  core::Image& core() const { return *image_; }
  const std::shared_ptr<core::Image>& shared() const { return image_; }
  const ze_image_desc_t& desc() const { return desc_; }
  bool kernelWrites() const { return desc_.flags & ZE_IMAGE_FLAG_KERNEL_WRITE; }

 private:
  Context& context_;
  std::shared_ptr<core::Image> image_;
  std::shared_ptr<core::Image> viewed_;  // the image whose texels a view shares; null for others
  ze_image_desc_t desc_;
};

// ze_device_image_properties_t::maxImageBufferSize: the bytes of a buffer image
// (ZE_IMAGE_TYPE_BUFFER), which zeImageCreate checks, as the device's texel limit gives them for
// the narrowest texels (one byte), so that every format reaches them.
uint64_t maxBufferImageBytes(const core::ImageLimits& limits);

ze_result_t zeImageGetProperties(ze_device_handle_t hDevice, const ze_image_desc_t* desc, ze_image_properties_t* pImageProperties);
ze_result_t zeImageCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_image_desc_t* desc,
                          ze_image_handle_t* phImage);
ze_result_t zeImageViewCreateExp(ze_context_handle_t hContext, ze_device_handle_t hDevice, const ze_image_desc_t* desc,
                                 ze_image_handle_t hImage, ze_image_handle_t* phImageView);
ze_result_t zeImageDestroy(ze_image_handle_t hImage);
ze_result_t zeContextMakeImageResident(ze_context_handle_t hContext, ze_device_handle_t hDevice, ze_image_handle_t hImage);
ze_result_t zeContextEvictImage(ze_context_handle_t hContext, ze_device_handle_t hDevice, ze_image_handle_t hImage);
ze_result_t zeImageGetMemoryPropertiesExp(ze_image_handle_t hImage, ze_image_memory_properties_exp_t* pMemoryProperties);
ze_result_t zeImageGetAllocPropertiesExt(ze_context_handle_t hContext, ze_image_handle_t hImage,
                                         ze_image_allocation_ext_properties_t* pImageAllocProperties);

ze_result_t zeCommandListAppendImageCopy(ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
                                         ze_image_handle_t hSrcImage, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                         ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendImageCopyRegion(ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
                                               ze_image_handle_t hSrcImage, const ze_image_region_t* pDstRegion,
                                               const ze_image_region_t* pSrcRegion, ze_event_handle_t hSignalEvent,
                                               uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendImageCopyToMemory(ze_command_list_handle_t hCommandList, void* dstptr, ze_image_handle_t hSrcImage,
                                                 const ze_image_region_t* pSrcRegion, ze_event_handle_t hSignalEvent,
                                                 uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendImageCopyFromMemory(ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
                                                   const void* srcptr, const ze_image_region_t* pDstRegion,
                                                   ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                                   ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendImageCopyToMemoryExt(ze_command_list_handle_t hCommandList, void* dstptr,
                                                    ze_image_handle_t hSrcImage, const ze_image_region_t* pSrcRegion,
                                                    uint32_t destRowPitch, uint32_t destSlicePitch, ze_event_handle_t hSignalEvent,
                                                    uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);
ze_result_t zeCommandListAppendImageCopyFromMemoryExt(ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
                                                      const void* srcptr, const ze_image_region_t* pDstRegion,
                                                      uint32_t srcRowPitch, uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent,
                                                      uint32_t numWaitEvents, ze_event_handle_t* phWaitEvents);

}  // namespace loom::l0
