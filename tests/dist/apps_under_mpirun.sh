#!/usr/bin/env bash
# The apps under mpirun -n P against the same apps as one process, on bundled graphs (ctest
# runs it at P = 1..4): PageRank's ranks within 1e-9, triangle counts per vertex, BFS levels and
# MCL's clusters identical; text read by rows (each rank its share: Matrix Market, edge lists,
# an undirected one, --undirected, gzip); a malformed line, a failure on every rank
# and a bad --grid end the job with a non-zero exit, the message once and no output file; GPU
# ranks where the host has a GPU a rank, else their refusal.
#   tests/dist/apps_under_mpirun.sh BUILD_DIR SOURCE_DIR P MPIEXEC
set -u
build=$1 source=$2 p=$3 mpiexec=$4
# Shared memory and loopback only; one GraphBLAS thread a rank (the ranks share the cores).
mpirun=("$mpiexec" --oversubscribe --allow-run-as-root --mca btl self,vader --mca oob_tcp_if_include lo
        -x OMP_NUM_THREADS=1 -n "$p")
work=$(mktemp -d /tmp/spgraph-apps-mpi.XXXX)
trap 'rm -rf "$work"' EXIT
failed=0 passed=0
check() {  # NAME then a command that succeeds when the check holds
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); else echo "FAILED: $name (P=$p)"; failed=$((failed + 1)); fi
}
run_both() {  # APP OUTPUT_NAME ARGS...: the app alone, then under mpirun, each writing its -o file
  local app=$1 out=$2; shift 2
  "$build/$app" "$@" -o "$work/$out.one" >"$work/$out.one.log" 2>&1 || { echo "$app alone failed:"; cat "$work/$out.one.log"; return 1; }
  "${mpirun[@]}" "$build/$app" "$@" -o "$work/$out.many" >"$work/$out.many.log" 2>&1 || { echo "$app under mpirun failed:"; cat "$work/$out.many.log"; return 1; }
}
within_1e9() {  # two 'vertex<TAB>rank' files
  paste "$1" "$2" | awk -F'\t' '$1 != $3 { bad = 1 } { d = $2 - $4; if (d < 0) d = -d; if (d > 1e-9) bad = 1 } END { exit bad }'
}
small=$source/datasets/small
for g in karate.mtx west0067.mtx netscience.mtx; do
  check "pagerank $g" run_both pagerank "pr-$g" "$small/$g"
  check "pagerank $g ranks within 1e-9" within_1e9 "$work/pr-$g.one" "$work/pr-$g.many"
done
for g in karate.mtx bcsstk13.mtx dolphins.mtx; do
  check "tricount $g" run_both tricount "tc-$g" "$small/$g"
  check "tricount $g per-vertex counts" cmp -s "$work/tc-$g.one" "$work/tc-$g.many"
  check "tricount $g total" grep -q "^triangles: $(sed -n 's/^triangles: \([0-9]*\).*/\1/p' "$work/tc-$g.one.log") " "$work/tc-$g.many.log"
done
for g in karate.mtx netscience.mtx; do
  check "msbfs $g" run_both msbfs "bfs-$g" "$small/$g" --random 5 --seed 3
  check "msbfs $g levels" cmp -s "$work/bfs-$g.one" "$work/bfs-$g.many"
