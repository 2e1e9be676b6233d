#!/usr/bin/env bash
# Packs a Loom build into one relocatable, xz-compressed tarball that runs on a machine without
# LLVM (made for Ubuntu 24.04 with the NVIDIA driver). Run scripts/bundle.sh --help for usage.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/bundle.sh [--build DIR] [--output FILE] [--no-tests] [--keep-staging] [--help]

Packs the build in DIR (default: build/ of this checkout, which must be built already; nothing
is built here) into FILE (default: DIR/loom-bundle.tar.xz), a tarball holding one folder,
loom-bundle/:

  env.sh       source it (bash): sets LD_LIBRARY_PATH, ZE_ENABLE_ALT_DRIVERS, OCL_ICD_VENDORS and
               the samples' file variables relative to its own folder; `env.sh COMMAND ARGS...`
               runs one command in that environment instead
  bin/         ze_sample, cl_sample, loom-info, loom-cc, ze_benchmark, cl_kernel_suite,
               gpu_benchmark, image_benchmark, scaling_benchmark and every test binary in DIR/bin (loom_*_tests), stripped; the tests
               and benchmarks carry their kernels inside (loom_embedded_files in CMake), so they
               run from any folder
  lib/         libze_loom.so.1, libloom_opencl.so.1 (stripped), the tests' fake NVML library, and what they need that Ubuntu
               24.04 lacks: LLVM 15, clang-cpp 15, the SPIR-V translator, the Level Zero loader and
               its layers, the ocl-icd OpenCL loader (all from this Debian machine)
  lib/compat/SONAME/
               other libraries of this machine (libz3, libxml2 and ICU, libedit, libffi, ...):
               env.sh adds such a folder only when the system's ldconfig cache lacks SONAME
  icd/loom.icd names libloom_opencl.so.1; env.sh rewrites it with the absolute path when it can
  data/        the samples' kernels (sample_kernels.spv, sample_kernels.cl), which they read from
               the files LOOM_SAMPLE_KERNEL and LOOM_SAMPLE_SOURCE name, as an application would
  MANIFEST     commit, build, programs and the libraries' origins

On the target machine:
  tar -xJf loom-bundle.tar.xz && . loom-bundle/env.sh
  loom-info                              (the GPU is device 0)
  ze_sample                              (on the GPU, Loom's first device)
  bash scripts/device-run.sh loom-bundle.tar.xz   (from a checkout: the samples, gpu_benchmark
                                                   and the GPU test suites, see its header)

Options:
  --build DIR      the build folder (default: build/ beside this script's folder)
  --output FILE    the tarball (default: DIR/loom-bundle.tar.xz)
  --no-tests       leave the test binaries out
  --keep-staging   keep the staging folder and say where it is
  --help           this text
EOF
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build
output=
tests=1
keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --build=*) build=${1#*=}; shift ;;
    --output | -o) output=$2; shift 2 ;;
    --output=*) output=${1#*=}; shift ;;
    --no-tests) tests=0; shift ;;
    --keep-staging) keep=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "bundle.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
