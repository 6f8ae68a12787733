#!/usr/bin/env bash
# Issue 41's two open measurements, in one call on the GPU machine (../shared/GPU.md):
#  (a) none of the algorithms or kernels got slower: the benchmarks (spmv with its PageRank rows,
#      spgemm, bench_tricount, bench_msbfs, bench_mcl on small graphs, and the apps end to end via
#      bench_end_to_end) built from the baseline 81c6506 (before issue 41's restructuring) and from
#      HEAD, run with the same arguments on the same machine in the same call, each pair back to
#      back; one table: benchmark, baseline ms, HEAD ms, ratio (HEAD / baseline).
#  (b) --backend auto's crossovers: each app's wall time with --backend gpu and --backend cpu on
#      R-MAT graphs of increasing scale (bench_end_to_end, HEAD's apps), and the threshold the rule
#      of docs/performance/backend-choice.md derives from them.
#
# here:  scripts/gpu-compare.sh pack
#          .baseline/: base.tar.gz (git archive 81c6506), head.tar.gz (git archive HEAD, so the
#          comparison is of commits, whatever the working tree holds), COMMITS, and the shared real
#          graphs (data/real); .device-deps/ (../shared/tools/device-build.sh pack) when absent;
#          then checks that the tree and both folders fit the 64 MiB a device call carries.
#          Run it again right before the device call when HEAD has moved.
# there: device run, carry [".device-deps", ".baseline"], command: bash scripts/gpu-compare.sh
#          [steps]: build (configure and build both trees, generate the R-MAT graphs), compare,
#          sweep; default all three. configure alone configures both trees (the CPU dry run).
#
# Within DEADLINE seconds (540) of its start: the builds get at most BUILD_LIMIT (330), the sweep
# SWEEP_RESERVE (150) at the end, the comparison what is between; a step that would not finish in
# time is skipped and says so. Fail-soft: no step stops another. Logs, JSON and tables go to one
# archive, rewritten after every step, and the tables beside it under $OUT:
# $OUT/gpu-compare.tgz, $OUT/compare.txt, $OUT/sweep.txt.
# Other knobs: COMPARE (the benchmarks to compare: spmv spgemm tricount msbfs mcl e2e),
# HEAD_SOURCE=worktree (build the checkout that travelled instead of head.tar.gz),
# BUILD_JOBS (3/4 of the cores per tree, both trees building at once; every core for HEAD alone), SWEEP_REPEATS (3),
# SWEEP_WARMUP (1), SWEEP_RUN_TIMEOUT (20 s a run), SWEEP_<APP>_SCALES (R-MAT scales, ascending),
# BASE_BIN/HEAD_BIN (use binaries already built there: no configure or build), GPU_COMPARE_WORK
# (/tmp/gpu-compare), DEPS_DIR (/tmp/spgraph-deps).
set -u -o pipefail  # no -e: one failing step must not lose the others' output

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
kBaseCommit=${BASE_COMMIT:-81c6506}
kCarryLimit=$((64 * 1024 * 1024))
kRealGraphs="cnr-2000.mtx.gz web-NotreDame.txt.gz cit-HepPh.txt.gz email-Enron.txt.gz"

