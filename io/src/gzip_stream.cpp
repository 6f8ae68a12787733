#include "gzip_stream.hpp"

#include <dlfcn.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "spgraph/error.hpp"

#if __has_include(<isa-l/igzip_lib.h>)
#include <isa-l/igzip_lib.h>
#define SPGRAPH_HAVE_ISAL_HEADER 1
#endif

namespace spgraph::io::detail {

struct GzipStream::Inflater {
  virtual ~Inflater() = default;
  virtual std::size_t read(char* out, std::size_t n, std::string& error) = 0;
  virtual std::uint64_t compressed_read() const = 0;
};

namespace {

// Input buffers: the file's size up to 1 MiB, so that a small file stays cheap.
std::size_t input_buffer_size(std::uint64_t file_size) {
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(file_size, std::uint64_t{16} << 10, std::uint64_t{1} << 20));
}

class ZlibInflater final : public GzipStream::Inflater {
 public:
  ZlibInflater(int fd, std::uint64_t file_size) : gz_(::gzdopen(fd, "rb")) {
    if (!gz_) {
      ::close(fd);
      throw Error("out of memory for the gzip stream");
    }
    ::gzbuffer(gz_, static_cast<unsigned>(input_buffer_size(file_size)));
  }
  ~ZlibInflater() override { ::gzclose(gz_); }

  std::size_t read(char* out, std::size_t n, std::string& error) override {
    // gzread returns nothing of a call that fails, so the output is filled in pieces: the text
    // before the damage is kept.
    std::size_t filled = 0;
    while (filled < n) {
      const auto piece = static_cast<unsigned>(std::min<std::size_t>(n - filled, kPiece));
      const int got = ::gzread(gz_, out + filled, piece);
      int err = Z_OK;
      const char* msg = ::gzerror(gz_, &err);
      if (got > 0) filled += static_cast<std::size_t>(got);
      // A truncated stream (Z_BUF_ERROR) still hands out what it decompressed: stop when that
      // runs out. Other errors lose the output block they happened in.
      const bool truncated_with_text = err == Z_BUF_ERROR && got > 0;
      if (got < 0 || (err != Z_OK && err != Z_STREAM_END && !truncated_with_text)) {
        error = msg;
        return filled;
      }
      if (got == 0) break;
    }
    return filled;
  }
  std::uint64_t compressed_read() const override { return static_cast<std::uint64_t>(::gzoffset(gz_)); }