build=$(cd "$build" && pwd)
output=${output:-$build/loom-bundle.tar.xz}
case $output in /*) ;; *) output=$PWD/$output ;; esac

say() { printf 'bundle: %s\n' "$*"; }
die() { printf 'bundle: error: %s\n' "$*" >&2; exit 1; }

for tool in strip xz tar ldd readelf; do command -v $tool >/dev/null || die "$tool is missing"; done

# The source folder the build was configured from: no bundled program may read files there.
source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
[ -n "$source_dir" ] || die "$build/CMakeCache.txt names no source folder: is $build a Loom build?"

staging=$(mktemp -d "${TMPDIR:-/tmp}/loom-bundle.XXXXXX")
cleanup() { if [ $keep = 1 ]; then say "staging kept in $staging"; else rm -rf "$staging"; fi; }
trap cleanup EXIT
top=$staging/loom-bundle
mkdir -p "$top/bin" "$top/lib/compat" "$top/icd" "$top/data"
manifest=$top/MANIFEST

# --- Loom's libraries and programs, stripped -----------------------------------------------------
copy_library() {  # copy_library FILE_IN_BUILD_LIB: the real file stripped, its links as links
  local name=$1 real
  real=$(readlink -f "$build/lib/$name") || die "$build/lib/$name is missing"
  [ -f "$real" ] || die "$build/lib/$name is missing: build first (ninja -C $build)"
  strip --strip-unneeded -o "$top/lib/$(basename "$real")" "$real"
  local link
  for link in "$build"/lib/"$name"*; do
    [ -L "$link" ] || continue
    case $(basename "$link") in *.so) continue ;; esac  # the development link is of no use here
    ln -sf "$(readlink "$link")" "$top/lib/$(basename "$link")"
  done
}
copy_library libze_loom.so.1
copy_library libloom_opencl.so.1
# The fake NVML library that loom_cuda_tests loads from lib/ beside its bin/.
if [ -f "$build/lib/libloom_fake_nvml.so" ]; then copy_library libloom_fake_nvml.so; fi

programs=(ze_sample cl_sample loom-info loom-cc ze_benchmark cl_kernel_suite gpu_benchmark image_benchmark scaling_benchmark)
if [ $tests = 1 ]; then
  for test in "$build"/bin/loom_*_tests; do [ -f "$test" ] && programs+=("$(basename "$test")"); done
fi
for program in "${programs[@]}"; do
  [ -x "$build/bin/$program" ] || die "$build/bin/$program is missing: build first (ninja -C $build)"
  strip --strip-unneeded -o "$top/bin/$program" "$build/bin/$program"
  chmod 755 "$top/bin/$program"
done

# --- The shared libraries they need --------------------------------------------------------------
# Always bundled: what Ubuntu 24.04 does not have at all, or where this exact build matters.
always_re='^(libLLVM-15\.so\.1|libclang-cpp\.so\.15|libLLVMSPIRVLib\.so\.15|libze_loader\.so\.1|libze_validation_layer\.so\.1|libze_tracing_layer\.so\.1|libOpenCL\.so\.1)$'
# Never bundled: glibc, the compiler's runtime, and libraries every Ubuntu 24.04 has in the same
# or a newer ABI (libstdc++ there is GCC 14's, newer than Debian 12's GCC 12).
system_re='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libgcc_s\.so\.1|libstdc\+\+\.so\.6|libz\.so\.1|liblzma\.so\.5|libtinfo\.so\.6|libzstd\.so\.1)$'
# Everything else found is bundled under lib/compat/SONAME/, used only where the system lacks SONAME.

declare -A seen=()
echo "libraries (soname <- file on this machine, where bundled):" >"$staging/libs.txt"
bundle_dependency() {  # bundle_dependency SONAME PATH
  local soname=$1 path=$2 dest
  [ -n "${seen[$soname]:-}" ] && return
  seen[$soname]=1
  [[ $soname =~ $system_re ]] && return
  [ -f "$path" ] || die "$soname: not found on this machine (ldd says '$path')"
  if [[ $soname =~ $always_re ]]; then dest=$top/lib; else dest=$top/lib/compat/$soname; fi
  mkdir -p "$dest"
  cp -L "$path" "$dest/$soname"
  chmod 644 "$dest/$soname"
  printf '  %-28s <- %s (%s)\n' "$soname" "$(readlink -f "$path")" "${dest#"$top"/}" >>"$staging/libs.txt"
}
scan_dependencies() {  # scan_dependencies ELF...: bundle every library ldd resolves for them
  local line soname path
  while read -r line; do
    case $line in
      *"=> not found"*) die "ldd: $line (in $*)" ;;
      *"=>"*) soname=${line%% =>*}; path=${line#*=> }; path=${path%% (*} ;;
      *) continue ;;
    esac
    bundle_dependency "$soname" "$path"
  done < <(for elf in "$@"; do ldd "$elf"; done)
}
scan_dependencies "$build"/lib/libze_loom.so.1 "$build"/lib/libloom_opencl.so.1 "${programs[@]/#/$build/bin/}"
# The Level Zero loader opens its layers by name when asked to (ZE_ENABLE_VALIDATION_LAYER, ...).
zeloader=$(readlink -f "$top/lib/libze_loader.so.1")
[ -f "$zeloader" ] || die "the Level Zero loader was not found among the dependencies"
for layer in libze_validation_layer.so.1 libze_tracing_layer.so.1; do
  # awk reads on after the match: ldconfig killed by SIGPIPE would fail the script (pipefail).
  path=$(ldconfig -p | awk -v n="$layer" '!found && $1 == n && /x86-64/ {print $NF; found = 1}')
  [ -n "$path" ] && bundle_dependency "$layer" "$path"
done
# The bundled libraries' own dependencies (ICU for libxml2, libbsd for libedit, ...).
for _ in 1 2 3; do
  mapfile -t bundled < <(find "$top/lib" -type f -name '*.so*')
  scan_dependencies "${bundled[@]}"
done

# --- Data files --------------------------------------------------------------------------------
# Only the samples read files (as an application would); env.sh points them at these copies.
for file in "$build/samples/kernels/sample_kernels.spv" "$source_dir/samples/sample_kernels.cl"; do
  [ -f "$file" ] || die "$file is missing: build first (ninja -C $build)"
  cp "$file" "$top/data/"
done
# Every other program carries its kernels: one that names a data file of the build machine would
# fail elsewhere. Not data: C++ sources (which assertions name) and the builtin library's source
# (which its bitcode names).
for program in "${programs[@]}"; do
  case $program in ze_sample | cl_sample) continue ;; esac
  while read -r path; do
    case $path in *.cpp | *.h | *.hpp | *.cc | *.c | *.inl | */compiler/builtins/*) continue ;; esac
    if [ -f "$path" ]; then die "$program names $path, a file of this machine: embed it (loom_embedded_files in CMake)"; fi
  done < <(strings -n 8 "$top/bin/$program" | grep -oE "($source_dir|$build)/[^[:space:]\"']*" | sort -u)
done

# --- icd/loom.icd, env.sh, MANIFEST --------------------------------------------------------------
echo libloom_opencl.so.1 >"$top/icd/loom.icd"

cat >"$top/env.sh" <<'ENV_SH'
# Loom bundle environment (made by scripts/bundle.sh). For bash:
#   . /path/to/loom-bundle/env.sh            sets the environment in this shell
#   /path/to/loom-bundle/env.sh CMD ARGS...  runs CMD in it
# Sets: LOOM_BUNDLE (this folder), PATH (bin/ first), LD_LIBRARY_PATH (lib/, and lib/compat/SONAME
# where the system lacks SONAME), ZE_ENABLE_ALT_DRIVERS (libze_loom), OCL_ICD_VENDORS (icd/),
# LOOM_SAMPLE_KERNEL and LOOM_SAMPLE_SOURCE (the samples' data files). LOOM_BUNDLE_QUIET=1: say
# nothing unless something is wrong.
LOOM_BUNDLE=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd -P)
export LOOM_BUNDLE

_loom_say() { [ "${LOOM_BUNDLE_QUIET:-0}" = 1 ] || printf 'loom-bundle: %s\n' "$*" >&2; }

# Libraries: lib/ always; lib/compat/SONAME only where the system's loader cache has no SONAME.
_loom_ld=$LOOM_BUNDLE/lib
_loom_ldconfig=$(command -v ldconfig || ls /sbin/ldconfig /usr/sbin/ldconfig 2>/dev/null | head -n 1 || true)
_loom_cache=$([ -n "$_loom_ldconfig" ] && "$_loom_ldconfig" -p 2>/dev/null || true)
for _loom_dir in "$LOOM_BUNDLE"/lib/compat/*/; do
  [ -d "$_loom_dir" ] || continue
  _loom_soname=$(basename "$_loom_dir")
  if [ -n "$_loom_cache" ] && printf '%s\n' "$_loom_cache" | grep -q "^[[:space:]]*$_loom_soname (.*x86-64"; then
    continue
  fi
  _loom_ld=$_loom_ld:${_loom_dir%/}
  _loom_compat="${_loom_compat:-}${_loom_compat:+ }$_loom_soname"
