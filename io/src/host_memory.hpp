#pragma once
// The readers' large allocations (the entries as read, the CSR arrays), named when they fail.
// A load beyond the memory the process may take (ulimit -v, a container's limit) would end in
// std::bad_alloc, which says neither the file, nor what, nor how much; here it becomes
// spgraph::Error "FILE: out of host memory allocating 16.0 GiB (17179869196 bytes) for the CSR
// arrays of 2147483647 vertices and 1 entry", which the user can weigh against the limit.
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace spgraph::io::detail {

// Throws the Error above. `what` follows "for ".
[[noreturn]] void throw_out_of_host_memory(const std::string& path, std::uint64_t bytes, const std::string& what);

// Runs step(), which allocates about `bytes` for `what`; its failure to allocate becomes the
// Error above. std::length_error is a request beyond what a vector can hold at all: the same
// thing to the user. `what` is built by the caller for every call: use it per array or per
// block, not per entry.
template <class Step>
decltype(auto) allocating(const std::string& path, std::uint64_t bytes, const std::string& what, Step&& step) {
  try {
    return step();
  } catch (const std::bad_alloc&) {
    throw_out_of_host_memory(path, bytes, what);
  } catch (const std::length_error&) {
    throw_out_of_host_memory(path, bytes, what);
  }
}

// The bytes of the CSR arrays of `vertices` rows and `entries` entries: 8-byte row offsets,
// 4-byte columns and, when valued, 8-byte values (Csr<double>).
inline std::uint64_t csr_bytes(std::int64_t vertices, std::int64_t entries, bool valued) {
  return 8 * static_cast<std::uint64_t>(vertices + 1) + (valued ? 12 : 4) * static_cast<std::uint64_t>(entries);
}

// "the CSR arrays of 5 vertices and 1 entry"
std::string csr_arrays(std::int64_t vertices, std::int64_t entries);

}  // namespace spgraph::io::detail
