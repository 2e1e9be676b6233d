#!/usr/bin/env bash
# Packs the Debian programs that `run.sh --gpu` runs into one tarball for a machine without
# Debian's packages (the GPU machine): hashcat (binary, kernel sources, the modules of
# HASHCAT_MODES), clpeak, CLBlast with clblast_routines built against it, clFFT with clfft_check
# built against it, and the libraries they need that Ubuntu 24.04 lacks. Unpack it at / as root there, then run `ldconfig`.
# Usage: benchmarks/real_programs/pack.sh OUTPUT.tar.xz
set -euo pipefail
[ $# -eq 1 ] || { sed -n '2,6p' "$0"; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
output=$(realpath "$1")
apt-get install -y -qq --no-install-recommends libclblast-dev libclfft-dev clpeak hashcat >/dev/null
stage=$(mktemp -d /tmp/loom-pack-XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/usr/bin" "$stage/usr/local/bin" "$stage/usr/local/lib" "$stage/usr/share" "$stage/usr/lib/hashcat/modules"
cp /usr/bin/hashcat /usr/bin/clpeak "$stage/usr/bin/"
cp -r /usr/share/hashcat "$stage/usr/share/"
for mode in ${HASHCAT_MODES:-0 100 1400 1700}; do
  cp "/usr/lib/hashcat/modules/module_$(printf %05d "$mode").so" "$stage/usr/lib/hashcat/modules/"
done
cp -P /usr/lib/x86_64-linux-gnu/libclblast.so.1* /usr/lib/x86_64-linux-gnu/libminizip.so.1* \
  /usr/lib/x86_64-linux-gnu/libxxhash.so.0* /usr/lib/x86_64-linux-gnu/libclFFT.so.2* "$stage/usr/local/lib/"
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 -DCL_USE_DEPRECATED_OPENCL_1_2_APIS \
  -o "$stage/usr/local/bin/clblast_routines" "$root/benchmarks/real_programs/clblast_routines.cpp" -lclblast -lOpenCL
g++ -O2 -std=c++17 -DCL_TARGET_OPENCL_VERSION=120 -o "$stage/usr/local/bin/clfft_check" \
  "$root/benchmarks/real_programs/clfft_check.cpp" -lclFFT -lOpenCL
tar -C "$stage" --owner=0 --group=0 -cf - . | xz -T0 -6 > "$output"
echo "$output: $(stat -c %s "$output") bytes"
