#!/usr/bin/env bash
# Real OpenCL programs from Debian on Loom's CPU device and on PoCL, one after the other in the
# same run (not part of CI; docs/performance.md and docs/status.md record what it printed):
#   OpenMM 7.7's testInstallation, boost.compute's algorithms (boost_compute_check.cpp), clFFT's
#   transforms checked against a direct DFT (clfft_check.cpp), CLBlast's
#   own tests of AXPY, GEMV and GEMM, CLBlast's SGEMM/SGEMV/SAXPY (clblast_routines.cpp), clpeak,
#   and hashcat's benchmark of some modes with its first build timed (no kernel cache on either side).
# Installs the Debian packages it needs. Run from the repository root after a build.
# Usage: benchmarks/real_programs/run.sh [--gpu] [build-dir] [section...]
#   sections: openmm boost clfft clblast-tests clblast clpeak hashcat (default: all);
#   HASHCAT_MODES="0 100 1400 1700" (the default) chooses hashcat's modes; ROUNDS (5 unless set):
#   rounds in which the platforms take turns, in one process for CLBlast, in alternating
#   processes for clpeak, whose medians it prints (single runs swing with the machine's load);
#   CLPEAK_TESTS: clpeak's options (--compute-sp --global-bandwidth unless set).
#   --gpu: Loom's NVIDIA GPU beside NVIDIA's own OpenCL instead, on a machine without Debian's
#   packages: build-dir is an unpacked bundle (scripts/bundle.sh) and the programs come from
#   benchmarks/real_programs/pack.sh, unpacked at /. Sections clfft, clblast, clpeak and hashcat.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gpu=0
[ "${1:-}" = --gpu ] && { gpu=1; shift; }
build=$(cd "${1:-$root/build}" && pwd)
shift || true
sections=("$@")
[ ${#sections[@]} -eq 0 ] && sections=(openmm boost clfft clblast-tests clblast clpeak hashcat)
work=$(mktemp -d /tmp/loom-real-programs-XXXXXX)
trap 'rm -rf "$work"' EXIT

export DEBIAN_FRONTEND=noninteractive
[ $gpu = 1 ] || dpkg-query -W python3-simtk libopenmm-plugins libboost1.74-dev libclfft-dev libclblast-dev clblast-tests clpeak hashcat pocl-opencl-icd \
  >/dev/null 2>&1 || apt-get install -y -qq --no-install-recommends python3-simtk libopenmm-plugins libboost1.74-dev libclfft-dev \
  libclblast-dev clblast-tests clpeak hashcat pocl-opencl-icd >/dev/null

# One ICD folder per platform, so that each program sees only the platform under test.
peer=pocl
[ $gpu = 1 ] && peer=nvidia
platforms=(loom $peer)
mkdir -p "$work/icd-loom" "$work/icd-$peer"
echo "$build/lib/libloom_opencl.so.1" > "$work/icd-loom/loom.icd"
# NVIDIA's driver may come without its vendor file: name its library then.
cp "/etc/OpenCL/vendors/$peer.icd" "$work/icd-$peer/" 2>/dev/null || echo "lib$peer-opencl.so.1" > "$work/icd-$peer/$peer.icd"
# And one with both, for the CLBlast routines, which take turns in one process.
mkdir -p "$work/icd-both" && cp "$work/icd-loom/"* "$work/icd-$peer/"* "$work/icd-both/"
rounds=${ROUNDS:-5}
declare -A platform_name=([loom]=Loom [pocl]="Portable Computing Language" [nvidia]="NVIDIA CUDA")
name_of() { echo "${platform_name[$1]}"; }
# Only Loom's GPUs on a GPU run, and no driver cache of compiled code on either side.
[ $gpu = 1 ] && export LOOM_ForceBackend=cuda CUDA_CACHE_DISABLE=1
device_type=1  # hashcat's -D: 1 CPU, 2 GPU
[ $gpu = 1 ] && device_type=2
gemm_order=512
[ $gpu = 1 ] && gemm_order=4096
# Runs a command on one platform, with an empty Loom compiler cache and PoCL kernel cache.
on() {
  local platform=$1; shift
  rm -rf "$work/cache"; mkdir -p "$work/cache"
  OCL_ICD_VENDORS="$work/icd-$platform" LOOM_CompilerCacheDir="$work/cache" POCL_CACHE_DIR="$work/cache" \
    POCL_KERNEL_CACHE=0 "$@"
}
wants() { [[ " ${sections[*]} " == *" $1 "* ]]; }

if wants openmm; then
  echo "== OpenMM testInstallation"
  for p in "${platforms[@]}"; do
    printf '%-5s ' "$p"
    on "$p" /usr/bin/time -f '(%e s)' /usr/bin/python3 -m openmm.testInstallation 2>&1 | grep -E "OpenCL -|Reference vs. OpenCL|within tolerance|exceed|Error|\(.* s\)" | tr '\n' ' '
    echo
  done
fi

if wants boost; then
  echo "== boost.compute (1M elements; first call of each algorithm, builds included)"
  g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 -o "$work/boost_compute_check" "$root/benchmarks/real_programs/boost_compute_check.cpp" -lOpenCL
  for p in "${platforms[@]}"; do on "$p" "$work/boost_compute_check" "$(name_of "$p")"; done
fi

if wants clfft; then
  echo "== clFFT (complex transforms against a direct DFT; first run with the plan bake, then the median of nine)"
  checker=/usr/local/bin/clfft_check  # pack.sh's, on the GPU machine
  [ $gpu = 1 ] || { checker=$work/clfft_check
    g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 -o "$checker" "$root/benchmarks/real_programs/clfft_check.cpp" -lclFFT -lOpenCL; }
  for p in "${platforms[@]}"; do on "$p" "$checker" "$(name_of "$p")" 2>&1 | grep -v "warnings\? generated"; done
fi

if wants clblast-tests; then
  echo "== CLBlast's tests (pass counts)"
  for test in xaxpy xgemv xgemm; do
    for p in "${platforms[@]}"; do
      printf '%-14s %-5s ' "$test" "$p"
      on "$p" timeout 3600 "clblast_test_$test" -q 2>&1 | sed 's/\x1b\[[0-9;]*m//g' |
        awk '/test\(s\) passed/ {pass+=$1} /test\(s\) failed/ {fail+=$1} END {printf "%d passed, %d failed\n", pass, fail}'
    done
  done
fi

if wants clblast; then
  echo "== CLBlast routines"
  routines=$(command -v clblast_routines) || {
    routines=$work/clblast_routines
    g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 -DCL_USE_DEPRECATED_OPENCL_1_2_APIS -o "$routines" \
      "$root/benchmarks/real_programs/clblast_routines.cpp" -lclblast -lOpenCL
  }
  echo "(load: $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds of 5 calls per routine, the platforms taking turns)"
  on both "$routines" "$(name_of loom),$(name_of $peer)" "$gemm_order" "$rounds"
fi

if wants clpeak; then
  echo "== clpeak (single-precision compute, global bandwidth; medians of $rounds runs each, in turns)"
  echo "(load at the start: $(cut -d' ' -f1-3 /proc/loadavg))"
  for round in $(seq "$rounds"); do
    order=("${platforms[@]}")
    [ $((round % 2)) = 0 ] && order=("${platforms[1]}" "${platforms[0]}")
    for p in "${order[@]}"; do
      on "$p" clpeak ${CLPEAK_TESTS:---compute-sp --global-bandwidth} 2>&1 | grep -E "float|GFLOPS|GBPS" | sed "s/^ */$p /" >> "$work/clpeak"
    done
  done
  echo "(load at the end: $(cut -d' ' -f1-3 /proc/loadavg))"
  # Lines "<platform> <test header>" and "<platform> <type> : <value>": each figure's median.
  python3 - "$work/clpeak" <<'MEDIANS'
import statistics, sys
values, test = {}, {}
for line in open(sys.argv[1]):
    words = line.split()
    if "GBPS" in line or "GFLOPS" in line:
        test[words[0]] = "bandwidth GB/s" if "GBPS" in line else "compute GFLOPS"
    elif len(words) == 4:
        values.setdefault((test[words[0]], words[1]), {}).setdefault(words[0], []).append(float(words[3]))
widths = {"float": 1, "float2": 2, "float4": 4, "float8": 8, "float16": 16}
for (kind, type), runs in sorted(values.items(), key=lambda item: (item[0][0], widths.get(item[0][1], 0))):
    print(f"{kind:<15} {type:<8}" + "".join(f"  {p} {statistics.median(v):8.2f} ({len(v)} runs)" for p, v in runs.items()))
MEDIANS
fi

if wants hashcat; then
  echo "== hashcat -b (first build timed: no kernel cache)"
  for mode in ${HASHCAT_MODES:-0 100 1400 1700}; do
    for p in "${platforms[@]}"; do
      rm -rf "$work/hashcat"; mkdir -p "$work/hashcat"
      printf 'mode %-5s %-5s ' "$mode" "$p"
      # hashcat keeps compiled kernels under its session folder: a fresh one per run.
      (cd "$work/hashcat" && HOME="$work/hashcat" XDG_CACHE_HOME="$work/hashcat" \
        on "$p" /usr/bin/time -f %e -o "$work/time" timeout 3600 hashcat -b -m "$mode" -D "$device_type" --backend-ignore-cuda --force > "$work/hashcat/out" 2>&1)
      wall="$(cat "$work/time") s"
      speed=$(grep -m1 "Speed.#" "$work/hashcat/out" | sed 's/ *(.*//; s/Speed.#[0-9]*\.*: *//')
      echo "wall $wall, speed ${speed:-none (see below)}"
      [ -n "$speed" ] || tail -5 "$work/hashcat/out"
    done
  done
fi
