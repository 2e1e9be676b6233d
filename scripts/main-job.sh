#!/usr/bin/env bash
# The main job: set up, build, and run a Level Zero program and an OpenCL program on Loom's CPU
# device (also where Loom lists GPUs first), through the real Level Zero loader and the real
# OpenCL ICD loader.
set -euo pipefail
export LOOM_SAMPLE_DEVICE_TYPE=cpu
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build"
echo "== Level Zero: vector add and reduction through libze_loader =="
ZE_ENABLE_ALT_DRIVERS="$root/build/lib/libze_loom.so.1" "$root/build/bin/ze_sample"
echo "== OpenCL: the same program from OpenCL C source through the ICD loader (libOpenCL) =="
OCL_ICD_VENDORS="$root/build/icd" "$root/build/bin/cl_sample"
