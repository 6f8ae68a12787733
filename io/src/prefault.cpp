#include "prefault.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "generator_parallel.hpp"

namespace spgraph::io::detail {
namespace {

// Below this, faulting on first touch is cheap and madvise's own cost is not worth paying.
constexpr std::size_t kPrefaultMinBytes = std::size_t{8} << 20;
// Huge-page sized, so each thread's range maps whole 2 MiB pages.
constexpr std::size_t kPrefaultBlockBytes = std::size_t{4} << 20;

}  // namespace

void prefault(void* data, std::size_t bytes, int threads) {
  if (bytes < kPrefaultMinBytes) return;
  // madvise needs page-aligned ranges: take the whole pages inside the allocation.
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
  if (end <= begin) return;
  ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  const auto blocks = static_cast<std::int64_t>((end - begin + kPrefaultBlockBytes - 1) / kPrefaultBlockBytes);
  parallel_blocks(blocks, threads, [&](std::int64_t b, int) {
    const std::uintptr_t from = begin + static_cast<std::uintptr_t>(b) * kPrefaultBlockBytes;
    const std::uintptr_t to = std::min<std::uintptr_t>(end, from + kPrefaultBlockBytes);
    ::madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
  });
}

}  // namespace spgraph::io::detail
