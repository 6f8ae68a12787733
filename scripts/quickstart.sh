#!/usr/bin/env bash
# The README's quick start. On a fresh Debian 12 machine with the CUDA toolkit:
#   scripts/quickstart.sh demo   install what is missing, build the library and the apps, run
#                                PageRank on a bundled graph
#   scripts/quickstart.sh test   install what is missing, build everything (tests, benchmarks),
#                                run the whole test suite
# Without the CUDA toolkit the build has the CPU backend only (CMake's SPGRAPH_GPU=OFF).
# Environment: BUILD_DIR (default build), CUDA_ARCH (default 90), JOBS (default nproc).
set -euo pipefail
mode=${1:-demo}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${BUILD_DIR:-build}
export PATH=/usr/local/cuda/bin:$PATH

scripts/install-deps.sh
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" >/dev/null
case "$mode" in
  demo) targets=(--target spgraph_apps) ;;  # the library and the apps, nothing else
  *) targets=() ;;
esac
cmake --build "$build" -j"${JOBS:-$(nproc)}" "${targets[@]}"

case "$mode" in
  demo)
    echo
    echo "== PageRank of Zachary's karate club (datasets/small/karate.mtx), top 5"
    "$build"/pagerank datasets/small/karate.mtx --top 5
    ;;
  test)
    # ctest's "100% tests passed" counts a skipped test as passed: the last line says how many
    # passed, failed and skipped (each skipped one is listed above it under "did not run").
    # OpenMP threads (GraphBLAS's) sleep between parallel regions instead of spinning: two test
    # processes on two cores spinning against each other ran up to 8x slower. No result changes.
    export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
    set +e
    ctest --test-dir "$build" --output-on-failure -j"${JOBS:-$(nproc)}" 2>&1 | tee "$build/ctest.log"
    status=${PIPESTATUS[0]}
    set -e
    total=$(sed -n 's/.* tests failed out of \([0-9]*\)$/\1/p' "$build/ctest.log" | tail -1)
    failed=$(sed -n 's/.*, \([0-9]*\) tests failed out of .*/\1/p' "$build/ctest.log" | tail -1)
    skipped=$(grep -c '(Skipped)$' "$build/ctest.log" || true)
    echo "ctest: $((${total:-0} - ${failed:-0} - skipped)) passed, ${failed:-0} failed, $skipped skipped"
    exit "$status"
    ;;
  *)
    echo "usage: scripts/quickstart.sh demo|test" >&2
    exit 2
    ;;
esac
