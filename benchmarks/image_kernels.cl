// The kernels of image_benchmark, built from this source on Loom and on the peer platform.

// A 5x5 binomial blur whose taps fall a quarter texel off the texel centres, so that every tap
// blends four texels through the sampler's linear filter. Quarter weights are exact in float and in
// the 8-bit fixed-point weights GPU texture units use, so every platform can meet one tolerance.
__constant sampler_t kLinearClampToEdge = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__constant float kBinomial[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

__kernel void blur5x5(__read_only image2d_t input, __write_only image2d_t output) {
  const int x = get_global_id(0), y = get_global_id(1);
  const float2 texelSize = (float2)(1.0f / get_image_width(input), 1.0f / get_image_height(input));
  float4 sum = 0.0f;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      const float2 at = ((float2)(x + dx, y + dy) + 0.75f) * texelSize;
      sum += kBinomial[dx + 2] * kBinomial[dy + 2] * read_imagef(input, kLinearClampToEdge, at);
    }
  write_imagef(output, (int2)(x, y), sum);
}

// A texel-by-texel copy through read_imagef and write_imagef (exact for the formats measured).
__kernel void copyTexels(__read_only image2d_t input, __write_only image2d_t output) {
  const int2 at = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(output, at, read_imagef(input, at));
}
