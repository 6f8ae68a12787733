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
// A multiple of the huge page size, so each task maps whole 2 MiB pages.
constexpr std::uintptr_t kPrefaultTaskBytes = std::uintptr_t{4} << 20;

struct Task {
  std::uintptr_t begin, end;
};

}  // namespace

void prefault(const std::vector<std::span<char>>& ranges, int threads) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  std::vector<Task> tasks;
  for (const auto& r : ranges) {
    if (r.size() < kPrefaultMinBytes) continue;
    // madvise needs page-aligned ranges: take the whole pages inside the allocation.
    const auto begin = (reinterpret_cast<std::uintptr_t>(r.data()) + page - 1) / page * page;
    const auto end = (reinterpret_cast<std::uintptr_t>(r.data()) + r.size()) / page * page;
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    for (std::uintptr_t from = begin; from < end; from += kPrefaultTaskBytes)
      tasks.push_back({from, std::min(end, from + kPrefaultTaskBytes)});
  }
  parallel_blocks(static_cast<std::int64_t>(tasks.size()), threads, [&](std::int64_t t, int) {
    ::madvise(reinterpret_cast<void*>(tasks[t].begin), tasks[t].end - tasks[t].begin, MADV_POPULATE_WRITE);
  });
}

}  // namespace spgraph::io::detail