done
# A .spgcsr, which each rank reads by rows (its grid row's block alone).
"$build/spgraph-convert" "$small/netscience.mtx" "$work/netscience.spgcsr" >/dev/null
check "pagerank netscience.spgcsr" run_both pagerank "pr-cache" "$work/netscience.spgcsr"
check "pagerank netscience.spgcsr ranks within 1e-9" within_1e9 "$work/pr-cache.one" "$work/pr-cache.many"
check "tricount netscience.spgcsr" run_both tricount "tc-cache" "$work/netscience.spgcsr"
check "tricount netscience.spgcsr per-vertex counts" cmp -s "$work/tc-cache.one" "$work/tc-cache.many"
check "tricount netscience.spgcsr counts 3764" grep -q "^triangles: 3764 " "$work/tc-cache.many.log"
check "msbfs netscience.spgcsr" run_both msbfs "bfs-cache" "$work/netscience.spgcsr" --random 4 --seed 5
check "msbfs netscience.spgcsr levels" cmp -s "$work/bfs-cache.one" "$work/bfs-cache.many"
# Text read in parallel (io::read_text_rows): each rank parses its share of the file's lines and
# keeps its rows, so no rank holds the whole graph; the "load:" line says so.
check "pagerank karate.mtx read by rows" grep -q "^load: by rows, each rank parsed its share" "$work/pr-karate.mtx.many.log"
check "tricount netscience.spgcsr read by rows" grep -q "^load: by rows, each rank read its rows of the cache" "$work/tc-cache.many.log"
# An edge list with weights, and one whose SNAP header says undirected (its links mirrored).
"$build/spgraph-convert" "$small/west0067.mtx" "$work/west0067.tsv" >/dev/null
check "pagerank west0067.tsv (an edge list)" run_both pagerank "pr-tsv" "$work/west0067.tsv"
check "pagerank west0067.tsv ranks within 1e-9" within_1e9 "$work/pr-tsv.one" "$work/pr-tsv.many"
check "pagerank west0067.tsv read by rows" grep -q "^load: by rows, each rank parsed its share" "$work/pr-tsv.many.log"
"$build/spgraph-convert" "$small/netscience.mtx" "$work/netscience.tsv" >/dev/null
{ echo "# Undirected graph: netscience, each pair once"; awk -F'\t' '$1 < $2' "$work/netscience.tsv"; } >"$work/netscience-undirected.txt"
check "tricount of an undirected edge list" run_both tricount "tc-undirected" "$work/netscience-undirected.txt"
check "tricount of an undirected edge list per-vertex counts" cmp -s "$work/tc-undirected.one" "$work/tc-undirected.many"
check "tricount of an undirected edge list counts 3764" grep -q "^triangles: 3764 " "$work/tc-undirected.many.log"
check "tricount of an undirected edge list says mirrored" grep -q "links mirrored: the file's header says undirected" "$work/tc-undirected.many.log"
# --undirected mirrors the rows across the ranks, from text and from a .spgcsr alike.
"$build/spgraph-convert" "$small/west0067.mtx" "$work/west0067.spgcsr" >/dev/null
for g in "$small/west0067.mtx" "$work/west0067.spgcsr"; do
  name=undirected-$(basename "$g")
  check "pagerank $(basename "$g") --undirected" run_both pagerank "$name" "$g" --undirected
  check "pagerank $(basename "$g") --undirected within 1e-9" within_1e9 "$work/$name.one" "$work/$name.many"
