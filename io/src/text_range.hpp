#pragma once
// One rank's share of a text file (text_rows.cpp): its whole lines, mapped or inflated, handed to
// parse_in_parallel in blocks as LineReader hands out a file's, numbered as in the whole file
// (the lines before the share are counted first).
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "line_reader.hpp"

namespace spgraph::io::detail {

// Lines in `text` (whole lines; the file's last may lack its newline), as TextChunk counts them.
inline long long count_lines_in(std::string_view text) {
  long long lines = 0;
  for (const char* p = text.data(); const void* nl = std::memchr(p, '\n', text.size() - (p - text.data()));) {
    ++lines;
    p = static_cast<const char*>(nl) + 1;
  }
  if (!text.empty() && text.back() != '\n') ++lines;
  return lines;
}

class TextRange {
 public:
  // text: the share; lines_before: the file's lines before it (the header's and other ranks').
  TextRange(const std::string& path, std::string_view text, long long lines_before)
      : path_(path), text_(text), line_(lines_before) {}

  // The next block of whole lines within about `bytes` (empty at the end of the share).
  std::string_view next_block(std::size_t bytes) {
    const std::string_view rest = text_.substr(pos_);
    const std::size_t len = whole_lines_within(rest, bytes, path_, line_);
    pos_ += len;
    return rest.substr(0, len);
  }
  void count_lines(long long lines) { line_ += lines; }
  long long line_number() const { return line_; }
  const std::string& path() const { return path_; }
  // The share's size, for parse_in_parallel's estimate of the entries to come.
  bool remaining_known() const { return true; }
  std::uint64_t file_size() const { return text_.size(); }
  std::uint64_t remaining_bytes() const { return text_.size() - pos_; }

 private:
  const std::string& path_;
  std::string_view text_;
  std::size_t pos_ = 0;
  long long line_;
};

}  // namespace spgraph::io::detail