 private:
  static constexpr unsigned kPiece = 64u << 10;
  gzFile gz_;
};

#ifdef SPGRAPH_HAVE_ISAL_HEADER
// ISA-L's inflate functions, from libisal.so.2 when it loads (once per process).
struct IsalApi {
  void (*init)(inflate_state*) = nullptr;
  void (*reset)(inflate_state*) = nullptr;
  int (*inflate)(inflate_state*) = nullptr;
};

const IsalApi* isal_api() {
  static const IsalApi* api = []() -> const IsalApi* {
    void* lib = ::dlopen("libisal.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return nullptr;
    static IsalApi a;
    a.init = reinterpret_cast<void (*)(inflate_state*)>(::dlsym(lib, "isal_inflate_init"));
    a.reset = reinterpret_cast<void (*)(inflate_state*)>(::dlsym(lib, "isal_inflate_reset"));
    a.inflate = reinterpret_cast<int (*)(inflate_state*)>(::dlsym(lib, "isal_inflate"));
    return a.init && a.reset && a.inflate ? &a : nullptr;
  }();
  return api;
}

std::string isal_reason(int rc) {
  switch (rc) {
    case ISAL_INVALID_BLOCK: return "invalid block type";
    case ISAL_INVALID_SYMBOL: return "invalid code";
    case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER: return "incorrect header check";
    case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
    default: return "inflate error " + std::to_string(rc);
  }
}

class IsalInflater final : public GzipStream::Inflater {
 public:
  IsalInflater(const IsalApi& api, int fd, std::uint64_t file_size)
      : api_(api), fd_(fd), in_(input_buffer_size(file_size)), st_(std::make_unique<inflate_state>()) {
    api_.init(st_.get());
    st_->crc_flag = ISAL_GZIP;
  }
  ~IsalInflater() override { ::close(fd_); }

  std::size_t read(char* out, std::size_t n, std::string& error) override {
    inflate_state& st = *st_;
    st.next_out = reinterpret_cast<std::uint8_t*>(out);
    st.avail_out = static_cast<std::uint32_t>(std::min<std::size_t>(n, UINT32_MAX));
    const std::uint32_t wanted = st.avail_out;
    while (st.avail_out > 0 && !done_) {
      if (st.block_state == ISAL_BLOCK_FINISH && !next_member(error)) break;
      if (st.avail_in == 0 && !fill_input(error)) break;
      const std::uint32_t out_before = st.avail_out;
      const int rc = api_.inflate(&st);
      if (rc < 0) {
        error = isal_reason(rc);
        done_ = true;
      } else if (st.block_state != ISAL_BLOCK_FINISH && st.avail_in == 0 && input_ended_ && st.avail_out == out_before) {
        error = "unexpected end of file";  // no more input, no more output, the stream unfinished
        done_ = true;
      }
    }
    return wanted - st.avail_out;
  }
  std::uint64_t compressed_read() const override { return read_; }

 private:
  // More input when the buffer is used up; false (and done) on a read error.
  bool fill_input(std::string& error) {
    if (input_ended_) return true;  // inflate still flushes what it holds
    ssize_t got;
    do got = ::read(fd_, in_.data(), in_.size());
    while (got < 0 && errno == EINTR);
    if (got < 0) {
      error = std::string("read error: ") + std::strerror(errno);
      done_ = true;
      return false;
    }
    if (got == 0) input_ended_ = true;
    st_->next_in = in_.data();
    st_->avail_in = static_cast<std::uint32_t>(got);
    read_ += static_cast<std::uint64_t>(got);
    return true;
  }

  // A member ended: another may follow (concatenated .gz files), which zlib reads on too;
  // bytes that are not a member end the text, as for zlib. False at the end.
  bool next_member(std::string& error) {
    inflate_state& st = *st_;
    if (st.avail_in == 0 && (!fill_input(error) || st.avail_in == 0)) return done_ = true, false;
    if (st.next_in[0] != 0x1f) return done_ = true, false;
    std::uint8_t* next_in = st.next_in;
    const std::uint32_t avail_in = st.avail_in;
    std::uint8_t* next_out = st.next_out;
    const std::uint32_t avail_out = st.avail_out;
    api_.reset(&st);
    st.crc_flag = ISAL_GZIP;
    st.next_in = next_in, st.avail_in = avail_in, st.next_out = next_out, st.avail_out = avail_out;
    return true;
  }

  const IsalApi& api_;
  int fd_;
  std::vector<std::uint8_t> in_;
  std::unique_ptr<inflate_state> st_;
  bool input_ended_ = false, done_ = false;
  std::uint64_t read_ = 0;
};

bool zlib_chosen() {
  const char* choice = std::getenv("SPGRAPH_GZIP");
  return choice && std::string_view(choice) == "zlib";
}
#endif

}  // namespace

GzipStream::GzipStream(int fd, std::uint64_t file_size) {
#ifdef SPGRAPH_HAVE_ISAL_HEADER
  if (const IsalApi* api = isal_api(); api && !zlib_chosen()) {
    impl_ = std::make_unique<IsalInflater>(*api, fd, file_size);
    return;
  }
#endif
  impl_ = std::make_unique<ZlibInflater>(fd, file_size);
}

GzipStream::~GzipStream() = default;

std::size_t GzipStream::read(char* out, std::size_t n) {
  if (!error_.empty()) return 0;
  return impl_->read(out, n, error_);
}

std::uint64_t GzipStream::compressed_read() const { return impl_->compressed_read(); }

}  // namespace spgraph::io::detail
