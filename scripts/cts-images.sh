#!/usr/bin/env bash
# Runs OpenCL-CTS's image suites (test_images' binaries and test_image_streams) against a Loom
# build and prints one line per run with the CTS's own counts. The image suites have no wimpy
# mode: each runs in its default mode, split by image type so that one slow type does not hide
# the others' results.
#
# usage: bash scripts/cts-images.sh [SUITE...]
#   SUITE        get_info fill copy read_write methods samplerless streams (default: all)
#   LOOM_BUILD   the Loom build folder (default build)
#   CTS_BUILD    the CTS build folder (default /tmp/cts-build)
#   CL_DEVICE_TYPE  cpu (default) or gpu
#   CTS_TIMEOUT  seconds one run may take (default 1800)
#   OUT          where the logs go (default ./cts-images-out)
# A run's line reads: name, exit status, seconds, then the CTS's PASSED/FAILED summary lines.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
loom_build=$(cd "${LOOM_BUILD:-$root/build}" && pwd) || exit 1
images=${CTS_BUILD:-/tmp/cts-build}/test_conformance/images
out=${OUT:-$PWD/cts-images-out}
mkdir -p "$out"
export OCL_ICD_VENDORS=$loom_build/icd
export CL_DEVICE_TYPE=${CL_DEVICE_TYPE:-cpu}

run() {  # run NAME BINARY [ARGS...]
  local name=$1 start=$SECONDS rc
  shift
  timeout "${CTS_TIMEOUT:-1800}" nice "$@" >"$out/$name.log" 2>&1
  rc=$?
  echo "$name rc=$rc secs=$((SECONDS - start)) $(grep -E '^(PASSED|FAILED) ' "$out/$name.log" | tr '\n' ' ')"
}

per_type() {  # per_type NAME BINARY TYPE...: one run per image type
  local name=$1 binary=$2 type
  shift 2
  for type in "$@"; do run "$name-$type" "$binary" "$type"; done
}

suite() {
  case $1 in
    get_info) run get_info "$images/clGetInfo/test_cl_get_info" ;;
    fill) run fill "$images/clFillImage/test_cl_fill_images" ;;
    copy) per_type copy "$images/clCopyImage/test_cl_copy_images" 1D 2D 3D 1Darray 2Darray 2Dto3D 3Dto2D \
            2Darrayto2D 2Dto2Darray 2Darrayto3D 3Dto2Darray ;;
    read_write) run read_write "$images/clReadWriteImage/test_cl_read_write_images" ;;
    methods) run methods "$images/kernel_image_methods/test_kernel_image_methods" ;;
    samplerless) run samplerless "$images/samplerlessReads/test_samplerless_reads" ;;
    streams) per_type streams "$images/kernel_read_write/test_image_streams" 1D 2D 3D 1Darray 2Darray ;;
    *) echo "unknown suite $1" >&2; return 1 ;;
  esac
}

suites=("$@")
((${#suites[@]})) || suites=(get_info fill copy read_write methods samplerless streams)
for s in "${suites[@]}"; do suite "$s"; done
