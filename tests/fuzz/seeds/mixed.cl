// Seed: a program-scope variable, a helper function, a struct by value, vectors, math, atomics.
typedef struct { float scale; int offset; } Params;

global int counter = 0;

float4 transform(float4 v, Params p) { return sqrt(fabs(v)) * p.scale + (float)p.offset; }

kernel void mixed(global float4* data, Params p, global int* hits) {
  size_t i = get_global_id(0);
  float4 v = transform(data[i], p);
  data[i] = v;
  if (v.x > 1.0f) atomic_inc(hits);
  atomic_add(&counter, 1);
}
