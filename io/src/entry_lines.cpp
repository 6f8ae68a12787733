#include "entry_lines.hpp"

#include "line_reader.hpp"
#include "text_fields.hpp"

namespace spgraph::io::detail {

EntryLines lines_of_duplicate(const std::string& path, std::string_view comment_chars, const DuplicateEntryError& e) {
  EntryLines out;
  LineReader in(path);
  std::string_view line;
  eid_t pos = 0;
  while (pos <= e.second_position && in.next(line)) {
    if (is_blank_or_comment(line, comment_chars)) continue;
    if (pos == e.first_position) out.first = in.line_number();
    if (pos == e.second_position) out.second = in.line_number();
    ++pos;
  }
  return out;
}

}  // namespace spgraph::io::detail
