#pragma once
// The readers' guard against a vertex count the entries do not justify. An edge list's vertex
// count is its largest id + 1 and a Matrix Market file's is its size line, and the CSR built
// from either holds n + 1 row offsets (8 bytes each) whatever the entries: 13 bytes of edge
// list ("0 2147483646") would ask for 16 GiB. So a load with n > 64 * (entries + 1) + 2^20
// vertices is refused before anything is allocated for them, unless the caller trusts the
// count (LoadOptions::trust_vertex_count, the apps' --trust-vertex-count). The bound admits
// every sparse graph with a moderate share of isolated vertices, and any graph of up to about
// a million vertices (8 MiB of offsets) whatever its entries.
#include <cstdint>
#include <limits>
#include <string>

namespace spgraph::io::detail {

inline constexpr std::int64_t kVerticesPerEntry = 64;
inline constexpr std::int64_t kVerticesAlways = std::int64_t{1} << 20;

inline bool vertex_count_justified(std::int64_t vertices, std::int64_t entries) {
  if (entries >= std::numeric_limits<std::int64_t>::max() / (2 * kVerticesPerEntry)) return true;
  return vertices <= kVerticesPerEntry * (entries + 1) + kVerticesAlways;
}

// The reason a count is refused, after `what` ("the largest vertex id, 2147483646, makes"):
// "2147483647 vertices for 1 entry, ...; <way_out>".
std::string vertex_count_refusal(const std::string& what, std::int64_t vertices, std::int64_t entries,
                                 const std::string& way_out);

}  // namespace spgraph::io::detail
