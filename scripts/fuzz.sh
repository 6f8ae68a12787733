#!/usr/bin/env bash
# The readers' fuzz harnesses (tests/fuzz/: libFuzzer with ASan and UBSan, one per reader;
# tests/fuzz/README.md says what they check and how to read a finding).
#   scripts/fuzz.sh check                      exit 0 when clang++ can build a libFuzzer harness
#   scripts/fuzz.sh build                      build the harnesses (incremental)
#   scripts/fuzz.sh run [SECONDS] [READER...]  build, then fuzz each reader SECONDS (default 30),
#                                              one after another; exit 1 if any found something
#   scripts/fuzz.sh merge [READER...]          minimise tests/fuzz/corpus/<reader>/ together
#                                              with what earlier runs found
# Readers: the fuzz_<reader>.cpp in tests/fuzz/ (matrix_market, edge_list, abc, csr_cache).
# Environment: FUZZ_BUILD_DIR (default build-fuzz), FUZZ_CXX (default clang++), JOBS (build).
# A run keeps what it finds in FUZZ_BUILD_DIR: new inputs in corpus/<reader>/ (the committed
# corpus is only read), reproducers in crashes/<reader>/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
cxx=${FUZZ_CXX:-clang++}
fuzz_dir=$root/tests/fuzz
# Per input: 10 s and 2 GiB at most (a reader that needs more for 4 KiB of input is a finding);
# inputs up to 4 KiB (a gzip stream among them can still inflate to megabytes).
limits=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=4096)

readers() {
  if (($#)); then printf '%s\n' "$@"; return; fi
  for src in "$fuzz_dir"/fuzz_*.cpp; do r=$(basename "$src" .cpp); echo "${r#fuzz_}"; done
}

check() {
  local tmp rc=0
  tmp=$(mktemp -d)
  echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$tmp/probe.cpp"
  "$cxx" -fsanitize=fuzzer,address,undefined -fopenmp "$tmp/probe.cpp" -o "$tmp/probe" >/dev/null 2>&1 || rc=1
  rm -rf "$tmp"
  return $rc
}

build() {
  check || { echo "fuzz.sh: $cxx cannot build a libFuzzer harness (Debian: clang, libclang-rt-14-dev, libomp-dev)" >&2; exit 1; }
  mkdir -p "$build"
  # Under a lock: ctest starts several fuzz runs at once, each making sure it is built.
  (
    flock 9
    # Configured once; ninja re-runs CMake when tests/fuzz/CMakeLists.txt or a glob changes.
    [ -f "$build/build.ninja" ] ||
      cmake -S "$fuzz_dir" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE= >/dev/null
    cmake --build "$build" -j"${JOBS:-$(nproc)}"
  ) 9>"$build/.build-lock"
}

run() {
  local seconds=${1:-30} failed=()
  shift || true
  build
  # Leaks count as findings; UB stops at once with its stack.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  for r in $(readers "$@"); do
    mkdir -p "$build/corpus/$r" "$build/crashes/$r"
    echo "== fuzz_$r for $seconds s"
    if ! "$build/fuzz_$r" "${limits[@]}" -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="$build/crashes/$r/" "$build/corpus/$r" "$fuzz_dir/corpus/$r"; then
      failed+=("$r")
      echo "fuzz.sh: fuzz_$r found a problem; the reproducer is in $build/crashes/$r/ (run it again:" \
           "$build/fuzz_$r FILE); keep it under tests/fuzz/crashes/$r/ when reporting it" >&2
    fi
  done
  ((${#failed[@]} == 0)) || { echo "fuzz.sh: findings in: ${failed[*]}" >&2; exit 1; }
}

merge() {
  build
  for r in $(readers "$@"); do
    local merged
    merged=$(mktemp -d)
    mkdir -p "$build/corpus/$r"
    # Keeps the inputs that reach new code, not those that only change how often it runs:
    # fewer and smaller files, the same code reached.
    "$build/fuzz_$r" "${limits[@]}" -merge=1 -use_counters=0 "$merged" "$fuzz_dir/corpus/$r" "$build/corpus/$r"
    rm -f "$fuzz_dir/corpus/$r"/*
    cp "$merged"/* "$fuzz_dir/corpus/$r"/
    rm -rf "$merged"
    echo "== corpus/$r: $(ls "$fuzz_dir/corpus/$r" | wc -l) files, $(cat "$fuzz_dir/corpus/$r"/* | wc -c) bytes"
  done
}

mode=${1:-}
shift || true
case "$mode" in
  check) check ;;
  build) build ;;
  run) run "$@" ;;
  merge) merge "$@" ;;
  *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
