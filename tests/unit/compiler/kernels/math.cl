// Builtin library functions, compared with the host's C library by the test.

kernel void float_math(global const float* in, global float* out) {
  size_t i = get_global_id(0);
  float x = in[i];
  global float* r = out + 16 * i;
  r[0] = sqrt(x);
  r[1] = exp(x);
  r[2] = sin(x);
  r[3] = cos(x);
  r[4] = log(x);
  r[5] = pow(x, 1.5f);
  r[6] = tanh(x);
  r[7] = rsqrt(x);
  r[8] = fabs(-x);
  r[9] = fmin(x, 2.0f);
  r[10] = fmax(x, 2.0f);
  r[11] = floor(x);
  r[12] = ceil(x);
  r[13] = mad(x, 2.0f, 1.0f);
  r[14] = fma(x, x, 1.0f);
  r[15] = native_exp(x) + 0.0f * half_sqrt(x);
}

kernel void double_math(global const double* in, global double* out) {
  size_t i = get_global_id(0);
  double x = in[i];
  out[4 * i + 0] = sqrt(x);
  out[4 * i + 1] = exp(x);
  out[4 * i + 2] = sin(x);
  out[4 * i + 3] = atan2(x, 2.0);
}

kernel void integer_functions(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int x = in[i];
  global int* r = out + 8 * i;
  r[0] = abs(x);
  r[1] = min(x, 3);
  r[2] = max(x, 3);
  r[3] = clamp(x, -2, 5);
  r[4] = select(10, 20, x > 0);
  r[5] = convert_int(convert_float(x) * 1.5f);
  r[6] = convert_int_sat(convert_long(x) * 3000000000L);
  int4 v = (int4)(x, x + 1, x + 2, x + 3);
  r[7] = dot(convert_float4(v), (float4)(1.0f)) + any(v > 100) + all(v > -100);
}

kernel void saturating_conversions(global const int* in, global const float* floats, global int* out) {
  size_t i = get_global_id(0);
  int x = in[i];
  float f = floats[i];
  global int* r = out + 8 * i;
  r[0] = convert_uchar_sat(x);
  r[1] = convert_char_sat(x);
  r[2] = convert_uint_sat(x) == UINT_MAX ? -2 : (int)convert_uint_sat(x);
  r[3] = convert_int_sat(f);
  r[4] = convert_short_sat(f);
  r[5] = convert_ushort_sat((long)x * 1000);
  short4 v = convert_short4_sat((int4)(x, -x, 40000, -40000));
  r[6] = v.x + v.y;
  r[7] = v.z + v.w;
}
