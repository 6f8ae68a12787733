#!/usr/bin/env bash
# One batched GPU session on the H200 machine (../shared/GPU.md). After
#   scripts/device-pack.sh build-gpu
# run through the device tool (carry .device) as: bash scripts/gpu-check.sh [what...]
# what: tests (every *_test binary, each under a time limit), dist (dist_test under mpirun at
# P = 1..4, GPU ranks sharing the GPUs), sanitize (compute-sanitizer
# memcheck over the GPU test suites), racecheck (shared-memory hazards, one test per kernel
# family), spmv, spgemm, graph, tricount, msbfs, mcl, io, generators (benchmarks; mcl runs
# van Dongen's mcl program beside ours, from the Debian packages device-pack.sh packs), e2e
# (bench_end_to_end: the apps as child processes, GPU and CPU; E2E_ARGS adds its flags), plots
# (figures of this run's JSON, where matplotlib is installed).
# Default: all. GTEST_FILTER narrows the tests. Writes logs and JSON under $OUT when set.
set -u
# van Dongen's mcl for the mcl step: Debian's, unpacked below where packed (not put on PATH: our
# own app is called mcl too), else the one installed here.
mcl_program=${MCL_PROGRAM:-/usr/bin/mcl} mcl_lib=
if [ -f .device/bin.tar.xz ] && [ ! -d .device/bin ]; then tar xJf .device/bin.tar.xz -C .device; fi
if [ -d .device ]; then
  mkdir -p /tmp/gb && dpkg -x .device/libgraphblas7_*.deb /tmp/gb
  # ISA-L (Debian's libisal2), which the gzip reader loads where installed, as on Debian.
  for deb in .device/libisal2_*.deb; do [ -f "$deb" ] && dpkg -x "$deb" /tmp/gb; done
  export LD_LIBRARY_PATH=/tmp/gb/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  if ls .device/mcl_*.deb .device/libtingea0_*.deb >/dev/null 2>&1; then
    mkdir -p /tmp/mcl && for deb in .device/mcl_*.deb .device/libtingea0_*.deb; do dpkg -x "$deb" /tmp/mcl; done
    mcl_program=/tmp/mcl/usr/bin/mcl mcl_lib=/tmp/mcl/usr/lib/x86_64-linux-gnu
  fi
  export PATH=$PWD/.device/bin:$PATH DEVICE_DATA=$PWD/.device/data
  nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader
