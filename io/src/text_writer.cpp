#include "text_writer.hpp"

#include <unistd.h>

#include <cerrno>
#include <climits>

#include "spgraph/error.hpp"

namespace spgraph::io::detail {

bool ends_with_gz(std::string_view path) { return path.size() >= 3 && path.substr(path.size() - 3) == ".gz"; }

TextWriter::TextWriter(AtomicFile& out, bool gzip) : out_(out), buf_(kCapacity) {
  if (!gzip) return;
  // zlib writes through its own descriptor onto the AtomicFile's; the FILE* stays unused, so
  // the two never interleave buffered bytes.
  const int fd = ::dup(::fileno(out.file()));
  if (fd < 0 || !(gz_ = ::gzdopen(fd, "wb"))) {
    if (fd >= 0) ::close(fd);
    throw Error("cannot start gzip output to " + out.temp_path());
  }
  ::gzbuffer(gz_, 1 << 20);
}

TextWriter::~TextWriter() {
  if (gz_) ::gzclose(gz_);  // only on an error path: finish() closed it otherwise
}

void TextWriter::flush() {
  if (pos_ == 0) return;
  if (gz_) {
    if (::gzwrite(gz_, buf_.data(), static_cast<unsigned>(pos_)) != static_cast<int>(pos_)) {
      int err = Z_OK;
      throw Error("cannot write " + out_.temp_path() + ": " + ::gzerror(gz_, &err));
    }
  } else {
    out_.write(std::string_view(buf_.data(), pos_));
  }
  pos_ = 0;
}

void TextWriter::finish() {
  flush();
  if (gz_) {
    const int rc = ::gzclose(gz_);
    gz_ = nullptr;
    if (rc != Z_OK) throw Error("cannot write " + out_.temp_path() + ": gzip stream failed to close (disk full?)");
  }
}

}  // namespace spgraph::io::detail
