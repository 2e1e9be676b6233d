#pragma once
// Measuring each platform or device in a process of its own, so that none inherits what another
// left on the GPU.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <type_traits>

namespace loom::benchmarks {

// Runs `measure` in a child process and returns its figures (all "not measured" if it died). Each
// platform starts from a process of its own, which has touched no GPU before: where the triad's
// three arrays land, which depends on what earlier allocations left, moves it by about 1 % on an
// H200 (docs/performance.md).
template <typename Figures, typename Measure>
Figures inOwnProcess(const char* what, Measure&& measure) {
  static_assert(std::is_trivially_copyable_v<Figures>);
  int channel[2];
  if (pipe(channel) != 0) return measure();
  std::fflush(nullptr);  // or the child would print the parent's buffered output again
  const pid_t child = fork();
  if (child < 0) {
    close(channel[0]);
    close(channel[1]);
    return measure();
  }
  if (child == 0) {
    close(channel[0]);
    const Figures figures = measure();
    std::fflush(nullptr);
    _exit(write(channel[1], &figures, sizeof(figures)) == ssize_t(sizeof(figures)) ? 0 : 1);
  }
  close(channel[1]);
  Figures figures;
  const ssize_t got = read(channel[0], &figures, sizeof(figures));
  close(channel[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (got == ssize_t(sizeof(figures))) return figures;
  std::fprintf(stderr, "%s: its process ended without figures (wait status %d)\n", what, status);
  return Figures{};
}

}  // namespace loom::benchmarks
