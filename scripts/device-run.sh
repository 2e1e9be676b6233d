#!/usr/bin/env bash
# Runs a Loom bundle (scripts/bundle.sh) on an NVIDIA GPU machine: unpacks it (builds nothing),
# sources its env.sh and, with no LOOM_EnableCudaDevices (Loom lists GPUs by default), runs
# loom-info (the GPU must be device 0), ze_sample and cl_sample on the GPU, gpu_benchmark (Loom
# next to NVIDIA's OpenCL and native CUDA), image_benchmark --device gpu (images, Loom next to
# NVIDIA's OpenCL), scaling_benchmark where ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE
# joins several GPUs, then the Level Zero and OpenCL API suites with LOOM_ForceBackend=cuda and
# the CUDA unit and NVPTX compiler suites, each test suite in a process of its own. The test binaries carry
# their kernels, so the bundle may come from a build in any folder. Writes logs and a summary to
# $OUT.
#
# usage: bash scripts/device-run.sh [BUNDLE]     (from the repository root on the GPU machine)
#   BUNDLE                  default build/loom-bundle.tar.xz
#   OUT                     where the summary and logs go (default ./device-run-out)
#   LOOM_DEVICE_RUN_BUDGET  seconds for everything (default 420): each step's time limit is cut
#                           to what is left
#   LOOM_DEVICE_RUN_DIR     where to unpack (default /tmp/loom-device-run)
# $OUT receives summary.txt (counts per program, failing and crashing tests with their first
# error lines and the runtime's PrintDebugMessages output for them), the suites' logs, and
# logs.tar.gz with every log.
set -uo pipefail

bundle=${1:-build/loom-bundle.tar.xz}
out=${OUT:-$PWD/device-run-out}
budget=${LOOM_DEVICE_RUN_BUDGET:-420}
unpack=${LOOM_DEVICE_RUN_DIR:-/tmp/loom-device-run}
mkdir -p "$out"
logs=$unpack/logs
summary=$out/summary.txt
start=$SECONDS

rm -rf "$unpack" && mkdir -p "$logs" || exit 1
: >"$summary"
note() { printf '%s\n' "$*" | tee -a "$summary"; }
left() { echo $((budget - (SECONDS - start))); }
limit() {  # limit WANTED: the seconds a step may take, at most what is left of the budget
  local l; l=$(left)
  if ((l < $1)); then echo $((l > 0 ? l : 1)); else echo "$1"; fi
}

note "device-run on $(hostname) at $(date -u +%Y-%m-%dT%H:%M:%SZ), in $PWD"
note "system: $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME"), kernel $(uname -r)"
note "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 2 | tr '\n' ';')"
[ -f "$bundle" ] || { note "FAIL: no bundle at $bundle (make it with scripts/bundle.sh and carry it)"; exit 1; }
note "bundle: $bundle, $(stat -c %s "$bundle") bytes"

# --- Unpack and set up ---------------------------------------------------------------------------
t=$SECONDS
tar -C "$unpack" -xJf "$bundle" || { note "FAIL: cannot unpack $bundle"; exit 1; }
note "unpacked in $((SECONDS - t)) s into $unpack/loom-bundle"
head -n 4 "$unpack/loom-bundle/MANIFEST" | sed 's/^/  manifest: /' | tee -a "$summary"
# shellcheck disable=SC1091
. "$unpack/loom-bundle/env.sh" 2>"$logs/env.log"
sed 's/^/  env.sh: /' "$logs/env.log" | tee -a "$summary"
unset LOOM_EnableCudaDevices  # GPUs are listed by default: the run shows it
export LOOM_CompilerCacheDir=$unpack/compiler-cache  # a fresh cache: every kernel compiles here
note "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
note "OCL_ICD_VENDORS=$OCL_ICD_VENDORS ($(cat "$OCL_ICD_VENDORS/loom.icd"))"
note "ZE_ENABLE_ALT_DRIVERS=$ZE_ENABLE_ALT_DRIVERS"
libdevice=
for f in "${LOOM_LibdevicePath:-}" "${CUDA_HOME:-/nonexistent}/nvvm/libdevice/libdevice.10.bc" /usr/local/cuda/nvvm/libdevice/libdevice.10.bc /usr/lib/cuda/nvvm/libdevice/libdevice.10.bc; do
  [ -n "$f" ] && [ -f "$f" ] && { libdevice=$f; break; }
