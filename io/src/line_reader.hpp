#pragma once
// Streams a text file (plain, or gzip-compressed: detected by its magic bytes, inflated by
// GzipStream) line by line
// through one large buffer, so the parsers above it see string_views and never an iostream.
// A UTF-8 byte order mark at the start of the text is skipped (it is not part of the first
// line). A gzip stream that is corrupt or truncated is reported at the line it breaks: the
// lines decompressed before the damage are handed out first (for a truncated stream, every
// complete line; for corrupt data, those before zlib's output block that failed, at most
// about 2 MiB of text earlier; ISA-L gives all but the last few), then ParseError "FILE:LINE: corrupt or truncated gzip data:
// <zlib's reason>" names the first line that could not be read whole.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gzip_stream.hpp"
#include "spgraph/error.hpp"

namespace spgraph::io::detail {

// The length of the block of whole lines at the start of `rest` (text that starts a line):
// up to the last newline within `bytes`, or the first one after for a longer line, or all of
// `rest` when it fits in `bytes` or has no newline (the file's last line). A line of kMaxLine
// or more is a ParseError at the line after `lines_before`.
std::size_t whole_lines_within(std::string_view rest, std::size_t bytes, const std::string& path, long long lines_before);

class LineReader {
 public:
  // Throws spgraph::Error naming the path and the errno text when it cannot be opened.
  explicit LineReader(std::string path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its '\n' (and '\r'); false at end of file. The view is valid
  // until the next call. Inline fast path: the line is already in the buffer.
  bool next(std::string_view& line) {
    const char* b = buf_.data() + begin_;
    const void* nl = std::memchr(b, '\n', end_ - begin_);
    if (!nl) return next_slow(line);
    std::size_t len = static_cast<std::size_t>(static_cast<const char*>(nl) - b);
    begin_ += len + 1;
    consumed_ += len + 1;
    ++line_;
    if (len > 0 && b[len - 1] == '\r') --len;
    line = std::string_view(b, len);
    return true;
  }
  // The unread text up to its last line end within about `bytes` (more when one line is
  // longer), for a parser that splits it among threads; the file's last line may lack its
  // newline. Empty at the end of the text; a broken gzip stream is thrown once its complete
  // lines were handed out. The lines of a block are not counted here: the caller reports
  // them with count_lines() before the next call. Valid until the next call.
  // A plain file is mapped at the first call and its blocks are views of the mapping, read
  // by the parsing threads themselves (no copy, no serial read); next() must not follow.
  std::string_view next_block(std::size_t bytes);
  void count_lines(long long lines) { line_ += lines; }

  // 1-based number of the line next() returned last (0 before the first).
  long long line_number() const { return line_; }
  const std::string& path() const { return path_; }
  bool compressed() const { return gz_ != nullptr; }
  // Bytes on disk (compressed size for gzip); 0 when not a regular file.
  std::uint64_t file_size() const { return file_size_; }
  // Upper bound on the text still to come; only known for uncompressed regular files.
  bool remaining_known() const { return !compressed() && file_size_ > 0; }
  std::uint64_t remaining_bytes() const { return file_size_ - consumed_; }
  // Bytes of the text handed out so far (a skipped byte order mark included): the offset in the
  // text, inflated for gzip, of what comes next.
  std::uint64_t text_read() const { return consumed_; }

  [[noreturn]] void fail(const std::string& reason) const { throw ParseError(path_, line_, reason); }

 private:
  bool next_slow(std::string_view& line);
  std::string_view next_mapped_block(std::size_t bytes);
  void refill(std::size_t min_capacity = 0);
  void skip_bom();

  std::string path_;
  int fd_ = -1;
  std::unique_ptr<GzipStream> gz_;
  bool eof_ = false;
  bool bom_checked_ = false;
  std::string gz_error_;  // zlib's reason once the stream broke; thrown when its lines run out
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0;  // unread bytes are buf_[begin_, end_)
  long long line_ = 0;
  std::uint64_t file_size_ = 0;
  std::uint64_t consumed_ = 0;   // bytes handed out as lines, newlines included
  std::uint64_t file_read_ = 0;  // bytes read from a plain file (for the progress report)
  const char* map_ = nullptr;    // the whole plain file, once next_block mapped it
  bool map_tried_ = false;       // mmap failed: blocks are read
  std::uint64_t map_pos_ = 0;    // the next block's offset in map_
};

}  // namespace spgraph::io::detail
