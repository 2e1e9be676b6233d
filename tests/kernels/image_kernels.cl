// A module with one kernel that takes images and one that does not: until Loom supports images,
// the module builds, the plain kernel runs, and only creating the image kernel fails.
const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void copy_first_pixel(read_only image2d_t source, global float4* pixel) {
  pixel[0] = read_imagef(source, nearest, (int2)(0, 0));
}

kernel void add_one(global int* data) { data[get_global_id(0)] += 1; }
