#!/usr/bin/env bash
# Runs level-zero-tests' sysman binaries, its tracing layer test and test_debug_errors against a
# Loom build and prints one line per binary: name, exit status, seconds, tests passed / run.
# Each binary runs from the folder its test expects:
# - the sysman binaries from test_sysman_frequency/kernels, the only folder holding the
#   sysman_matrix_multiplication.spv that test_sysman_device also loads (its CMakeLists ships none);
# - test_api_ltracing from a folder holding module_add.spv and a "tracing" link to its build
#   folder, since it loads the module by bare name and starts ./tracing/test_ltracing_ipc_event_helper.
# test_sysman_memory's ...AllocatingMemoryUptoMaxCapacity... fills all device memory, which on the
# CPU device is the host's RAM: it runs only with LZT_FILL_MEMORY=1 (on a host that may lose a
# process to the OOM killer). The stress binaries are sized to all available memory too and run
# only with LZT_STRESS=1.
#
# usage: bash scripts/lzt-sysman-layers.sh
#   LOOM_BUILD   the Loom build folder (default build)
#   LZT_SRC      level-zero-tests' sources (default /tmp/lzt)
#   LZT_BUILD    its build folder (default /tmp/lzt-build)
#   LZT_TIMEOUT  seconds one binary may take (default 600)
#   OUT          where the logs go (default ./lzt-sysman-layers-out)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
loom_build=$(cd "${LOOM_BUILD:-$root/build}" && pwd) || exit 1
src=${LZT_SRC:-/tmp/lzt}
build=${LZT_BUILD:-/tmp/lzt-build}
out=${OUT:-$PWD/lzt-sysman-layers-out}
mkdir -p "$out"
export ZE_ENABLE_ALT_DRIVERS=$loom_build/lib/libze_loom.so.1

run() {  # run NAME FOLDER BINARY [ARGS...]
  local name=$1 folder=$2 start=$SECONDS rc
  shift 2
  (cd "$folder" && timeout "${LZT_TIMEOUT:-600}" "$@" >"$out/$name.log" 2>&1)
  rc=$?
  echo "$name rc=$rc secs=$((SECONDS - start)) $(grep -c '^\[       OK' "$out/$name.log")/$(grep -c '^\[ RUN' "$out/$name.log")"
}

memory_filter=-*UptoMaxCapacity*
[ "${LZT_FILL_MEMORY:-0}" = 1 ] && memory_filter=*
for binary in $(find "$build/conformance_tests/sysman" -name 'test_sysman_*' -type f -executable | sort); do
  ZES_ENABLE_SYSMAN=1 run "$(basename "$binary")" "$src/conformance_tests/sysman/test_sysman_frequency/kernels" \
    "$binary" --gtest_filter="$memory_filter"
done

tracing=$out/ltracing-folder
mkdir -p "$tracing"
cp "$src/conformance_tests/core/test_module/kernels/module_add.spv" "$tracing/"
ln -sfn "$build/layer_tests/tracing" "$tracing/tracing"
ZE_ENABLE_TRACING_LAYER=1 run test_api_ltracing "$tracing" "$build/layer_tests/tracing/test_api_ltracing"

debug_errors=$build/negative_tests/tools/debug_errors
[ -x "$debug_errors/test_debug_errors" ] && run test_debug_errors "$debug_errors" ./test_debug_errors

if [ "${LZT_STRESS:-0}" = 1 ]; then
  for binary in $(find "$build/stress_tests" -name 'test_stress_*' -type f -executable | sort); do
    name=$(basename "$binary")
    run "$name" "$src/stress_tests/$(basename "$(dirname "$binary")")/kernels" "$binary"
  done
fi
