#include "line_reader.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <utility>

#include "read_progress.hpp"

namespace spgraph::io::detail {
namespace {

// A few MiB: big enough that read() calls are rare, small enough to stay in the L2/L3 cache
// while the parser walks it. Smaller files get a buffer their size (at least kMinBuffer), so
// that loading many small files is not paid in page faults of an unused 4 MiB buffer; a
// longer line grows it.
constexpr std::size_t kChunk = std::size_t{4} << 20;
constexpr std::size_t kMinBuffer = std::size_t{16} << 10;
// Text compresses about 3-5x: a compressed file gets a buffer for about 4x its size.
constexpr std::uint64_t kGzGuessRatio = 4;
// A line this long is not text we can parse; refusing it bounds memory on binary input.
constexpr std::size_t kMaxLine = std::size_t{256} << 20;
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool has_gzip_magic(int fd) {
  unsigned char magic[2];
  return ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

}  // namespace

LineReader::LineReader(std::string path) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw Error("cannot open " + path_ + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      ::close(fd_);
      throw Error("cannot read " + path_ + ": " + std::strerror(EISDIR));
    }
    if (S_ISREG(st.st_mode)) file_size_ = static_cast<std::uint64_t>(st.st_size);
  }
  if (has_gzip_magic(fd_)) {
    const int fd = std::exchange(fd_, -1);
    try {
      gz_ = std::make_unique<GzipStream>(fd, file_size_);  // owns fd from here on
    } catch (const Error& e) {
      throw Error("cannot open " + path_ + ": " + e.what());
    }
  } else {
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
  // + 1: a whole file fits with room to spare, so the first read also sees its end.
  const std::uint64_t text_guess = file_size_ == 0 ? kChunk : (gz_ ? kGzGuessRatio : 1) * file_size_ + 1;
  buf_.resize(static_cast<std::size_t>(std::clamp<std::uint64_t>(text_guess, kMinBuffer, kChunk)));
}

LineReader::~LineReader() {
  if (map_) ::munmap(const_cast<char*>(map_), file_size_);
  if (fd_ >= 0) ::close(fd_);
}

void LineReader::refill(std::size_t min_capacity) {
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (eof_) return;
  if (buf_.size() < min_capacity) buf_.resize(min_capacity);
  if (end_ == buf_.size()) {  // one line fills the whole buffer
    if (buf_.size() >= kMaxLine)
      throw ParseError(path_, line_ + 1, "line longer than " + std::to_string(kMaxLine >> 20) +
                                             " MiB; is this a text file?");
    buf_.resize(buf_.size() * 2);
  }
  const std::size_t want = buf_.size() - end_;
  if (gz_) {
    // A break ends the text here (eof_) and next_slow throws gz_error_ once the complete lines
    // before it are read.
    const std::size_t got = gz_->read(buf_.data() + end_, want);
    end_ += got;
    if (!gz_->error().empty()) gz_error_ = "corrupt or truncated gzip data: " + gz_->error();
    if (got == 0 || !gz_error_.empty()) eof_ = true;
    report_progress(gz_->compressed_read(), file_size_);
  } else {
    ssize_t got;
    do got = ::read(fd_, buf_.data() + end_, want);
    while (got < 0 && errno == EINTR);
    if (got < 0) throw Error("cannot read " + path_ + ": " + std::strerror(errno));
    if (got == 0) eof_ = true;
    end_ += static_cast<std::size_t>(got);
    file_read_ += static_cast<std::uint64_t>(got);
    report_progress(file_read_, file_size_);
  }
}

// The first bytes of the text: skip a byte order mark. Called until bom_checked_.
void LineReader::skip_bom() {
  if (end_ - begin_ < kUtf8Bom.size() && !eof_) return;  // not enough text yet
  bom_checked_ = true;
  if (std::string_view(buf_.data() + begin_, end_ - begin_).starts_with(kUtf8Bom)) {
    begin_ += kUtf8Bom.size();
    consumed_ += kUtf8Bom.size();
  }
}

bool LineReader::next_slow(std::string_view& line) {
  for (;;) {
    refill();
    if (!bom_checked_) skip_bom();
    if (!bom_checked_) continue;
    if (std::memchr(buf_.data() + begin_, '\n', end_ - begin_)) return next(line);
    if (!eof_) continue;  // a line longer than what is buffered: read more
    // The text ends; a broken gzip stream ends it inside the line after the last one read.
    if (!gz_error_.empty()) throw ParseError(path_, line_ + 1, gz_error_);
    if (begin_ == end_) return false;
    // The last line, without a newline.
    const char* b = buf_.data() + begin_;
    std::size_t len = end_ - begin_;
    begin_ = end_;
    consumed_ += len;
    ++line_;
    if (b[len - 1] == '\r') --len;
    line = std::string_view(b, len);
    return true;
  }
}

// Blocks of a mapped plain file: the text after what next() and the buffer took, cut after
// the last newline within `bytes` (or the first after, for a longer line). The size is the
// one fstat gave at open: a file that another process truncates meanwhile faults (SIGBUS).
std::string_view LineReader::next_mapped_block(std::size_t bytes) {
  if (!map_) {
    void* m = ::mmap(nullptr, file_size_, PROT_READ, MAP_PRIVATE, fd_, 0);
    if (m == MAP_FAILED) {
      map_tried_ = true;  // read(2) it is
      return {};
    }
    ::madvise(m, file_size_, MADV_SEQUENTIAL);
    map_ = static_cast<const char*>(m);
    map_pos_ = file_read_ - (end_ - begin_);  // the buffered text not handed out yet
    begin_ = end_ = 0;
    if (!bom_checked_) {
      bom_checked_ = true;
      if (std::string_view(map_, file_size_).starts_with(kUtf8Bom)) map_pos_ += kUtf8Bom.size(), consumed_ += kUtf8Bom.size();
    }
  }
  const char* b = map_ + map_pos_;
  const std::size_t len = whole_lines_within({b, file_size_ - map_pos_}, bytes, path_, line_);
  map_pos_ += len;
  consumed_ += len;
  report_progress(map_pos_, file_size_);
  return std::string_view(b, len);
}

std::size_t whole_lines_within(std::string_view rest, std::size_t bytes, const std::string& path, long long lines_before) {
  const char* b = rest.data();
  const std::size_t left = rest.size();
  std::size_t len = std::min(bytes, left);
  if (len < left) {
    const void* nl = ::memrchr(b, '\n', len);
    if (!nl) {
      nl = std::memchr(b + len, '\n', left - len);
      if ((nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - b) : left) >= kMaxLine)
        throw ParseError(path, lines_before + 1, "line longer than " + std::to_string(kMaxLine >> 20) +
                                                     " MiB; is this a text file?");
    }
    len = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - b) + 1 : left;
  }
  return len;
}

