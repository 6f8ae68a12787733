#!/bin/sh
# Regenerates every reference clustering in datasets/mcl/ with van Dongen's mcl program
# (Debian package mcl 22-282), from the Matrix Market graphs of datasets/small/, the manual's
# example cathat.abc and the real graphs of ../shared/datasets/real/. README.md beside this
# script says what each file is; this script is its provenance.
#
#   datasets/mcl/make-references.sh            # every case (the real graphs take minutes)
#   datasets/mcl/make-references.sh --small    # all but the two large real graphs
#
# Prints one Markdown table row per run (case, inflation, clusters, iterations, seconds) for
# the README. mcl's stderr goes to $MCL_LOG_DIR (default: a temporary folder, removed at the
# end), never into the repository. The .abc files made from the .mtx and edge-list files are
# temporary too: they follow from those files by the conversions below.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
small="$here/../small"
real="${SPGRAPH_SHARED_DATASETS:-$here/../../../shared/datasets}/real"
version="22-282"
threads=2

# The results are mcl 22-282's; another version may cluster differently.
found=$(mcl --version 2>/dev/null | head -n 1 || true)
if [ "$found" != "mcl $version" ]; then
  echo "make-references.sh: need mcl $version (Debian package mcl); found '${found:-no mcl}'" >&2
  exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
logs="${MCL_LOG_DIR:-$work}"
mkdir -p "$logs"

# Matrix Market coordinate file -> abc: one line "row<TAB>col<TAB>weight" per stored entry,
# labels the 1-based ids as written in the file (what spgraph's loader calls the vertices),
# weight 1 for pattern files. A symmetric file's stored triangle suffices: mcl mirrors every
# edge. Self-loops are kept (mcl drops input loops itself). A vertex in no entry would be
# missing from the abc, so it gets a loop line "k<TAB>k<TAB>1" to exist for mcl, and is
# reported on stderr.
mtx_to_abc() {
  awk -v name="$1" '
    BEGIN { OFS = "\t"; state = 0 }
    NR == 1 {
      if (tolower($0) !~ /^%%matrixmarket[ \t]+matrix[ \t]+coordinate[ \t]/) {
        print name ": not a coordinate Matrix Market file" > "/dev/stderr"; exit 2
      }
      pattern = (tolower($0) ~ /[ \t]pattern([ \t]|$)/)
      next
    }
    /^%/ || /^[ \t]*$/ { next }
    state == 0 {
      n = $1 + 0
      if ($1 != $2) { print name ": not square" > "/dev/stderr"; exit 2 }
      state = 1; next
    }
    {
      w = pattern ? 1 : $3
      print $1, $2, w
      seen[$1 + 0] = 1; seen[$2 + 0] = 1
    }
    END {
      missing = 0
      for (k = 1; k <= n; k++)
        if (!(k in seen)) { print k, k, 1; missing++ }
      if (missing) print name ": " missing " isolated vertices given loop lines" > "/dev/stderr"
    }'
}

# SNAP edge list (gzip) -> abc: "from<TAB>to<TAB>1", labels the file's ids, '#' lines skipped.
edges_to_abc() {
  gzip -dc "$1" | awk 'BEGIN { OFS = "\t" } /^#/ || /^[ \t]*$/ { next } { print $1, $2, 1 }'
}

# run_mcl NAME ABC INFLATION: mcl with -te 2; writes NAME.I<tag>.clusters here (gzip -n, so
# the same clustering gives the same bytes, when over 200 KB) and prints the table row.
run_mcl() {
  name=$1 abc=$2 infl=$3
  tag=$(echo "$infl" | tr -d .)
  base="$name.I$tag.clusters"
  log="$logs/$base.stderr"
  out="$work/$base"
  start=$(date +%s.%N)
  mcl "$abc" --abc -I "$infl" -te "$threads" -o "$out" 2> "$log"
  end=$(date +%s.%N)
  clusters=$(sed -n 's/^\[mcl\] \([0-9][0-9]*\) clusters found$/\1/p' "$log")
  iterations=$(awk '$1 ~ /^[0-9]+$/ && NF >= 8 { last = $1 } END { print last }' "$log")
  if [ "$(wc -l < "$out")" -ne "$clusters" ]; then
    echo "make-references.sh: $base: mcl reported $clusters clusters, wrote $(wc -l < "$out")" >&2
    exit 1
  fi
  rm -f "$here/$base" "$here/$base.gz"
  if [ "$(wc -c < "$out")" -gt 204800 ]; then
    gzip -n -9 -c "$out" > "$here/$base.gz"
    base="$base.gz"
  else
    cp "$out" "$here/$base"
  fi
  seconds=$(echo "$start $end" | awk '{ printf "%.2f", $2 - $1 }')
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$infl" "$clusters" "$iterations" "$seconds" "$base"
}

printf '| case | -I | clusters | iterations | seconds | file |\n|---|---|---|---|---|---|\n'
for g in karate dolphins polbooks chesapeake hep-th; do
  mtx_to_abc "$g.mtx" < "$small/$g.mtx" > "$work/$g.abc"
  for infl in 1.4 2.0 3.0; do run_mcl "$g" "$work/$g.abc" "$infl"; done
done
for infl in 1.4 2.0 3.0; do run_mcl cathat "$here/cathat.abc" "$infl"; done
# netscience: the small real graph of the CPU backend's agreement test (tests/mcl), at 2.0 only.
mtx_to_abc netscience.mtx < "$small/netscience.mtx" > "$work/netscience.abc"
run_mcl netscience "$work/netscience.abc" 2.0

if [ "${1:-}" = "--small" ]; then exit 0; fi
for g in email-Enron cit-HepPh; do
  if [ ! -f "$real/$g.txt.gz" ]; then
    echo "make-references.sh: $real/$g.txt.gz is absent (set SPGRAPH_SHARED_DATASETS)" >&2
    exit 1
  fi
  edges_to_abc "$real/$g.txt.gz" > "$work/$g.abc"
  run_mcl "$g" "$work/$g.abc" 2.0
done
