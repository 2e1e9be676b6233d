#!/usr/bin/env bash
# Installs everything Loom needs to build and test, from Debian 12 packages. Run as root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build python3 pkg-config
  llvm-15-dev libclang-15-dev clang-15 libllvmspirvlib-15-dev llvm-spirv-15 spirv-tools
  libze1 libze-dev
  opencl-headers ocl-icd-opencl-dev ocl-icd-libopencl1 clinfo pocl-opencl-icd
  libgtest-dev libgmock-dev libbenchmark-dev
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
