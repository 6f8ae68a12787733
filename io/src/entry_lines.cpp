#include "entry_lines.hpp"

#include "line_reader.hpp"
#include "text_chunk.hpp"
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

long long nth_entry_line(std::string_view text, long long n, std::string_view comment_chars) {
  TextChunk lines(text);
  std::string_view line;
  while (lines.next(line))
    if (!is_blank_or_comment(line, comment_chars) && --n == 0) break;
  return lines.line_number();
}

}  // namespace spgraph::io::detail