done
[ -n "${_loom_compat:-}" ] && _loom_say "bundled libraries used because the system lacks them: $_loom_compat"
export LD_LIBRARY_PATH=$_loom_ld${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$LOOM_BUNDLE/bin:$PATH

# Level Zero: the loader opens libze_loom by this absolute path.
export ZE_ENABLE_ALT_DRIVERS=$LOOM_BUNDLE/lib/libze_loom.so.1

# OpenCL: the ICD loader reads icd/*.icd. The shipped loom.icd names the library, which the
# loader finds through LD_LIBRARY_PATH; an absolute path is written where the folder is writable.
printf '%s\n' "$LOOM_BUNDLE/lib/libloom_opencl.so.1" >"$LOOM_BUNDLE/icd/loom.icd.new" 2>/dev/null &&
  mv -f "$LOOM_BUNDLE/icd/loom.icd.new" "$LOOM_BUNDLE/icd/loom.icd" 2>/dev/null
export OCL_ICD_VENDORS=$LOOM_BUNDLE/icd

# The samples read these instead of their compiled-in paths.
export LOOM_SAMPLE_KERNEL=$LOOM_BUNDLE/data/sample_kernels.spv
export LOOM_SAMPLE_SOURCE=$LOOM_BUNDLE/data/sample_kernels.cl
unset _loom_ld _loom_ldconfig _loom_cache _loom_dir _loom_soname _loom_compat
unset -f _loom_say

# Executed rather than sourced: run the command given.
if [ "${BASH_SOURCE[0]:-$0}" = "$0" ]; then
  if [ $# -eq 0 ]; then
    echo "usage: . $0 (sets the environment), or $0 COMMAND [ARGS...]" >&2
    exit 2
  fi
  exec "$@"
fi
ENV_SH
chmod 755 "$top/env.sh"

{
  echo "Loom bundle made by scripts/bundle.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "build: $build ($(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt"))"
  echo "programs: ${programs[*]}"
  cat "$staging/libs.txt"
  echo "data files: $(cd "$top/data" && echo *)"
} >"$manifest"

# --- Pack ----------------------------------------------------------------------------------------
mkdir -p "$(dirname "$output")"
say "packing $(du -sh "$top" | cut -f1) into $output (xz, x86 filter and -9e: this takes a minute or two)"
tar -C "$staging" --owner=0 --group=0 --numeric-owner -cf - loom-bundle | xz -T0 --x86 --lzma2=preset=9e >"$output.tmp"
mv -f "$output.tmp" "$output"
bytes=$(stat -c %s "$output")
say "$output: $bytes bytes ($(awk -v b="$bytes" 'BEGIN {printf "%.1f MiB", b / 1048576}'))"
[ "$bytes" -lt $((60 * 1048576)) ] || say "warning: over 60 MiB: too large to carry to the device machine with the working tree (64 MiB)"
