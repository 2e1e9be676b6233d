// Image kernels as SPIR-V, for the APIs' IL paths: a sampler written in the source, and a kernel
// without images beside it. (sampler_kernels.cl takes a sampler argument: LLVM 15's translator
// declares the sampler type twice in a module that has both.)
const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void copy_first_pixel(read_only image2d_t source, global float4* pixel) {
  pixel[0] = read_imagef(source, nearest, (int2)(0, 0));
}

kernel void add_one(global int* data) { data[get_global_id(0)] += 1; }
