// Images, samplers and pipes are not supported yet (CL_DEVICE_IMAGE_SUPPORT and
// CL_DEVICE_PIPE_SUPPORT are false): the format query lists no formats, creating an image or a
// sampler fails as the specification says for contexts without a capable device, and no memory
// object is a pipe. Other image and pipe entry points reach the dispatch table's
// CL_INVALID_OPERATION stubs.
#include "opencl/context/context.h"
#include "opencl/validation.h"

using namespace loom::cl;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags, cl_mem_object_type, cl_uint,
                                                           cl_image_format*, cl_uint* num_image_formats) {
  CL_REQUIRE(objectOf<Context>(context), CL_INVALID_CONTEXT, "not a context");
  if (num_image_formats) *num_image_formats = 0;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags, const cl_image_format*, const cl_image_desc*,
                                              void*, cl_int* errcode_ret) {
  const cl_int error = objectOf<Context>(context) ? reportError(CL_INVALID_OPERATION, __func__, "no device supports images")
                                                  : reportError(CL_INVALID_CONTEXT, __func__, "not a context");
  return returnHandle<cl_mem>(error, nullptr, errcode_ret);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties*,
                                                                  cl_int* errcode_ret) {
  const cl_int error = objectOf<Context>(context) ? reportError(CL_INVALID_OPERATION, __func__, "no device supports images")
                                                  : reportError(CL_INVALID_CONTEXT, __func__, "not a context");
  return returnHandle<cl_sampler>(error, nullptr, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem, cl_pipe_info, size_t, void*, size_t*) {
  CL_FAIL(CL_INVALID_MEM_OBJECT, "no device supports pipes, so no memory object is a pipe");
}

}  // extern "C"