std::string_view LineReader::next_block(std::size_t bytes) {
  // Mapped unless the buffer already holds the rest (a small file: no mmap to pay for).
  if (!gz_ && !map_tried_ && file_size_ > 0 && file_read_ < file_size_) {
    const std::string_view block = next_mapped_block(bytes);
    if (map_) return block;
  }
  while (!bom_checked_ || (end_ - begin_ < bytes && !eof_)) {
    // Room for `bytes`, but no more than a plain file has left; a compressed one's buffer
    // doubles as it fills, so that a small file keeps a small buffer.
    std::size_t capacity = bytes;
    if (remaining_known()) capacity = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, remaining_bytes() + 1));
    if (gz_) capacity = std::min(bytes, end_ - begin_ == buf_.size() ? 2 * buf_.size() : buf_.size());
    refill(capacity);
    if (!bom_checked_) skip_bom();
  }
  for (;;) {
    const char* b = buf_.data() + begin_;
    std::size_t len = end_ - begin_;
    if (!eof_ || !gz_error_.empty()) {  // whole lines only: cut after the last newline
      const void* nl = ::memrchr(b, '\n', len);
      if (!nl) {
        if (!eof_) {  // one line longer than the buffer holds: read on (refill grows it)
          refill();
          continue;
        }
        if (!gz_error_.empty()) throw ParseError(path_, line_ + 1, gz_error_);
      }
      len = static_cast<std::size_t>(static_cast<const char*>(nl) - b) + 1;
    }
    begin_ += len;
    consumed_ += len;
    return std::string_view(b, len);
  }
}

}  // namespace spgraph::io::detail