# ---- here: the carried folders -----------------------------------------------------------------
if [ "${1:-}" = pack ]; then
  set -e
  top=$(git rev-parse --show-toplevel)
  cd "$top"
  mkdir -p .git/info .baseline/data/real
  grep -qx '/.baseline/' .git/info/exclude 2>/dev/null || echo '/.baseline/' >> .git/info/exclude
  git archive --format=tar.gz -o .baseline/base.tar.gz "$kBaseCommit"
  git archive --format=tar.gz -o .baseline/head.tar.gz HEAD
  {
    echo "base $(git rev-parse "$kBaseCommit") $(git log -1 --format=%s "$kBaseCommit" | cut -c1-100)"
    echo "head $(git rev-parse HEAD) $(git log -1 --format=%s HEAD | cut -c1-100)"
    echo "packed $(date -u +%Y-%m-%dT%H:%M:%SZ); tracked files changed in the working tree, not in head.tar.gz: $(git status --porcelain --untracked-files=no | wc -l)"
  } > .baseline/COMMITS
  shared=${SHARED_REAL:-../shared/datasets/real}
  for f in $kRealGraphs; do
    if [ ! -f ".baseline/data/real/$f" ]; then
      if [ -f "$shared/$f" ]; then cp "$shared/$f" .baseline/data/real/; else echo "pack: $shared/$f not found (the benchmarks then run without it)" >&2; fi
    fi
  done
  [ -d .device-deps ] || ../shared/tools/device-build.sh pack
  # What travels: tracked files and untracked ones git does not ignore, plus the carried folders.
  tree=$(git ls-files -z --cached --others --exclude-standard | xargs -0 stat -c %s 2>/dev/null | awk '{s += $1} END {print s + 0}')
  deps=$(du -sb .device-deps | cut -f1)
  base=$(du -sb .baseline | cut -f1)
  total=$((tree + deps + base))
  mib() { awk -v b="$1" 'BEGIN {printf "%.1f MiB", b / 1048576}'; }
  cat .baseline/COMMITS
  echo "carried: working tree $(mib "$tree"), .device-deps $(mib "$deps"), .baseline $(mib "$base"): $(mib "$total") of 64 MiB"
  if [ "$total" -gt "$kCarryLimit" ]; then echo "pack: above the 64 MiB a device call carries" >&2; exit 1; fi
  exit 0
fi

