// A kernel that takes its sampler as an argument, as SPIR-V for the APIs' IL paths.
kernel void sample_at(read_only image2d_t source, sampler_t sampler, float2 coordinate, global float4* sampled) {
  sampled[0] = read_imagef(source, sampler, coordinate);
}