done
note "libdevice: ${libdevice:-NOT FOUND (GPU math builtins will fail)}"
{
  for f in "$LOOM_BUNDLE"/bin/* "$LOOM_BUNDLE"/lib/*.so*; do ldd "$f" 2>&1 | sed "s|^|$(basename "$f"): |"; done
} >"$logs/ldd.log"
if grep -q "not found" "$logs/ldd.log"; then
  note "FAIL: unresolved libraries:"; grep "not found" "$logs/ldd.log" | sort -u | sed 's/^/  /' | tee -a "$summary"
else
  note "ldd: every library of bin/ and lib/ resolves ($(grep -c "=> $LOOM_BUNDLE/" "$logs/ldd.log") links into the bundle)"
fi

results=()  # one line per program, for the table at the end
record() { results+=("$(printf '%-28s %s' "$1" "$2")"); }

# --- loom-info: the GPU first --------------------------------------------------------------------
LOOM_PrintDebugMessages=1 timeout -k 5 "$(limit 60)" loom-info >"$logs/loom-info.log" 2>&1
rc=$?
sed 's/^/  /' "$logs/loom-info.log" | head -n 20 >>"$summary"
first=$(grep -m 1 '^  [^ ]' "$logs/loom-info.log" || true)
if [ $rc -eq 0 ] && [[ $first == *"[cuda]"* ]]; then
  record loom-info "PASS: device 0 is the GPU: ${first#  }"
else
  record loom-info "FAIL (rc $rc): device 0 is '${first#  }'"
fi
note "loom-info: ${results[-1]#loom-info }"

# --- The samples on the GPU: Loom's first device, with no LOOM_* variable ------------------------
for sample in ze_sample cl_sample; do
  timeout -k 5 "$(limit 120)" "$sample" >"$logs/$sample.log" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && grep -q '^PASSED' "$logs/$sample.log" && grep -q '^device: .*(GPU)$' "$logs/$sample.log"; then
    record "$sample" "PASS: $(grep -m 1 '^device:' "$logs/$sample.log")"
  else
    record "$sample" "FAIL (rc $rc): $(grep -v '^\[loom\]' "$logs/$sample.log" | tail -n 1)"
    LOOM_PrintDebugMessages=1 timeout -k 5 "$(limit 60)" "$sample" >"$logs/$sample.debug.log" 2>&1
  fi
  note "$sample: ${results[-1]#"$sample" }"
  sed 's/^/  /' "$logs/$sample.log" | head -n 12 >>"$summary"
  [ -f "$logs/$sample.debug.log" ] && { echo "  with LOOM_PrintDebugMessages=1:"; sed 's/^/    /' "$logs/$sample.debug.log" | head -n 30; } >>"$summary"
done

# --- gpu_benchmark: Loom next to NVIDIA's OpenCL and native CUDA, in one run ---------------------
peers=$unpack/icd-peers  # Loom's and the machine's OpenCL platforms (NVIDIA's) side by side
mkdir -p "$peers"
cp "$OCL_ICD_VENDORS"/loom.icd /etc/OpenCL/vendors/*.icd "$peers"/ 2>/dev/null
if ! grep -qs libnvidia-opencl "$peers"/*.icd; then  # the driver's OpenCL without an .icd file of its own
  nvidia_opencl=$( (ldconfig -p | awk '/libnvidia-opencl\.so\.1 .*x86-64/ {print $NF; exit}'; ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null) | head -n 1)
  [ -n "$nvidia_opencl" ] && echo "$nvidia_opencl" >"$peers/nvidia.icd"
fi
note "OpenCL platforms for gpu_benchmark: $(cat "$peers"/*.icd | tr '\n' ' ')"
# run_peer_benchmark NAME SECONDS ARGS...: runs a benchmark that compares Loom with NVIDIA's OpenCL
# (exit status 0: all measured and correct, 3: correct but something not measured).
run_peer_benchmark() {
  local name=$1 seconds=$2 rc
  shift 2
  OCL_ICD_VENDORS=$peers timeout -k 5 "$(limit "$seconds")" "$name" "$@" >"$logs/$name.log" 2>&1
  rc=$?
  case $rc in
    0) record "$name" "PASS: every figure measured, results correct" ;;
    3) record "$name" "INCOMPLETE: results correct, some figures not measured (n/a)" ;;
    *) record "$name" "FAIL (rc $rc)" ;;
  esac
  note "$name: ${results[-1]#"$name" }"
  sed 's/^/  /' "$logs/$name.log" >>"$summary"
  cp "$logs/$name.log" "$out"/ 2>/dev/null
}
run_peer_benchmark gpu_benchmark 180
# --- image_benchmark: a linear-filter blur and image copies, Loom next to NVIDIA's OpenCL -------
run_peer_benchmark image_benchmark 120 --device gpu

# --- scaling_benchmark: a root device over several GPUs against its first GPU ---------------------
if [ "${ZE_FLAT_DEVICE_HIERARCHY:-}" = COMPOSITE ] && (($(nvidia-smi -L 2>/dev/null | wc -l) > 1)); then
  timeout -k 5 "$(limit 180)" scaling_benchmark >"$logs/scaling_benchmark.log" 2>&1
  rc=$?
  case $rc in
    0) record scaling_benchmark "PASS: every figure measured, results correct" ;;
    *) record scaling_benchmark "FAIL (rc $rc)" ;;
  esac
  note "scaling_benchmark: ${results[-1]#scaling_benchmark }"
  sed 's/^/  /' "$logs/scaling_benchmark.log" >>"$summary"
  cp "$logs/scaling_benchmark.log" "$out"/ 2>/dev/null
fi

# --- GoogleTest suites, one process per test suite -------------------------------------------
# run_suites NAME BUDGET BACKEND: runs each test suite of bin/NAME in a process of its own (with
# LOOM_ForceBackend=BACKEND unless BACKEND is "any"), so that a crash or a hang ends only that
# suite and is reported with the test it happened in. All suites together get BUDGET seconds.
run_suites() {
  local name=$1 want=$2 backend=$3 bin log out rc suite last t_start=$SECONDS processes=0
  local -a force=(env) suites crashes=()
  [ "$backend" = any ] || force=(env "LOOM_ForceBackend=$backend")
  bin=$(command -v "$name") || { record "$name" "not in the bundle"; return; }
  log=$logs/$name.log
  out=$logs/$name.suite.log
  : >"$log"
  mapfile -t suites < <("${force[@]}" "$bin" --gtest_list_tests 2>/dev/null | awk '/^[^ ]/ {print $1}')
  for suite in "${suites[@]}"; do
    local l=$((want - (SECONDS - t_start)))
    ((l > $(left))) && l=$(left)
    if ((l < 5)); then crashes+=("NOT RUN (time budget spent): $suite and the suites after it"); break; fi
    "${force[@]}" timeout -k 5 "$l" "$bin" --gtest_filter="$suite*" >"$out" 2>&1
    rc=$?
    processes=$((processes + 1))
    { echo "=== $suite"; cat "$out"; echo "=== $suite exit status $rc"; } >>"$log"
    last=$(sed -n 's/^\[ RUN      \] //p' "$out" | tail -n 1)
    if grep -q '^\[==========\] .* ran\.' "$out"; then
      ((rc > 1)) && crashes+=("exit status $rc after the last test of $suite, at exit")
    elif ((rc == 124 || rc == 137)); then
      crashes+=("TIMEOUT in ${last:-$suite}")
    else
      crashes+=("CRASH (exit status $rc$( ((rc > 128)) && echo ", signal $((rc - 128))")) in ${last:-$suite}")
    fi
  done
  rm -f "$out"

  local passed failed skipped
  passed=$(grep -c '^\[       OK \] ' "$log")
  failed=$(grep -cE '^\[  FAILED  \] .*\([0-9]+ ms\)$' "$log")
  skipped=$(grep -cE '^\[  SKIPPED \] .*\([0-9]+ ms\)$' "$log")
  record "$name" "$passed passed, $failed failed, $skipped skipped, ${#crashes[@]} crash(es)/timeout(s), ${#suites[@]} suites in $processes process(es), $((SECONDS - t_start)) s"
  {
    echo
    echo "== $name ($([ "$backend" = any ] && echo "no LOOM_ForceBackend" || echo "LOOM_ForceBackend=$backend")): ${results[-1]#"$name" }"
    local c
    for c in "${crashes[@]}"; do echo "  $c"; done
    # Each failing or crashing test with the first lines of its output (names only after 20).
    awk '
      function show(what, lines) {
        shown++
        if (shown > 20) {print "  " what " " test; return}
        print "  " what " " test; for (i = 1; i <= n && i <= lines; i++) print "    " buf[i]
      }
      /^\[ RUN      \] / {test = substr($0, 14); n = 0; delete buf; next}
      /^\[       OK \] / || /^\[  SKIPPED \] / {test = ""; next}
      /^\[  FAILED  \] .*\([0-9]+ ms\)$/ {show("FAILED", 8); test = ""; next}
      /^=== .* exit status/ {if (test != "") show("DIED IN", 12); test = ""; next}
      test != "" && NF > 0 {buf[++n] = $0}
    ' "$log"
  } >>"$summary"
  note "$name: ${results[-1]#"$name" }"

  # The crashing, then the failing tests again, with the runtime's debug messages (at most 20).
  local -a bad
  mapfile -t bad < <({ printf '%s\n' "${crashes[@]}" | sed -nE 's/^(CRASH.*|TIMEOUT) in //p'; sed -nE 's/^\[  FAILED  \] ([^ ,]+).*\([0-9]+ ms\)$/\1/p' "$log"; } | head -n 20)
  if ((${#bad[@]} > 0)) && (($(left) > 20)); then
    local dbg=$logs/$name.debug.log test
    : >"$dbg"
    for test in "${bad[@]}"; do
      (($(left) > 10)) || break
      echo "=== $test (LOOM_PrintDebugMessages=1)" >>"$dbg"
      "${force[@]}" LOOM_PrintDebugMessages=1 timeout -k 5 "$(limit 30)" "$bin" --gtest_filter="$test" >>"$dbg" 2>&1
      echo "=== exit status $?" >>"$dbg"
    done
    {
      echo "  -- rerun of the failing tests with LOOM_PrintDebugMessages=1 (the [loom] lines and failures):"
      grep -vE '^\[[ =-]|^Running main|^Note: Google Test|^$' "$dbg" | awk '/^=== / {n = 0} {if (++n <= 16) print}' | head -n 150 | sed 's/^/    /'
    } >>"$summary"
  fi
}

# Sysman enabled, as CTest runs the suite (its disabled-sysman test then skips; CTest covers it).
export ZES_ENABLE_SYSMAN=1
run_suites loom_ze_api_tests 150 cuda
unset ZES_ENABLE_SYSMAN
run_suites loom_opencl_api_tests 150 cuda
# A device fault leaves the process's CUDA context unusable: that test runs alone.
fault_log=$logs/device_fault.log
LOOM_ForceBackend=cuda LOOM_TEST_DEVICE_FAULTS=1 timeout -k 5 "$(limit 30)" loom_ze_api_tests \
  --gtest_filter='DeviceFaultTest.*' >"$fault_log" 2>&1
fault_rc=$?
record device_fault "$(grep -c '^\[       OK \] ' "$fault_log") passed, $(grep -cE '^\[  FAILED  \] .*\([0-9]+ ms\)$' "$fault_log") failed, exit status $fault_rc"
{ echo; echo "== device_fault: ${results[-1]#device_fault }"; grep -E 'Failure|Expected|Which is|FAILED' "$fault_log" | head -n 12 | sed 's/^/  /'; } >>"$summary"
# The CUDA backend's and the NVPTX target's unit suites make their own runtimes: no forcing.
run_suites loom_cuda_tests 60 any
run_suites loom_compiler_nvptx_tests 60 any

# --- Summary -------------------------------------------------------------------------------------
{
  echo
  echo "== results ($((SECONDS - start)) s in all)"
  printf '%s\n' "${results[@]}"
} | tee -a "$summary"
cp "$logs"/loom_ze_api_tests.log "$logs"/loom_opencl_api_tests.log "$out"/ 2>/dev/null
tar -C "$unpack" -czf "$out/logs.tar.gz" logs
exit 0
