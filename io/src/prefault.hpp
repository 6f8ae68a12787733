#pragma once
// Fresh memory for large arrays that are about to be overwritten. A new allocation's pages are
// mapped by page faults on first touch, and std::vector's resize touches them all on one
// thread while zero-filling: on the development machine that cost more than reading the file.
// Here the pages are faulted in first by several threads (MADV_POPULATE_WRITE over disjoint
// ranges) as huge pages where the kernel has them (MADV_HUGEPAGE: one fault per 2 MiB), so the
// zero-fill that Csr's std::vector insists on then runs at memset speed.
#include <cstddef>
#include <span>
#include <vector>

namespace spgraph::io::detail {

// Maps the pages of each range with `threads` threads. Best effort: a kernel without
// MADV_POPULATE_WRITE (before Linux 5.14) leaves the faults to the first writer.
void prefault(const std::vector<std::span<char>>& ranges, int threads);

// The storage that v.reserve(n) has allocated, as bytes.
template <class T>
std::span<char> reserved_bytes(std::vector<T>& v, std::size_t n) {
  v.clear();
  v.reserve(n);
  return {reinterpret_cast<char*>(v.data()), n * sizeof(T)};
}

}  // namespace spgraph::io::detail
