#!/usr/bin/env bash
# Builds Loom's Debian package with CPack (cmake/LoomPackage.cmake) and prints its path. Configures
# a build folder of its own for the /usr prefix (libraries in /usr/lib/<multiarch>, configuration
# in /etc), without the tests, builds it, packs it, and checks that the package holds what
# cmake/LoomInstall.cmake installs and depends on no build tool.
#
# usage: bash scripts/package.sh [BUILD-DIR] [extra cmake arguments -D...]   (default build-package/)
# then, as root: apt install ./build-package/loom_<version>_<arch>.deb
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build-package
if [ $# -gt 0 ] && [[ $1 != -* ]]; then build=$1; shift; fi
fail() { echo "package: $*" >&2; exit 1; }

cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
  -DLOOM_BUILD_TESTS=OFF "$@" >/dev/null
ninja -C "$build" >&2
rm -f "$build"/loom_*.deb
(cd "$build" && cpack -G DEB >&2)
debs=("$build"/loom_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "cpack made no single loom_*.deb in $build"
deb=${debs[0]}

# What the package must hold, and what it must not depend on.
contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
for file in /usr/lib/$multiarch/libze_loom.so.1 /usr/lib/$multiarch/libloom_opencl.so.1 /usr/bin/loom-info \
            /usr/bin/loom-cc /usr/share/man/man1/loom-info.1 /usr/share/man/man1/loom-cc.1 \
            /etc/OpenCL/vendors/loom.icd /etc/profile.d/loom-level-zero.sh /usr/libexec/loom/samples/ze_sample \
            /usr/libexec/loom/samples/cl_sample; do
  grep -qxF "$file" <<<"$contents" || fail "$deb lacks $file"
done
depends=$(dpkg-deb -f "$deb" Depends)
for package in $(tr ',|' '\n\n' <<<"$depends" | sed 's/(.*)//; s/:.*//'); do
  case " $package " in
    *-dev\ | " build-essential " | " gcc " | " g++ " | " cmake " | " ninja-build " | " clang-15 " | " llvm-15 " | \
      " llvm-spirv-15 " | " spirv-tools ")
      fail "$deb depends on a build tool ($package): $depends" ;;
  esac
done
[ "$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./etc/OpenCL/vendors/loom.icd)" = "/usr/lib/$multiarch/libloom_opencl.so.1" ] ||
  fail "loom.icd does not name /usr/lib/$multiarch/libloom_opencl.so.1"
echo "$deb"
