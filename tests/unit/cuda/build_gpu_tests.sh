#!/usr/bin/env bash
# Builds the CUDA backend's tests into one self-contained program, without LLVM or the rest of
# Loom, to run on a GPU machine that lacks Loom's build dependencies (copy it there and run it).
# Usage, from the repository root: tests/unit/cuda/build_gpu_tests.sh OUTPUT_DIR [extra compiler flags...]
# With -fsanitize=address, run it under ASAN_OPTIONS=protect_shadow_gap=0 (the CUDA driver maps there).
set -euo pipefail
out=$1
shift
mkdir -p "$out"
flags=(-std=c++20 -O1 -g -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
       -I. -Icore/include -Icompiler/include "$@")
objects=()
for source in backends/cuda/*.cpp core/src/log.cpp core/src/debug_keys.cpp core/src/futex.cpp core/src/shared_memory.cpp \
    core/src/backend.cpp core/src/command_executor.cpp core/src/command_stream.cpp core/src/event.cpp \
    core/src/kernel_launch.cpp core/src/host_address_space.cpp core/src/ipc_handle.cpp \
    core/src/memory_coloring.cpp core/src/colored_allocations.cpp tests/unit/cuda/*_test.cpp tests/unit/cuda/fake_*.cpp; do
  [[ $source == *cuda_discovery_test.cpp ]] && continue  # needs the whole runtime
  object=$out/$(echo "$source" | tr / _).o
  g++ "${flags[@]}" -c "$source" -o "$object" &
  objects+=("$object")
done
wait
g++ "$@" -o "$out/loom_cuda_gpu_tests" "${objects[@]}" -lgtest_main -lgtest -static-libstdc++ -static-libgcc -ldl -pthread
