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

// The line (1-based, within `text`) of the n-th (1-based) line of `text` that is neither blank
// nor a comment (a line starting with one of comment_chars); past the last one, the line count.
long long nth_entry_line(std::string_view text, long long n, std::string_view comment_chars);

}  // namespace spgraph::io::detail
