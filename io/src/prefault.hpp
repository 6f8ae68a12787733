#pragma once
// Fresh memory for large arrays that are about to be overwritten. A new allocation's pages are
// mapped by page faults on first touch, and std::vector's resize touches them all on one
// thread while zero-filling; here the pages are faulted in first by several threads
// (MADV_POPULATE_WRITE over disjoint ranges, huge pages requested), so the zero-fill that
// Csr's std::vector insists on then runs at memset speed.
#include <cstddef>
#include <vector>

namespace spgraph::io::detail {

// Maps the pages of [data, data + bytes) with `threads` threads. Best effort: a kernel without
// MADV_POPULATE_WRITE (before Linux 5.14) leaves the faults to the first writer.
void prefault(void* data, std::size_t bytes, int threads);

// v.size() becomes n, elements zero; its storage prefaulted when it is large.
template <class T>
void resize_prefaulted(std::vector<T>& v, std::size_t n, int threads) {
  v.clear();
  v.reserve(n);
  prefault(v.data(), n * sizeof(T), threads);
  v.resize(n);
}

}  // namespace spgraph::io::detail
