#!/usr/bin/env bash
# Packs a GPU build for the H200 machine within the 64 MiB the device tool carries:
# ../shared/tools/device-bundle.sh copies the binaries, GraphBLAS's package and the real
# graphs into .device/, this script adds Debian's mcl and libtingea0 packages (van Dongen's mcl
# for bench_mcl, 0.5 MiB) and libisal2 (ISA-L, which the gzip reader loads where installed); the
# binaries (each embedding the same kernels) then shrink ~18x as one xz stream with a dictionary
# large enough to see the repeats. scripts/gpu-check.sh unpacks.
# usage: [DEVICE_BINS="spmv_test spmv ..."] scripts/device-pack.sh [BUILD_DIR (build-gpu)]
# DEVICE_BINS packs only the executables it names: the whole build no longer fits the 64 MiB a
# call carries beside GraphBLAS and the real graphs, so the suites go in two calls.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-gpu}
cd "$root"
mkdir -p .git/info
# The bundle flattens every executable under BUILD_DIR into one folder, so two of the same name
# (an install tree left inside the build, say) would let a stale copy replace the fresh one.
dups=$(find "$build" -type f -perm -u+x -not -path '*/CMakeFiles/*' -exec sh -c 'head -c 4 "$1" | grep -q ELF && basename "$1"' _ {} \; | sort | uniq -d)
if [ -n "$dups" ]; then
  echo "device-pack: executables of the same name in more than one folder of $build: $dups (remove the stale ones)" >&2
  exit 1
fi
../shared/tools/device-bundle.sh "$build" ../shared/datasets/real | sed '/^bundle size/d'
if [ -n "${DEVICE_BINS:-}" ]; then
  for f in .device/bin/*; do
    case " $DEVICE_BINS " in *" $(basename "$f") "*) ;; *) rm -f "$f" ;; esac
  done
fi
for pkg in mcl libtingea0 libisal2; do  # the local apt cache's copy, else downloaded
  if ! ls .device/${pkg}_*.deb >/dev/null 2>&1; then
    deb=$(ls /var/cache/apt/archives/${pkg}_*_amd64.deb 2>/dev/null | head -n 1)
    if [ -n "$deb" ]; then cp "$deb" .device/; else (cd .device && apt-get download "$pkg" >/dev/null); fi
  fi
done
strip --strip-all .device/bin/* 2>/dev/null || true  # symbols only: the kernels are untouched
tar cf - -C .device bin | xz -T1 --lzma2=preset=1,dict=256MiB > .device/bin.tar.xz
rm -rf .device/bin
du -sh .device | awk '{print "packed .device: " $1 " (at most 64 MiB travels)"}'
