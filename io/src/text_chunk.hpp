#pragma once
// One thread's piece of a text file: whole lines, numbered from 1 within the piece, walked as
// LineReader walks a file (no '\n', no '\r'; the file's last line may lack its newline). A
// failure cannot name its file line yet (the lines of the pieces before it are still being
// counted), so fail() throws ChunkFailure with the piece's line; parse_in_parallel turns it
// into the ParseError "FILE:LINE: reason" once the pieces before are counted.
#include <cstring>
#include <string>
#include <string_view>

namespace spgraph::io::detail {

struct ChunkFailure {
  long long line = 0;  // within the piece, 1-based
  std::string reason;
};

class TextChunk {
 public:
  explicit TextChunk(std::string_view text) : p_(text.data()), e_(text.data() + text.size()) {}

  bool next(std::string_view& line) {
    if (p_ == e_) return false;
    const void* nl = std::memchr(p_, '\n', static_cast<std::size_t>(e_ - p_));
    const char* end = nl ? static_cast<const char*>(nl) : e_;
    std::size_t len = static_cast<std::size_t>(end - p_);
    if (len > 0 && p_[len - 1] == '\r') --len;
    line = std::string_view(p_, len);
    p_ = nl ? end + 1 : e_;
    ++line_;
    return true;
  }
  long long line_number() const { return line_; }
  [[noreturn]] void fail(const std::string& reason) const { throw ChunkFailure{line_, reason}; }

 private:
  const char* p_;
  const char* e_;
  long long line_ = 0;
};

}  // namespace spgraph::io::detail
