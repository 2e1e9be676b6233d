// The struct the mixed_arguments kernels of the compiler's and the Level Zero API tests take by
// value: members of every alignment, padded as in C.
typedef struct {
  char c;
  int i;
  double d;
  short s;
} mixed_t;
