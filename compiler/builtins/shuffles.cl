// shuffle and shuffle2: each component of the result picks a component of the input(s) by the
// low bits of the matching mask component.
#define SHUFFLE(T, U, N, M)                                                                  \
  T##M OVL shuffle(T##N x, U##M mask) {                                                      \
    T##M result;                                                                             \
    T* out = (T*)&result;                                                                    \
    const T* in = (const T*)&x;                                                              \
    const U* selector = (const U*)&mask;                                                     \
    for (int i = 0; i < M; ++i) out[i] = in[selector[i] % N];                                \
    return result;                                                                           \
  }                                                                                          \
  T##M OVL shuffle2(T##N x, T##N y, U##M mask) {                                             \
    T##M result;                                                                             \
    T* out = (T*)&result;                                                                    \
    const T* first = (const T*)&x;                                                           \
    const T* second = (const T*)&y;                                                          \
    const U* selector = (const U*)&mask;                                                     \
    for (int i = 0; i < M; ++i) {                                                            \
      const U index = selector[i] % (2 * N);                                                 \
      out[i] = index < N ? first[index] : second[index - N];                                 \
    }                                                                                        \
    return result;                                                                           \
  }
#define SHUFFLE_TO(T, U, N) SHUFFLE(T, U, N, 2) SHUFFLE(T, U, N, 4) SHUFFLE(T, U, N, 8) SHUFFLE(T, U, N, 16)
#define SHUFFLES(T, U) SHUFFLE_TO(T, U, 2) SHUFFLE_TO(T, U, 4) SHUFFLE_TO(T, U, 8) SHUFFLE_TO(T, U, 16)
SHUFFLES(char, uchar) SHUFFLES(uchar, uchar) SHUFFLES(short, ushort) SHUFFLES(ushort, ushort)
SHUFFLES(int, uint) SHUFFLES(uint, uint) SHUFFLES(long, ulong) SHUFFLES(ulong, ulong)
SHUFFLES(float, uint) SHUFFLES(double, ulong) SHUFFLES(half, ushort)
