// convert_<type><n>() with the default rounding: C conversions, component-wise for vectors.
// (Saturating and explicitly rounded forms are not provided yet.)

#define CONVERT_WIDTH(D, S, N) D##N OVL convert_##D##N(S##N x) { return __builtin_convertvector(x, D##N); }
#define CONVERT_FROM(D, S)                                   \
  D OVL convert_##D(S x) { return (D)x; }                    \
  CONVERT_WIDTH(D, S, 2) CONVERT_WIDTH(D, S, 3) CONVERT_WIDTH(D, S, 4) CONVERT_WIDTH(D, S, 8) CONVERT_WIDTH(D, S, 16)
#define CONVERT_TO(D)                                                                                   \
  CONVERT_FROM(D, char) CONVERT_FROM(D, uchar) CONVERT_FROM(D, short) CONVERT_FROM(D, ushort)           \
  CONVERT_FROM(D, int) CONVERT_FROM(D, uint) CONVERT_FROM(D, long) CONVERT_FROM(D, ulong)               \
  CONVERT_FROM(D, float) CONVERT_FROM(D, double)

CONVERT_TO(char)
CONVERT_TO(uchar)
CONVERT_TO(short)
CONVERT_TO(ushort)
CONVERT_TO(int)
CONVERT_TO(uint)
CONVERT_TO(long)
CONVERT_TO(ulong)
CONVERT_TO(float)
CONVERT_TO(double)