done
# A gzip-compressed file: every rank inflates it and keeps only its share, so it is read by rows too.
gzip -c "$small/netscience.mtx" >"$work/netscience.mtx.gz"
check "pagerank netscience.mtx.gz" run_both pagerank "pr-gz" "$work/netscience.mtx.gz"
check "pagerank netscience.mtx.gz ranks within 1e-9" within_1e9 "$work/pr-gz.one" "$work/pr-gz.many"
check "pagerank netscience.mtx.gz read by rows" grep -q "^load: by rows, each rank parsed its share" "$work/pr-gz.many.log"
# A malformed line near the end, which the last rank parses: the one-process message (with its
# line in the whole file), printed once, a non-zero exit and no output file.
{ sed -n '1,200p' "$work/west0067.tsv"; echo "3 oops"; sed -n '201,$p' "$work/west0067.tsv"; } >"$work/bad.tsv"
"$build/pagerank" "$work/bad.tsv" >/dev/null 2>"$work/bad.one.log"
"${mpirun[@]}" "$build/pagerank" "$work/bad.tsv" -o "$work/bad.out" >"$work/bad.many.log" 2>&1
status=$?
check "a malformed line fails the job" test "$status" -ne 0
check "the malformed line's message is the one process's" grep -qxF "$(cat "$work/bad.one.log")" "$work/bad.many.log"
check "the malformed line's message is printed once" test "$(grep -c 'bad.tsv:201:' "$work/bad.many.log")" -eq 1
check "no output file after a malformed line" test ! -e "$work/bad.out"
check "mcl karate" run_both mcl "mcl-karate" "$small/karate.mtx" -I 2
check "mcl karate clusters" cmp -s "$work/mcl-karate.one" "$work/mcl-karate.many"
# MCL under mpirun gives the mcl program's own clusters (datasets/mcl, written by mcl 22-282; hep-th
# is a real weighted co-authorship graph of 8,361 vertices),
# compared as sets: each cluster's members sorted, then the clusters.
as_sets() { perl -ne 'chomp; print join("\t", sort { $a <=> $b } split /\t/), "\n"' "$1" | sort; }
same_clusters() { cmp -s <(as_sets "$1") <(as_sets "$2"); }
for ref in "$source"/datasets/mcl/{karate,dolphins,chesapeake,polbooks,netscience,hep-th}.I*.clusters; do
  [ -f "$ref" ] || continue
  name=$(basename "$ref" .clusters) graph=${name%%.I*} i=${name##*.I}
  inflation=${i:0:1}.${i:1}
  "${mpirun[@]}" "$build/mcl" "$small/$graph.mtx" -I "$inflation" -o "$work/$name.many" >"$work/$name.log" 2>&1
  check "mcl $graph -I $inflation is the mcl program's clustering" same_clusters "$ref" "$work/$name.many"
done
# The expansion in phases of rows (dist/pruned_product.hpp): at P = 2 a 1M budget leaves 15 of
# hep-th's 20 iterates small enough to expand on replicated operands and cuts the 5 larger into
# up to about 1,600 phases, with the same clusters.
"${mpirun[@]}" "$build/mcl" "$small/hep-th.mtx" -I 2 --memory-budget 1M -o "$work/hep-th.phased" >"$work/hep-th.phased.log" 2>&1
check "mcl hep-th -I 2 in phases (--memory-budget 1M) is the mcl program's clustering" \
  same_clusters "$source/datasets/mcl/hep-th.I20.clusters" "$work/hep-th.phased"
# Every rank fails to read the file: the job ends, non-zero, with the message, and no -o file.
"${mpirun[@]}" "$build/pagerank" "$work/absent.mtx" -o "$work/never.tsv" >"$work/absent.log" 2>&1
status=$?
check "a missing file fails the job" test "$status" -ne 0
check "the failure names the file" grep -q "cannot open $work/absent.mtx" "$work/absent.log"
check "no output file after a failure" test ! -e "$work/never.tsv"
"${mpirun[@]}" "$build/tricount" "$small/karate.mtx" --grid "$((p + 1))x1" >"$work/grid.log" 2>&1
status=$?
check "a --grid of the wrong size is a usage error" test "$status" -ne 0
check "the usage error says why" grep -q "R\*C must equal it" "$work/grid.log"
# GPU ranks (--backend gpu: a GPU a rank). Where this host has a GPU for each of the P ranks, the
# apps on GPU ranks give the one-process answers and mcl the mcl program's clusters; elsewhere
# the job is refused, once, with the reason, exit 1 and no output file.
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "${gpus:-0}" -ge "$p" ]; then
  on_gpus() {  # APP OUTPUT_NAME ARGS...
    local app=$1 out=$2; shift 2
    "${mpirun[@]}" "$build/$app" "$@" --backend gpu -o "$work/$out.gpu" >"$work/$out.gpu.log" 2>&1 || { echo "$app on GPU ranks failed:"; cat "$work/$out.gpu.log"; return 1; }
  }
  check "pagerank on GPU ranks" on_gpus pagerank pr-netscience.mtx "$small/netscience.mtx"
  check "pagerank on GPU ranks says so" grep -q "^backend: distributed over $p ranks\? on a .* grid, each gpu (" "$work/pr-netscience.mtx.gpu.log"
  check "pagerank on GPU ranks within 1e-9" within_1e9 "$work/pr-netscience.mtx.one" "$work/pr-netscience.mtx.gpu"
  check "tricount on GPU ranks" on_gpus tricount tc-bcsstk13.mtx "$small/bcsstk13.mtx"
  check "tricount on GPU ranks per-vertex counts" cmp -s "$work/tc-bcsstk13.mtx.one" "$work/tc-bcsstk13.mtx.gpu"
  check "msbfs on GPU ranks" on_gpus msbfs bfs-netscience.mtx "$small/netscience.mtx" --random 5 --seed 3
  check "msbfs on GPU ranks levels" cmp -s "$work/bfs-netscience.mtx.one" "$work/bfs-netscience.mtx.gpu"
  check "mcl on GPU ranks" on_gpus mcl mcl-dolphins "$small/dolphins.mtx" -I 2
  check "mcl on GPU ranks is the mcl program's clustering" same_clusters "$source/datasets/mcl/dolphins.I20.clusters" "$work/mcl-dolphins.gpu"
else
  "${mpirun[@]}" "$build/pagerank" "$small/karate.mtx" --backend gpu -o "$work/refused.tsv" >"$work/refused.log" 2>&1
  status=$?
  check "--backend gpu without a GPU a rank fails" test "$status" -eq 1
  check "the refusal says why, once" test "$(grep -c 'needs a GPU for every rank' "$work/refused.log")" -eq 1
  check "no output file after the refusal" test ! -e "$work/refused.tsv"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
