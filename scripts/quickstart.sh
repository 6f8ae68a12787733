#!/usr/bin/env bash
# The README's quick start. On a fresh Debian 12 machine with the CUDA toolkit:
#   scripts/quickstart.sh demo   install what is missing, build, run the apps on a bundled graph
#   scripts/quickstart.sh test   install what is missing, build, run the whole test suite
# Environment: BUILD_DIR (default build), CUDA_ARCH (default 90), JOBS (default nproc).
set -euo pipefail
mode=${1:-demo}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${BUILD_DIR:-build}
export PATH=/usr/local/cuda/bin:$PATH

scripts/install-deps.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" >/dev/null
cmake --build "$build" -j"${JOBS:-$(nproc)}"

case "$mode" in
  demo)
    echo
    echo "== PageRank of Zachary's karate club (datasets/small/karate.mtx), top 5"
    "$build"/pagerank datasets/small/karate.mtx --top 5
    ;;
  test)
    ctest --test-dir "$build" --output-on-failure -j"${JOBS:-$(nproc)}"
    ;;
  *)
    echo "usage: scripts/quickstart.sh demo|test" >&2
    exit 2
    ;;
esac
