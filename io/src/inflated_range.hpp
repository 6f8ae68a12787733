#pragma once
// A gzip-compressed text graph read by the ranks of a job (text_rows.cpp). A gzip stream cannot
// be entered in the middle, so every rank inflates the whole stream itself, in two passes:
// measure_inflated learns the size of the text, keeping nothing, and InflatedRange inflates it
// again, as far as the rank's share reaches, keeping only the bytes the share is cut from (about
// 1/P of the text and a line). Both take the text from a LineReader (the byte order mark, gzip
// members and trailing bytes as it handles them) in the blocks load_graph's parsers take
// (parse_block_bytes), so that a corrupt or truncated stream ends the text where it ends the
// one-process reader's, with its error.
#include <cstddef>
#include <string>
#include <string_view>

#include "line_reader.hpp"

namespace spgraph::io::detail {

// Bytes [offset, offset + bytes.size()) of a text of `size` bytes: what a rank holds of the text
// it cuts its share from (a mapped plain file: all of it).
struct TextWindow {
  std::string_view bytes;
  std::size_t offset = 0;
  std::size_t size = 0;
};

// What the first pass found.
struct InflatedText {
  std::size_t begin = 0;  // where the lines after the header start (after a byte order mark)
  std::size_t size = 0;   // the text's bytes: where the stream broke, its whole lines before the break
  std::string broken;     // where it broke, the one-process reader's error ("FILE:LINE: ..."), else ""
};

// The rest of `in`'s text (after the header it read, if any) inflated block by block, the lines
// counted (for the line a break names) and nothing kept.
InflatedText measure_inflated(LineReader& in);

class InflatedRange {
 public:
  // The text of `path` (size: what measure_inflated found) inflated again from its start, its
  // first `header_lines` lines read as the header was, keeping the bytes from `from` through the
  // first newline at or after `newline_from` (or to the end of the text). Inflates no further.
  InflatedRange(const std::string& path, long long header_lines, std::size_t from, std::size_t newline_from,
                std::size_t size);
  TextWindow window() const { return {kept_, from_, size_}; }

 private:
  std::string kept_;
  std::size_t from_, size_;
};

}  // namespace spgraph::io::detail
