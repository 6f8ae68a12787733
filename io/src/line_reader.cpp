#include "line_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace spgraph::io::detail {
namespace {

// A few MiB: big enough that read() calls are rare, small enough to stay in the L2/L3 cache
// while the parser walks it.
constexpr std::size_t kChunk = std::size_t{4} << 20;
// A line this long is not text we can parse; refusing it bounds memory on binary input.
constexpr std::size_t kMaxLine = std::size_t{256} << 20;

bool has_gzip_magic(int fd) {
  unsigned char magic[2];
  return ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

}  // namespace

LineReader::LineReader(std::string path) : path_(std::move(path)), buf_(kChunk) {
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
    gz_ = ::gzdopen(fd_, "rb");  // owns fd_ from here on
    if (!gz_) {
      ::close(fd_);
      throw Error("cannot open " + path_ + ": out of memory for the gzip stream");
    }
    fd_ = -1;
    ::gzbuffer(gz_, 1 << 20);
  } else {
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
}

LineReader::~LineReader() {
  if (gz_) ::gzclose(gz_);
  if (fd_ >= 0) ::close(fd_);
}

void LineReader::refill() {
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (eof_) return;
  if (end_ == buf_.size()) {  // one line fills the whole buffer
    if (buf_.size() >= kMaxLine)
      throw ParseError(path_, line_ + 1, "line longer than " + std::to_string(kMaxLine >> 20) +
                                             " MiB; is this a text file?");
    buf_.resize(buf_.size() * 2);
  }
  const std::size_t want = buf_.size() - end_;
  if (gz_) {
    const int got = ::gzread(gz_, buf_.data() + end_, static_cast<unsigned>(want));
    int err = Z_OK;
    const char* msg = ::gzerror(gz_, &err);
    if (got < 0 || (err != Z_OK && err != Z_STREAM_END))
      throw ParseError(path_, line_ + 1, std::string("corrupt or truncated gzip data: ") + msg);
    if (got == 0) eof_ = true;
    end_ += static_cast<std::size_t>(got);
  } else {
    ssize_t got;
    do got = ::read(fd_, buf_.data() + end_, want);
    while (got < 0 && errno == EINTR);
    if (got < 0) throw Error("cannot read " + path_ + ": " + std::strerror(errno));
    if (got == 0) eof_ = true;
    end_ += static_cast<std::size_t>(got);
  }
}

bool LineReader::next_slow(std::string_view& line) {
  for (;;) {
    refill();
    if (std::memchr(buf_.data() + begin_, '\n', end_ - begin_)) return next(line);
    if (!eof_) continue;  // a line longer than what is buffered: read more
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

}  // namespace spgraph::io::detail
