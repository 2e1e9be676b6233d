// One texel of an image as read_imagef and read_imagei return it, and writes of one color there
// (the Level Zero API tests of every format).
kernel void read_first_texel(read_only image2d_t source, global float4* floats, global int4* integers) {
  floats[0] = read_imagef(source, (int2)(0, 0));
  integers[0] = read_imagei(source, (int2)(0, 0));
}

kernel void write_first_texel_f(write_only image2d_t target, float4 color) { write_imagef(target, (int2)(0, 0), color); }

kernel void write_first_texel_i(write_only image2d_t target, int4 color) { write_imagei(target, (int2)(0, 0), color); }

kernel void write_first_texel_ui(write_only image2d_t target, uint4 color) { write_imageui(target, (int2)(0, 0), color); }