# ---- there -----------------------------------------------------------------------------------
steps=("$@"); [ ${#steps[@]} -eq 0 ] && steps=(build compare sweep)
want() { local s; for s in "${steps[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
DEADLINE=${DEADLINE:-540}
BUILD_LIMIT=${BUILD_LIMIT:-330}
SWEEP_RESERVE=${SWEEP_RESERVE:-150}
W=${GPU_COMPARE_WORK:-/tmp/gpu-compare}
L=$W/logs T=$W/tables G=$W/graphs
deps=${DEPS_DIR:-/tmp/spgraph-deps}
dlib=$deps/usr/lib/x86_64-linux-gnu
status=0
rm -rf "$L" "$T"
mkdir -p "$L/base" "$L/head" "$L/sweep" "$T" "$G" "$W/run/base" "$W/run/head"

say() { printf '[%3ds] %s\n' "$SECONDS" "$*" | tee -a "$L/steps.log"; }
left() { echo $((DEADLINE - SECONDS)); }
save() {
  [ -n "${OUT:-}" ] || return 0
  tar czf "$OUT/gpu-compare.tgz.part" -C "$W" logs tables 2>/dev/null && mv -f "$OUT/gpu-compare.tgz.part" "$OUT/gpu-compare.tgz"
  for f in "$T"/compare.txt "$T"/sweep.txt; do [ -f "$f" ] && cp -f "$f" "$OUT/"; done
  return 0
}
trap 'save' EXIT
trap 'say "stopped by a signal"; exit 143' TERM INT

# The GPU first: every figure names its card.
gpu=$(nvidia-smi --query-gpu=name,memory.used,memory.total,driver_version --format=csv,noheader 2>&1 | head -n 4 | paste -sd ";" -)
say "GPU: ${gpu:-none found}"
{
  echo "gpu: $gpu"; echo "cores: $(nproc)"; free -g | head -n 2
  echo "cmake: $(cmake --version 2>&1 | head -n 1)"; echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
  echo "steps: ${steps[*]}"; cat .baseline/COMMITS 2>/dev/null || echo "no .baseline/COMMITS"
  if git rev-parse HEAD >/dev/null 2>&1; then echo "working tree's git HEAD: $(git rev-parse HEAD)"; fi
} > "$L/environment.txt" 2>&1
say "$(sed -n 's/^\(base\|head\) \([0-9a-f]\{12\}\)[0-9a-f]* /\1 \2 /p' .baseline/COMMITS 2>/dev/null | cut -c1-90 | tr '\n' ';')"

# ---- the two trees
commit() {  # base|head: the packed commit, or what the tree is
  if [ "$1" = head ] && [ "$head_src" = "$root" ]; then echo "the working tree that travelled"; return; fi
  sed -n "s/^$1 \([0-9a-f]\{12\}\).*/\1/p" .baseline/COMMITS 2>/dev/null | grep . || echo "?"
}
base_src=$W/src/base
if [ "${HEAD_SOURCE:-}" != worktree ] && [ -f .baseline/head.tar.gz ]; then head_src=$W/src/head; else head_src=$root; fi
HB=${HEAD_BIN:-$W/build/head}
BB=${BASE_BIN:-$W/build/base}
base_targets="spmv spgemm bench_tricount bench_msbfs bench_mcl bench_end_to_end pagerank tricount msbfs"
head_targets="$base_targets mcl spgraph-convert"

unpack_sources() {
  rm -rf "$W/src" && mkdir -p "$base_src" || return 1
  [ -f .baseline/base.tar.gz ] || { say "no .baseline/base.tar.gz: run scripts/gpu-compare.sh pack before the device call"; return 1; }
  tar xzf .baseline/base.tar.gz -C "$base_src" || return 1
  if [ "$head_src" != "$root" ]; then mkdir -p "$head_src" && tar xzf .baseline/head.tar.gz -C "$head_src" || return 1; fi
  say "sources: baseline in $base_src, HEAD in $head_src"
}

# Debian's -dev packages (.device-deps/, as ../shared/tools/device-build.sh unpacks them): the
# machine has no GraphBLAS, CLI11, nlohmann-json or xxhash.
setup_deps() {
  if [ ! -d "$deps/usr" ]; then
    ls .device-deps/*.deb >/dev/null 2>&1 || { say "no .device-deps/*.deb: run ../shared/tools/device-build.sh pack here"; return 1; }
    mkdir -p "$deps" && for d in .device-deps/*.deb; do dpkg -x "$d" "$deps" || return 1; done
    # The -dev package's libz.so points at Debian's file name: the machine's own libz.so.1 instead.
    z=$(find /usr/lib/x86_64-linux-gnu/libz.so.1 /lib/x86_64-linux-gnu/libz.so.1 -maxdepth 0 2>/dev/null | head -n 1)
    [ -n "$z" ] && ln -sf "$z" "$dlib/libz.so"
  fi
  return 0
}
setup_deps && export LD_LIBRARY_PATH=$dlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# The trees a call needs: the baseline only for the comparison.
trees() { if want compare || ! want build; then echo base head; else echo head; fi; }
src_of() { if [ "$1" = base ]; then echo "$base_src"; else echo "$head_src"; fi; }

configure() {  # the trees at once, the same flags (HEAD's SPGRAPH_GPU=ON fails loudly without nvcc)
  local nvcc t rc ok=0 start=$SECONDS
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  local flags=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER="$nvcc"
    -DCMAKE_PREFIX_PATH="$deps/usr" -DZLIB_INCLUDE_DIR="$deps/usr/include" -DZLIB_LIBRARY="$dlib/libz.so"
    -DSPGRAPH_BUILD_TESTS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON)
  declare -A pid
  for t in $(trees); do
    local extra=(); [ "$t" = head ] && extra=(-DSPGRAPH_GPU=ON)
    cmake -S "$(src_of "$t")" -B "$W/build/$t" "${flags[@]}" "${extra[@]}" > "$L/configure-$t.log" 2>&1 &
    pid[$t]=$!
  done
  for t in $(trees); do
    wait "${pid[$t]}"; rc=$?
    say "configure $t: exit $rc ($((SECONDS - start)) s)"
    if [ $rc -ne 0 ]; then tail -n 15 "$L/configure-$t.log"; ok=1; status=1; fi
  done
  return $ok
}

# ---- the R-MAT graphs of the sweep
declare -A scales=(
  [pagerank]=${SWEEP_PAGERANK_SCALES:-"15 16 17 18 19 20 21"}
  [tricount]=${SWEEP_TRICOUNT_SCALES:-"11 12 13 14 15 16 17 18"}
  [msbfs]=${SWEEP_MSBFS_SCALES:-"15 16 17 18 19 20 21"}
  [mcl]=${SWEEP_MCL_SCALES:-"7 8 9 10 11 12 13"}
)
sweep_apps=(pagerank tricount msbfs mcl)
generate_graphs() {
  [ -x "$HB/spgraph-convert" ] || { say "no HEAD spgraph-convert: no R-MAT graphs"; return 1; }
  local all s start=$SECONDS n=0
  # shellcheck disable=SC2086  # the lists split into scales
  all=$(printf '%s\n' ${scales[pagerank]} ${scales[tricount]} ${scales[msbfs]} ${scales[mcl]} | sort -n -u)
  for s in $all; do
    [ -f "$G/rmat$s.spgcsr" ] && continue
    # Graph500's R-MAT (a,b,c = 0.57,0.19,0.19), edge factor 16, repeats and self-loops removed:
    # the graphs of backend-choice.md's table.
    timeout 120 "$HB/spgraph-convert" --generate rmat --rmat-scale "$s" --edge-factor 16 "$G/rmat$s.spgcsr" \
      >> "$L/sweep/generate.log" 2>&1 || say "R-MAT $s: spgraph-convert failed (see logs/sweep/generate.log)"
    n=$((n + 1))
  done
  say "R-MAT graphs: $n generated in $((SECONDS - start)) s into $G"
}

build() {
  local start=$SECONDS limit=$BUILD_LIMIT jobs t targets
  if want compare; then jobs=${BUILD_JOBS:-$(($(nproc) * 3 / 4))}; else jobs=${BUILD_JOBS:-$(nproc)}; fi
  [ "$jobs" -ge 1 ] || jobs=1
  [ $((limit + 60)) -le "$(left)" ] || limit=$(($(left) - 60))
  # The trees at once (HEAD's library and two apps took 104 s of the 16 cores alone, the baseline's
  # whole tree 144 s); -k 0: a target that fails does not stop the others.
  declare -A pid
  for t in $(trees); do
    if [ "$t" = base ]; then targets=$base_targets; else targets=$head_targets; fi
    # shellcheck disable=SC2086  # the list splits into targets
    (timeout "$limit" ninja -C "$W/build/$t" -k 0 -j"$jobs" $targets > "$L/build-$t.log" 2>&1
     echo $? > "$W/build-$t.rc"; echo $SECONDS > "$W/build-$t.end") &
    pid[$t]=$!
  done
  wait "${pid[head]}"
  say "build head: exit $(cat "$W/build-head.rc" 2>/dev/null), $(($(cat "$W/build-head.end" 2>/dev/null || echo $SECONDS) - start)) s ($jobs jobs$(want compare && echo ', the baseline building beside it'))"
  # The graphs while the baseline finishes: nothing is measured until both builds are done.
  want sweep && generate_graphs
  if want compare; then
    wait "${pid[base]}"
    say "build base: exit $(cat "$W/build-base.rc" 2>/dev/null), $(($(cat "$W/build-base.end" 2>/dev/null || echo $SECONDS) - start)) s"
  fi
  for t in $(trees); do
    cp -f "$W/build/$t/.ninja_log" "$L/ninja_log-$t" 2>/dev/null
    if [ "$(cat "$W/build-$t.rc" 2>/dev/null)" != 0 ]; then status=1; grep -A8 FAILED "$L/build-$t.log" | head -n 40; tail -n 3 "$L/build-$t.log"; fi
  done
  say "built: base [$(cd "$BB" 2>/dev/null && for x in $base_targets; do [ -x "$x" ] && printf '%s ' "$x"; done)] head [$(cd "$HB" 2>/dev/null && for x in $head_targets; do [ -x "$x" ] && printf '%s ' "$x"; done)]"
}

# ---- (a) the comparison: one benchmark on one tree
data=
for d in "${DEVICE_DATA:+$DEVICE_DATA/real}" "$root/.device/data/real" "$root/.baseline/data/real"; do
  if [ -n "$d" ] && [ -f "$d/email-Enron.txt.gz" ]; then data=$d; break; fi
done
mcl_inputs() {  # small graphs only: hep-th (bundled), email-Enron and cit-HepPh where present
  local f
  printf '%s\n' "$root/datasets/small/hep-th.mtx"
  for f in email-Enron.txt.gz cit-HepPh.txt.gz; do [ -n "$data" ] && [ -f "$data/$f" ] && printf '%s\n' "$data/$f"; done
}
# The same arguments for both trees, cut to fit the call: fewer repeats than the benchmarks'
# defaults where a pair would not fit otherwise, no wb-edu-like in spgemm (its A*A by ESC and
# cuSPARSE takes about a second a run) and no product above --max-products (the row panels, 2 s
# a run), sources up to 512 in msbfs; the CPU contenders the change did not touch (Boost.Graph,
# van Dongen's mcl) are left out, GraphBLAS (our algorithms' CPU backend) is timed once after its
# checked run.
# shellcheck disable=SC2054  # the commas are the benchmarks' list syntax
bench_args() {  # NAME JSON -> A=(program args...)
  local json=$2 dd=()
  [ -n "$data" ] && dd=(--data-dir "$data")
  case $1 in
    spmv) A=(spmv "${dd[@]}" --json "$json") ;;
    spgemm) A=(spgemm "${dd[@]}" --generated cit-patents --skip-above-max --warmup 1 --repeats 5 --json "$json") ;;
    tricount) A=(bench_tricount "${dd[@]}" --warmup 1 --repeats 5 --graphblas-repeats 1 --json "$json") ;;
    msbfs) A=(bench_msbfs "${dd[@]}" --sources-counts 1,64,512 --warmup 1 --repeats 3 --single-max 8
              --graphblas-max-sources 8 --graphblas-repeats 1 --no-boost --json "$json") ;;
    mcl) mapfile -t files < <(mcl_inputs)
         A=(bench_mcl --no-mcl --no-generated --warmup 1 --repeats 3 "${files[@]}" --json "$json") ;;
    e2e) A=(bench_end_to_end "${dd[@]}" --apps pagerank,tricount,msbfs --inputs email-Enron,web-NotreDame
            --backends gpu,cpu --warmup 1 --repeats 2 --timeout 30 --json "$json") ;;
  esac
}
run_one() {  # TREE NAME CAP
  local tree=$1 name=$2 cap=$3 bin
  [ "$tree" = base ] && bin=$BB || bin=$HB
  local json=$L/$tree/$name.json log=$L/$tree/$name.log
  bench_args "$name" "$json"
  if [ ! -x "$bin/${A[0]}" ]; then say "$name $tree: no $bin/${A[0]} (build failed: logs/build-$tree.log)"; status=1; return; fi
  local start=$SECONDS
  (cd "$W/run/$tree" && timeout -k 5 "$cap" "$bin/${A[0]}" "${A[@]:1}") > "$log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || status=1
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$tree" "$rc" "$((SECONDS - start))" "$cap" >> "$L/runs.tsv"
  say "$name $tree: exit $rc in $((SECONDS - start)) s (limit $cap s)$([ $rc -eq 124 ] && echo ': ran past its limit, no JSON')"
}
pair() {  # NAME CAP FIRST SECOND: both trees back to back, or neither
  local name=$1 cap=$2 budget=$((compare_end - SECONDS))
  case " ${COMPARE:-spmv spgemm tricount msbfs mcl e2e} " in *" $name "*) ;; *) return ;; esac
  if [ $budget -lt 20 ]; then say "$name: not run, $budget s left before the sweep's share"; status=1; return; fi
  [ $((2 * cap)) -le $budget ] || cap=$((budget / 2))
  run_one "$3" "$name" "$cap"
  run_one "$4" "$name" "$cap"
  save
}
compare() {
  if want sweep; then compare_end=$((DEADLINE - SWEEP_RESERVE)); else compare_end=$((DEADLINE - 15)); fi
  say "compare: real graphs from ${data:-nowhere (generated graphs only)}; until ${compare_end} s"
  # Alternating which tree runs first, so that neither always runs on the warmer machine.
  # Each pair's limit a run; a run past it is killed and its JSON lost, so the limits are ample
  # and the order is the brief's.
  pair spmv 50 base head
  pair spgemm 50 head base
  pair tricount 40 base head
  pair msbfs 35 head base
  pair mcl 25 base head
  pair e2e 30 head base
  echo
  python3 scripts/gpu-compare.py compare "$L" "$T/compare" "baseline $(commit base), HEAD $(commit head) on $gpu, $(nproc) cores" \
    || say "compare table failed"
  echo
}

# ---- (b) the sweep: HEAD's apps, GPU against CPU, graphs of increasing scale, round robin
sweep() {
  [ -x "$HB/bench_end_to_end" ] || { say "sweep: no HEAD bench_end_to_end"; return 1; }
  generate_graphs
  local repeats=${SWEEP_REPEATS:-3} warmup=${SWEEP_WARMUP:-1} run_timeout=${SWEEP_RUN_TIMEOUT:-20}
  declare -A pos wins last finished
  local app progressed s i list json start v cap est
  say "sweep: ${sweep_apps[*]}, median of $repeats after $warmup warm-up, each run at most $run_timeout s"
  while :; do
    progressed=0
    for app in "${sweep_apps[@]}"; do
      [ -n "${finished[$app]:-}" ] && continue
      read -r -a list <<< "${scales[$app]}"
      i=${pos[$app]:-0}
      if [ "$i" -ge ${#list[@]} ]; then finished[$app]=1; continue; fi
      s=${list[$i]}; pos[$app]=$((i + 1))
      [ -f "$G/rmat$s.spgcsr" ] || { say "$app R-MAT $s: no graph"; continue; }
      # The next graph has about twice the links: stop the app where it would not fit.
      est=$((2 * ${last[$app]:-5} + 3))
      if [ "$est" -gt $(($(left) - 15)) ]; then
        say "$app: stopped before R-MAT $s ($(left) s left, the last graph took ${last[$app]:-?} s)"
        finished[$app]=1; continue
      fi
      cap=$(($(left) - 10)); [ $cap -le $((2 * (warmup + repeats) * run_timeout + 30)) ] || cap=$((2 * (warmup + repeats) * run_timeout + 30))
      json=$L/sweep/$app-rmat$s.json
      start=$SECONDS
      timeout -k 5 "$cap" "$HB/bench_end_to_end" --apps "$app" --inputs "$G/rmat$s.spgcsr" --backends gpu,cpu \
        --warmup "$warmup" --repeats "$repeats" --timeout "$run_timeout" --json "$json" > "$L/sweep/$app-rmat$s.log" 2>&1
      last[$app]=$((SECONDS - start))
      v=$(python3 scripts/gpu-compare.py verdict "$json" 2>/dev/null || echo '?')
      say "$app R-MAT $s: ${last[$app]} s, faster: $v"
      # Two graphs in a row on which the GPU wins: the crossover is behind; stop this app.
      if [ "$v" = gpu ]; then wins[$app]=$((${wins[$app]:-0} + 1)); else wins[$app]=0; fi
      [ "${wins[$app]}" -ge 2 ] && finished[$app]=1
      progressed=1
    done
    save
    [ $progressed -eq 1 ] || break
  done
  echo
  local rule=$head_src/apps/common/backend_rule.hpp
  [ -f "$rule" ] || rule=$root/apps/common/backend_rule.hpp
  python3 scripts/gpu-compare.py sweep "$L/sweep" "$G" "$rule" "$T/sweep" "HEAD $(commit head) on $gpu, $(nproc) cores; R-MAT, edge factor 16, .spgcsr" \
    || say "sweep table failed"
  echo
}

# ---- the steps
if want build || want configure; then
  if [ -n "${BASE_BIN:-}${HEAD_BIN:-}" ]; then
    say "BASE_BIN/HEAD_BIN set: no configure or build"
  elif unpack_sources && configure; then
    want build && build
  else
    say "no build: see logs/configure-*.log"
  fi
  save
fi
want compare && compare
save
want sweep && sweep
save
echo "== summary ($SECONDS s; logs and JSON in \$OUT/gpu-compare.tgz)"
[ -f "$T/compare.txt" ] && sed -n '/^summary/,$p' "$T/compare.txt"
[ -f "$T/sweep.txt" ] && sed -n '/^crossovers/,$p' "$T/sweep.txt"
echo "gpu-compare: exit $status (1: a step failed or a benchmark exited non-zero; see logs/steps.log)"
exit $status
