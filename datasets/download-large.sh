#!/usr/bin/env bash
# Downloads the two large graphs spgraph targets, which are too big for the repository:
#   wb-edu       SuiteSparse Matrix Collection, Gleich/wb-edu: Matrix Market, pattern,
#                9,845,725 x 9,845,725, 57,156,537 entries  -> DIR/wb-edu.mtx
#   cit-Patents  SNAP: edge list, 3,774,768 vertices, 16,518,948 edges -> DIR/cit-Patents.txt.gz
# Both load with io::load_graph (or any app) as they are.
#
#   datasets/download-large.sh [DIR]      (DIR defaults to datasets/large beside this script)
#
# A file already in DIR that checks out is not downloaded again. Each download is checked
# against the size the server announces, then by content: the graph's dimensions and entry
# count. About 1.3 GB of disk while wb-edu is unpacked, 1 GB after.
set -euo pipefail

dir=${1:-"$(cd "$(dirname "$0")" && pwd)/large"}
wb_urls=(https://suitesparse-collection-website.herokuapp.com/MM/Gleich/wb-edu.tar.gz
         https://sparse.tamu.edu/MM/Gleich/wb-edu.tar.gz)
patents_url=https://snap.stanford.edu/data/cit-Patents.txt.gz

say() { echo "download-large: $*" >&2; }
die() { say "$*"; exit 1; }

if command -v curl >/dev/null; then
  fetcher=curl
elif command -v wget >/dev/null; then
  fetcher=wget
else
  die "neither curl nor wget is installed; install one of them (apt-get install curl)"
fi

# The size the server announces for URL (after redirects), empty if it announces none.
announced_size() {
  local headers
  if [ "$fetcher" = curl ]; then
    headers=$(curl -sSIL --max-time 60 "$1" 2>/dev/null) || return 0
  else
    headers=$(wget -q -S --spider --timeout=60 "$1" 2>&1) || return 0
  fi
  printf '%s\n' "$headers" | tr -d '\r' | awk 'tolower($1) == "content-length:" { n = $2 } END { if (n) print n }'
}

# Downloads URL to DEST (through DEST.part, so an interrupted download never looks complete)
# and checks the byte count against the announced size.
fetch() {
  local url=$1 dest=$2 host status=0 expected actual
  host=$(printf '%s\n' "$url" | awk -F/ '{ print $3 }')
  say "downloading $url"
  if [ "$fetcher" = curl ]; then
    curl -fL --retry 3 --connect-timeout 30 -o "$dest.part" "$url" || status=$?
  else
    wget --tries=3 --timeout=30 -O "$dest.part" "$url" || status=$?
  fi
  if [ "$status" -ne 0 ]; then
    rm -f "$dest.part"
    # curl: 6 = host not resolved, 7 = no connection; wget: 4 = network failure
    if { [ "$fetcher" = curl ] && { [ "$status" -eq 6 ] || [ "$status" -eq 7 ]; }; } ||
       { [ "$fetcher" = wget ] && [ "$status" -eq 4 ]; }; then
      say "cannot reach $host: this machine looks offline. Download $url on a machine with"
      say "internet access and copy it into $dir, then run this script again to check it."
    else
      say "$fetcher failed (exit status $status) on $url"
    fi
    return 1
  fi
  expected=$(announced_size "$url")
  actual=$(wc -c <"$dest.part" | tr -d ' ')
  if [ -n "$expected" ] && [ "$expected" != "$actual" ]; then
    rm -f "$dest.part"
    say "$url: got $actual bytes, the server announced $expected; try again"
    return 1
  fi
  mv "$dest.part" "$dest"
}

# wb-edu.mtx: the Matrix Market banner, the size line and one line per entry.
check_wb_edu() {
  local file=$1 banner size entries
  banner=$(head -n 1 "$file")
  case "$banner" in
    "%%MatrixMarket matrix coordinate "*) ;;
    *) say "$file: unexpected header '$banner'"; return 1 ;;
  esac
  size=$(grep -v -m 1 '^%' "$file" | tr -s ' \t' ' ' | sed 's/^ //; s/ $//')
  [ "$size" = "9845725 9845725 57156537" ] || { say "$file: size line '$size', expected '9845725 9845725 57156537'"; return 1; }
  entries=$(grep -vc '^%' "$file")
  [ "$entries" -eq 57156538 ] || { say "$file: $((entries - 1)) entries, expected 57156537 (truncated?)"; return 1; }
}

# cit-Patents.txt.gz: intact gzip, SNAP's header, one line per edge.
check_cit_patents() {
  local file=$1 header edges
  gzip -t "$file" 2>/dev/null || { say "$file: not a complete gzip file"; return 1; }
  header=$(gzip -dc "$file" | head -n 5 || true)  # head closes the pipe early: not a failure
  case "$header" in
    *"Nodes: 3774768 Edges: 16518948"*) ;;
    *) say "$file: SNAP header 'Nodes: 3774768 Edges: 16518948' not found"; return 1 ;;
  esac
  edges=$(gzip -dc "$file" | grep -vc '^#')
  [ "$edges" -eq 16518948 ] || { say "$file: $edges edges, expected 16518948"; return 1; }
}

get_wb_edu() {
  local mtx=$dir/wb-edu.mtx tarball=$dir/wb-edu.tar.gz url
  if [ -f "$mtx" ] && check_wb_edu "$mtx"; then
    say "$mtx is already there and checks out"
    return 0
  fi
  if ! { [ -f "$tarball" ] && gzip -t "$tarball" 2>/dev/null; }; then
    for url in "${wb_urls[@]}"; do
      fetch "$url" "$tarball" && break
    done
    [ -f "$tarball" ] || return 1
  fi
  say "unpacking $tarball"
  tar -xzf "$tarball" -C "$dir" wb-edu/wb-edu.mtx || { say "$tarball: no wb-edu/wb-edu.mtx inside"; return 1; }
  mv "$dir/wb-edu/wb-edu.mtx" "$mtx" && rmdir "$dir/wb-edu" || return 1
  check_wb_edu "$mtx" || { rm -f "$mtx"; return 1; }
  rm -f "$tarball"
  say "$mtx: ok"
}

get_cit_patents() {
  local gz=$dir/cit-Patents.txt.gz
  if [ -f "$gz" ] && check_cit_patents "$gz"; then
    say "$gz is already there and checks out"
    return 0
  fi
  rm -f "$gz"
  fetch "$patents_url" "$gz" || return 1
  check_cit_patents "$gz" || { rm -f "$gz"; return 1; }
  say "$gz: ok"
}

mkdir -p "$dir"
failed=0
get_wb_edu || failed=1
get_cit_patents || failed=1
[ "$failed" -eq 0 ] || die "not all graphs are in $dir (see above)"
say "done: $dir/wb-edu.mtx and $dir/cit-Patents.txt.gz"
