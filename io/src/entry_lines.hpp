#pragma once
// For readers whose every non-comment line is one Coo entry (edge lists, label files):
// turning a DuplicateEntryError's Coo positions back into file lines by reading the file
// again, so the normal path keeps no per-entry line table.
#include <string>
#include <string_view>

#include "spgraph/graph_ops.hpp"

namespace spgraph::io::detail {

struct EntryLines {
  long long first = 0, second = 0;
};
EntryLines lines_of_duplicate(const std::string& path, std::string_view comment_chars, const DuplicateEntryError& e);

}  // namespace spgraph::io::detail