fi
# Logs and JSON go to a work folder, packed into one archive under $OUT at the end (the
# device tool returns at most 8 files).
out=$(mktemp -d /tmp/spgraph-gpu-check.XXXX)
data=${DEVICE_DATA:-datasets}
export SPGRAPH_DATASETS=$PWD/datasets SPGRAPH_SHARED_DATASETS=$data
# Here a GPU test that would skip (no device, a device error) fails instead, with the reason.
export SPGRAPH_REQUIRE_GPU=${SPGRAPH_REQUIRE_GPU:-1}
what=("$@"); [ ${#what[@]} -eq 0 ] && what=(tests dist sanitize racecheck spmv spgemm graph tricount msbfs mcl io generators e2e plots)
# The test binaries: the packed ones (a call may carry only some), else those on PATH.
if [ -d .device/bin ]; then bin=$PWD/.device/bin; else bin=$(dirname "$(command -v spmv_test || echo ./spmv_test)"); fi
status=0
for w in "${what[@]}"; do
  echo "== $w"
  case $w in
    tests)
      for t in "$bin"/*_test; do
        timeout "${TEST_TIMEOUT:-300}" "$t" --gtest_brief=1 --gtest_filter="${GTEST_FILTER:-*}" >"$out/$(basename "$t").log" 2>&1
        rc=$?; echo "$(basename "$t"): exit $rc; $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$(basename "$t").log" | tr '\n' ' ')"
        grep -E '^\[  FAILED  \] [A-Za-z]' "$out/$(basename "$t").log" | head -20
        [ $rc -eq 0 ] || status=1
      done ;;
    sanitize)
      # Every suite that runs on the GPU; apps_test's apps are child processes, which
      # --target-processes all follows (the malformed-file corpus, which fails before any
      # device work, is left out: one process a file; so are the triangle counts of the medium
      # graphs and of K_3000, whose kernels the small graphs already exercise, at 50x the time).
      for t in spmv_test spgemm_test operations_test pagerank_test triangle_count_test msbfs_test mcl_test bench_test apps_test; do
        command -v $t >/dev/null || continue
        filter=${SANITIZE_FILTER:-*}
        case $t in  # one more negative pattern, after the '-' or starting it
          apps_test) skip='PageRankApp.BadInputs*' ;;
          triangle_count_test) skip='Shared/TriangleCountReal.*:*CompleteGraph*' ;;
          mcl_test) skip='*RealGraphs*' ;;
          *) skip= ;;
        esac
        if [ -n "$skip" ]; then
          case $filter in *-*) filter="$filter:$skip" ;; *) filter="$filter-$skip" ;; esac
        fi
        timeout "${SANITIZE_TIMEOUT:-600}" compute-sanitizer --tool memcheck --leak-check no --error-exitcode 9 \
          --target-processes all $t --gtest_brief=1 --gtest_filter="$filter" >"$out/sanitize-$t.log" 2>&1
        rc=$?; tail -n 4 "$out/sanitize-$t.log"; echo "$t under memcheck: exit $rc"
        [ $rc -eq 0 ] || status=1
      done ;;
    racecheck)
      # Shared-memory hazards, on the tests that exercise each kernel family once (racecheck is
      # slow: about 30 s a test case); RACECHECK_FILTER_<suite> overrides a suite's filter.
      for t in spmv_test spgemm_test pagerank_test operations_test; do
        command -v $t >/dev/null || continue
        case $t in
          spmv_test) f=${RACECHECK_FILTER_spmv:-'SpmvKernels/0.PlusTimes:SpmvKernels/1.PlusTimes:SpmvMasks/0.PlusTimes:SpmvKernelsWideX.*'} ;;
          spgemm_test) f=${RACECHECK_FILTER_spgemm:-'SpgemmHash.EveryRowGroupMidSpans:SpgemmHash.SortTiersCombineRunsAcrossLanes:SpgemmHash.ManyEntriesFewProducts:SpgemmHash.HugeRowTakesTheGlobalPath:SpgemmEsc.RectangularWithEmptyRowsColumnsAndADenseRow:SpgemmMasked.EveryDescriptorHash'} ;;
          pagerank_test) f=${RACECHECK_FILTER_pagerank:-'MapReduceGpu.UpdatesEveryElementAndSumsExactly:MxvReducerGpu.*:MxvLoopGpu.*'} ;;
          # MCL's expansion: dense and hashed tiles in one launch, and a hashed piece walked again.
          operations_test) f=${RACECHECK_FILTER_operations:-'PruneRowsGpu/0.AutoHashesRowsSpreadOverManyTiles:PruneRowsGpu/0.HashedTilesWalkAPieceAgainWhereItOverflows'} ;;
        esac
        timeout "${SANITIZE_TIMEOUT:-600}" compute-sanitizer --tool racecheck --error-exitcode 9 \
          $t --gtest_brief=1 --gtest_filter="$f" >"$out/racecheck-$t.log" 2>&1
        rc=$?; tail -n 3 "$out/racecheck-$t.log"; echo "$t under racecheck: exit $rc"
        [ $rc -eq 0 ] || status=1
      done ;;
    dist)
      # dist_test under mpirun at P = 1..4 (DIST_RANKS) on this host, on shared memory and loopback
      # only: its GPU ranks share the machine's GPUs where there are fewer than ranks, their
      # exchanges through host memory (NCCL's own tests skip there: NCCL takes a GPU a rank).
      dist_test=$bin/dist_test; [ -x "$dist_test" ] || dist_test=$(command -v dist_test)
      if ! command -v mpirun >/dev/null || [ -z "$dist_test" ]; then
        echo "dist: needs mpirun and dist_test"; status=1; continue
      fi
      for np in ${DIST_RANKS:-1 2 3 4}; do
        timeout "${TEST_TIMEOUT:-300}" mpirun --oversubscribe --allow-run-as-root --mca btl self,vader \
          --mca oob_tcp_if_include lo -n "$np" "$dist_test" --gtest_brief=1 --gtest_color=no \
          --gtest_filter="${GTEST_FILTER:-*}" >"$out/dist-np$np.log" 2>&1
        rc=$?; echo "dist_test -n $np: exit $rc; $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/dist-np$np.log" | tr '\n' ' ')"
        grep -E 'FAILED  \] [A-Za-z]' "$out/dist-np$np.log" | sort -u | head -20
        [ $rc -eq 0 ] || status=1
      done ;;
    spmv) spmv --data-dir "$data/real" --json "$out/spmv-bench.json" || status=1 ;;
    spgemm) spgemm --data-dir "$data/real" --json "$out/spgemm-bench.json" || status=1 ;;
    graph) bench_graph_build --json "$out/graph-build.json" || status=1 ;;
    tricount) bench_tricount --data-dir "$data/real" --json "$out/tricount-bench.json" || status=1 ;;
    msbfs) bench_msbfs --json "$out/msbfs-bench.json" || status=1 ;;
    mcl)
      # mcl gets 300 s an input and the whole step 540 s (MCL_TIMEOUT, MCL_BENCH_TIMEOUT), so that
      # a slow mcl cannot take the device call's 10 minutes, and these logs, with it; its stderr
      # per input is kept beside the JSON.
      LD_LIBRARY_PATH=$mcl_lib${mcl_lib:+:}${LD_LIBRARY_PATH:-} timeout "${MCL_BENCH_TIMEOUT:-540}" \
        bench_mcl --data-dir "$data/real" --mcl "$mcl_program" --mcl-timeout "${MCL_TIMEOUT:-300}" \
        --mcl-logs "$out" --json "$out/mcl-bench.json" || status=1 ;;
    io) bench_io || status=1 ;;
    generators) bench_generators || status=1 ;;
    e2e)
      # The generated graphs are written once per machine as .spgcsr under /tmp; the step gets
      # E2E_TIMEOUT (540 s) so that the call's logs still come back. Needs pagerank, tricount,
      # msbfs, mcl and bench_end_to_end packed together (DEVICE_BINS).
      timeout "${E2E_TIMEOUT:-540}" bench_end_to_end --dir /tmp/spgraph-e2e-graphs --data-dir "$data/real" \
        --json "$out/end-to-end-bench.json" ${E2E_ARGS:-} || status=1 ;;
    plots)
      # The figures of every JSON this call wrote so far, beside it in the archive; the docs' own
      # come from the copied JSON: python3 scripts/plot-benchmarks.py docs/performance/data
      # docs/performance/figures.
      if python3 -c 'import matplotlib' 2>/dev/null; then
        python3 scripts/plot-benchmarks.py "$out" "$out/figures" || status=1
      else
        echo "plots: no matplotlib on this machine; the JSON under \$OUT is plotted where it is copied"
      fi ;;
    *) echo "unknown step $w"; status=1 ;;
  esac
done
[ -n "${OUT:-}" ] && tar czf "$OUT/gpu-check-$(date +%H%M%S).tgz" -C "$out" .
exit $status
