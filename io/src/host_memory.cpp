#include "host_memory.hpp"

#include <cstdio>

#include "spgraph/error.hpp"

namespace spgraph::io::detail {

void throw_out_of_host_memory(const std::string& path, std::uint64_t bytes, const std::string& what) {
  char size[64];
  std::snprintf(size, sizeof size, "%.1f GiB (%llu bytes)", static_cast<double>(bytes) / double(1ull << 30),
                static_cast<unsigned long long>(bytes));
  if (bytes < (1ull << 30))
    std::snprintf(size, sizeof size, "%.1f MiB (%llu bytes)", static_cast<double>(bytes) / double(1ull << 20),
                  static_cast<unsigned long long>(bytes));
  throw Error(path + ": out of host memory allocating " + size + " for " + what);
}

std::string csr_arrays(std::int64_t vertices, std::int64_t entries) {
  return "the CSR arrays of " + std::to_string(vertices) + (vertices == 1 ? " vertex" : " vertices") + " and " +
         std::to_string(entries) + (entries == 1 ? " entry" : " entries");
}

}  // namespace spgraph::io::detail
