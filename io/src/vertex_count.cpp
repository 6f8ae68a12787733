#include "vertex_count.hpp"

namespace spgraph::io::detail {

std::string vertex_count_refusal(const std::string& what, std::int64_t vertices, std::int64_t entries,
                                 const std::string& way_out) {
  const std::int64_t offsets_mib = ((vertices + 1) * 8) >> 20;  // eid_t row offsets
  return what + " " + std::to_string(vertices) + " vertices for " + std::to_string(entries) +
         (entries == 1 ? " entry" : " entries") + ", more than the " + std::to_string(kVerticesPerEntry) +
         " per entry plus " + std::to_string(kVerticesAlways) + " that are loaded unasked (" +
         std::to_string(offsets_mib) + " MiB of row offsets alone); " + way_out;
}

}  // namespace spgraph::io::detail
