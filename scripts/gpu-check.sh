#!/usr/bin/env bash
# One batched GPU session on the H200 machine (../shared/GPU.md), after
#   ../shared/tools/device-bundle.sh build-gpu ../shared/datasets/real
# run through the device tool as: bash .device/run.sh bash scripts/gpu-check.sh [what...]
# what: sanitize (compute-sanitizer memcheck over the GPU test suites), spmv, spgemm, io,
# generators (benchmarks). Default: all. Writes logs and JSON under $OUT when set.
set -u
out=${OUT:-/tmp/spgraph-gpu-check}; mkdir -p "$out"
data=${DEVICE_DATA:-datasets}
export SPGRAPH_DATASETS=$PWD/datasets SPGRAPH_SHARED_DATASETS=$data
what=("$@"); [ ${#what[@]} -eq 0 ] && what=(sanitize spmv spgemm io generators)
status=0
for w in "${what[@]}"; do
  echo "== $w"
  case $w in
    sanitize)
      for t in spmv_test spgemm_test pagerank_test; do
        command -v $t >/dev/null || continue
        compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 \
          $t --gtest_brief=1 --gtest_filter="${SANITIZE_FILTER:-*}" >"$out/sanitize-$t.log" 2>&1
        rc=$?; tail -n 4 "$out/sanitize-$t.log"; echo "$t under memcheck: exit $rc"
        [ $rc -eq 0 ] || status=1
      done ;;
    spmv) spmv --data-dir "$data/real" --json "$out/spmv-bench.json" || status=1 ;;
    spgemm) spgemm --data-dir "$data/real" --json "$out/spgemm-bench.json" || status=1 ;;
    io) bench_io || status=1 ;;
    generators) bench_generators || status=1 ;;
    *) echo "unknown step $w"; status=1 ;;
  esac
done
exit $status
