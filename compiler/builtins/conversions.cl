// convert_<type><n>() and convert_<type><n>_sat() with the default rounding (explicitly rounded
// forms are not provided yet): C conversions, component-wise for vectors.

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

// Saturating conversions to integer types. From integers: negative values compare as long,
// others as ulong, so every source/destination pair compares without overflow. From floating
// point: NaN is 0, and the limits as floating point are powers of two (or 0), so compares are exact.
#define SAT_FROM_INTEGER(D, S, DMIN, DMAX)                                           \
  D OVL convert_##D##_sat(S x) {                                                     \
    if (x < (S)0) return (DMIN) == 0 || (long)x < (long)(DMIN) ? (D)(DMIN) : (D)x;   \
    return (ulong)x > (ulong)(DMAX) ? (D)(DMAX) : (D)x;                              \
  }
#define SAT_FROM_FLOAT(D, S, DMIN, DMAX)        \
  D OVL convert_##D##_sat(S x) {                \
    if (isnan(x)) return 0;                     \
    if (x <= (S)(DMIN)) return (D)(DMIN);       \
    if (x >= (S)(DMAX)) return (D)(DMAX);       \
    return (D)x;                                \
  }
// Vectors component by component through their scalar elements.
#define SAT_WIDTH(D, S, N)                                                                        \
  D##N OVL convert_##D##N##_sat(S##N x) {                                                       \
    D##N result;                                                                                \
    for (int i = 0; i < N; ++i) ((D*)&result)[i] = convert_##D##_sat(((S*)&x)[i]);              \
    return result;                                                                              \
  }
#define SAT_WIDTHS(D, S) SAT_WIDTH(D, S, 2) SAT_WIDTH(D, S, 3) SAT_WIDTH(D, S, 4) SAT_WIDTH(D, S, 8) SAT_WIDTH(D, S, 16)
#define SAT_TO(D, DMIN, DMAX)                                                                                          \
  SAT_FROM_INTEGER(D, char, DMIN, DMAX) SAT_FROM_INTEGER(D, uchar, DMIN, DMAX) SAT_FROM_INTEGER(D, short, DMIN, DMAX)   \
  SAT_FROM_INTEGER(D, ushort, DMIN, DMAX) SAT_FROM_INTEGER(D, int, DMIN, DMAX) SAT_FROM_INTEGER(D, uint, DMIN, DMAX)   \
  SAT_FROM_INTEGER(D, long, DMIN, DMAX) SAT_FROM_INTEGER(D, ulong, DMIN, DMAX) SAT_FROM_FLOAT(D, float, DMIN, DMAX)    \
  SAT_FROM_FLOAT(D, double, DMIN, DMAX)                                                                                \
  SAT_WIDTHS(D, char) SAT_WIDTHS(D, uchar) SAT_WIDTHS(D, short) SAT_WIDTHS(D, ushort) SAT_WIDTHS(D, int)              \
  SAT_WIDTHS(D, uint) SAT_WIDTHS(D, long) SAT_WIDTHS(D, ulong) SAT_WIDTHS(D, float) SAT_WIDTHS(D, double)

SAT_TO(char, CHAR_MIN, CHAR_MAX)
SAT_TO(uchar, 0, UCHAR_MAX)
SAT_TO(short, SHRT_MIN, SHRT_MAX)
SAT_TO(ushort, 0, USHRT_MAX)
SAT_TO(int, INT_MIN, INT_MAX)
SAT_TO(uint, 0, UINT_MAX)
SAT_TO(long, LONG_MIN, LONG_MAX)
SAT_TO(ulong, 0, ULONG_MAX)
