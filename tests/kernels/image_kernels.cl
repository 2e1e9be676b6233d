// Image kernels as SPIR-V, for the APIs' IL paths: a sampler written in the source, a sampler
// taken as an argument (llvm-spirv 15 declares OpTypeSampler twice in such a module, which Loom
// reads as one type), and a kernel without images beside them.
const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void copy_first_pixel(read_only image2d_t source, global float4* pixel) {
  pixel[0] = read_imagef(source, nearest, (int2)(0, 0));
}

kernel void sample_at(read_only image2d_t source, sampler_t sampler, float2 coordinate, global float4* sampled) {
  sampled[0] = read_imagef(source, sampler, coordinate);
}

kernel void add_one(global int* data) { data[get_global_id(0)] += 1; }
