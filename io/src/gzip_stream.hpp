#pragma once
// The decompressor behind LineReader for gzip files, streaming (a .gz may inflate to more than
// memory holds): ISA-L's igzip when its library loads at run time, else zlib. Measured on our
// text, ISA-L inflates 2.5-3x faster than zlib (libdeflate, faster than zlib too, needs the
// whole file and its whole text in memory, which the streaming design rules out). ISA-L is
// loaded with dlopen, not linked, because Debian ships it only as a shared library and the
// binaries must also run where it is absent (the GPU machine): there they use zlib.
// SPGRAPH_GZIP=zlib in the environment chooses zlib.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace spgraph::io::detail {

class GzipStream {
 public:
  // Takes ownership of `fd`, a file that starts with the gzip magic bytes.
  explicit GzipStream(int fd, std::uint64_t file_size);
  ~GzipStream();
  GzipStream(const GzipStream&) = delete;
  GzipStream& operator=(const GzipStream&) = delete;

  // Inflates into out[0, n): the bytes written, 0 at the end of the text. When the stream is
  // corrupt or truncated, the text before the damage is handed out first (as much as the
  // library gives), then 0 with error() set (its reason).
  std::size_t read(char* out, std::size_t n);
  const std::string& error() const { return error_; }
  // Compressed bytes read from the file so far.
  std::uint64_t compressed_read() const;

  struct Inflater;

 private:
  std::unique_ptr<Inflater> impl_;
  std::string error_;
};

}  // namespace spgraph::io::detail
