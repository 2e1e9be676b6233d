#!/usr/bin/env bash
# Checks a Loom Debian package (scripts/package.sh) as installed, without installing it on this
# machine: in a private mount namespace (unshare -m, as root) the package's files are laid over
# the system's folders, and a login shell with no variable set runs clinfo, loom-info and both
# samples, which must find Loom through /etc/OpenCL/vendors/loom.icd and
# /etc/profile.d/loom-level-zero.sh alone. Nothing outside the namespace changes.
#
# usage: bash scripts/check-package.sh DEB
set -euo pipefail
deb=${1:?usage: check-package.sh DEB}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -x "$deb" "$work/root"
mkdir -p "$work/home"

inside() {  # runs in the namespace: overlays the folders the package fills, then the programs
  local root=$1 work=$2 dir
  # A folder this machine lacks is laid over its nearest existing parent.
  for dir in $(cd "$root" && find . -type f -printf '%h\n' | while read -r d; do
                 while [ ! -d "/$d" ]; do d=$(dirname "$d"); done; echo "${d#./}"
               done | sort -u); do
    mount -t overlay overlay -o "lowerdir=$root/$dir:/$dir" "/$dir"
  done
  env -i HOME="$work/home" PATH=/usr/bin:/bin LOOM_CompilerCacheDir="$work/cache" bash -lc '
    set -e
    clinfo -l | grep -qx "Platform #[0-9]*: Loom" || { clinfo -l; echo "clinfo lists no Loom platform" >&2; exit 1; }
    loom-info
    loom-info --loaders | grep -q "^Level Zero loader: ZE_ENABLE_ALT_DRIVERS names /" || exit 1
    for sample in /usr/libexec/loom/samples/ze_sample /usr/libexec/loom/samples/cl_sample; do
      "$sample" | grep -qx PASSED || { echo "$sample failed" >&2; exit 1; }
      echo "$sample: PASSED"
    done'
}
unshare -m bash -c "$(declare -f inside); inside '$work/root' '$work'"
echo "check-package: $deb works as installed"
