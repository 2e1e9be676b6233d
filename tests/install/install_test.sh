#!/usr/bin/env bash
# Installs the build into a fresh prefix (cmake --install --prefix) and checks an installed Loom
# from there alone: the files of cmake/LoomInstall.cmake are in place, no installed binary searches
# the build tree for libraries, and, in an environment holding nothing but what the prefix's
# environment file sets and OCL_ICD_VENDORS naming the prefix's vendors folder (no
# LD_LIBRARY_PATH), loom-info says how the loaders find Loom, and both installed samples pass
# through the real loaders with the prefix's drivers and kernels (the dynamic linker's log shows
# which driver files they load).
#
# usage: install_test.sh BUILD PREFIX LIBDIR BINDIR LIBEXECDIR SYSCONFDIR MANDIR
#   (the GNUInstallDirs folders relative to PREFIX; PREFIX is removed first)
set -euo pipefail
build=$1 prefix=$2
libdir=$prefix/$3 bindir=$prefix/$4 samples=$prefix/$5/loom/samples sysconfdir=$prefix/$6 mandir=$prefix/$7
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() {  # expect TEXT FILE: FILE holds the line TEXT (a fixed string)
  grep -qxF -- "$1" "$2" || { cat "$2" >&2; fail "no line '$1' in the output above"; }
}

rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >"$prefix.install.log" || { cat "$prefix.install.log" >&2; fail "cmake --install"; }

# --- The files --------------------------------------------------------------------------------------
for file in "$libdir/libze_loom.so.1" "$libdir/libloom_opencl.so.1" "$bindir/loom-info" "$bindir/loom-cc" \
            "$mandir/man1/loom-info.1" "$mandir/man1/loom-cc.1" "$sysconfdir/OpenCL/vendors/loom.icd" \
            "$sysconfdir/profile.d/loom-level-zero.sh" "$samples/ze_sample" "$samples/cl_sample" \
            "$samples/sample_kernels.spv" "$samples/sample_kernels.cl"; do
  [ -e "$file" ] || fail "not installed: $file"
done
[ "$(cat "$sysconfdir/OpenCL/vendors/loom.icd")" = "$libdir/libloom_opencl.so.1" ] ||
  fail "loom.icd names $(cat "$sysconfdir/OpenCL/vendors/loom.icd"), not $libdir/libloom_opencl.so.1"
for binary in "$libdir"/*.so.1 "$bindir"/* "$samples"/*_sample; do
  if readelf -d "$binary" | grep -E "RPATH|RUNPATH" | grep -qF "$build"; then fail "$binary searches the build tree"; fi
done

# --- The environment file: sets, keeps Intel's drivers, adds to a list, never twice ---------------
alt() { env -i ${1:+ZE_ENABLE_ALT_DRIVERS="$1"} sh -c '. "$0"; . "$0"; echo "$ZE_ENABLE_ALT_DRIVERS"' "$sysconfdir/profile.d/loom-level-zero.sh"; }
[ "$(alt "")" = "libze_intel_gpu.so.1,libze_intel_vpu.so.1,$libdir/libze_loom.so.1" ] || fail "environment file, unset: $(alt "")"
[ "$(alt other.so)" = "other.so,$libdir/libze_loom.so.1" ] || fail "environment file, set: $(alt other.so)"

# --- Run from the prefix alone ------------------------------------------------------------------------
work=$prefix/run && mkdir -p "$work"
sanitizers=()  # a sanitizer build's settings (scripts/test.sh --sanitize) still apply
for variable in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
  [ -n "${!variable:-}" ] && sanitizers+=("$variable=${!variable}")
done
installed() {  # installed COMMAND...: runs COMMAND with only what the prefix provides
  env -i PATH=/usr/bin:/bin HOME="$work" LOOM_CompilerCacheDir="$work/cache" "${sanitizers[@]}" \
    OCL_ICD_VENDORS="$sysconfdir/OpenCL/vendors" LD_DEBUG=files LD_DEBUG_OUTPUT="$work/ld" \
    sh -c '. "$0"; exec "$@"' "$sysconfdir/profile.d/loom-level-zero.sh" "$@"
}
loaded() {  # loaded LIBRARY: the last command loaded LIBRARY and nothing of the build tree (but the prefix)
  grep -qF "file=$1 " "$work"/ld.* || fail "$1 was not loaded"
  if grep -hF "$build/" "$work"/ld.* | grep -vF "$prefix/"; then fail "a file of the build tree was loaded"; fi
  rm -f "$work"/ld.*
}

installed "$bindir/loom-info" >"$work/info.txt" || { cat "$work/info.txt" >&2; fail "loom-info"; }
expect "Level Zero loader: ZE_ENABLE_ALT_DRIVERS names $libdir/libze_loom.so.1" "$work/info.txt"
expect "OpenCL ICD loader: $sysconfdir/OpenCL/vendors/loom.icd -> $libdir/libloom_opencl.so.1" "$work/info.txt"
grep -q "^  device 0: " "$work/info.txt" || { cat "$work/info.txt" >&2; fail "loom-info lists no device"; }
rm -f "$work"/ld.*
installed "$bindir/loom-cc" --help >/dev/null || fail "loom-cc --help"
rm -f "$work"/ld.*

installed "$samples/ze_sample" >"$work/ze.txt" 2>&1 || { cat "$work/ze.txt" >&2; fail "ze_sample"; }
expect "kernels: $samples/sample_kernels.spv" "$work/ze.txt"
expect "PASSED" "$work/ze.txt"
loaded "$libdir/libze_loom.so.1"

installed "$samples/cl_sample" >"$work/cl.txt" 2>&1 || { cat "$work/cl.txt" >&2; fail "cl_sample"; }
expect "kernels: $samples/sample_kernels.cl" "$work/cl.txt"
expect "PASSED" "$work/cl.txt"
loaded "$libdir/libloom_opencl.so.1"

rm -rf "$prefix" "$prefix.install.log"
echo "installed Loom works from $prefix"
