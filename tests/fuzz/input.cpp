#include "input.hpp"

#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "spgraph/error.hpp"

namespace spgraph::fuzz {
namespace {

[[noreturn]] void broken(const std::string& what) {
  std::fprintf(stderr, "spgraph fuzz: %s\n", what.c_str());
  std::abort();
}

// One anonymous in-memory file for the whole process, rewritten for every input: the readers
// open files by path, and /proc/self/fd/N is a path to it with no disk or cleanup involved.
class MemoryFile {
 public:
  MemoryFile() : fd_(::memfd_create("spgraph-fuzz-input", MFD_CLOEXEC)) {
    if (fd_ < 0) broken("memfd_create failed");
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  const std::string& write(std::string_view bytes) {
    if (::ftruncate(fd_, 0) != 0) broken("ftruncate of the input file failed");
    for (std::size_t done = 0; done < bytes.size();) {
      const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
      if (n <= 0) broken("writing the input file failed");
      done += static_cast<std::size_t>(n);
    }
    return path_;
  }

 private:
  int fd_;
  std::string path_;
};

std::string gzip(std::string_view text) {
  z_stream z{};
  if (::deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) broken("deflateInit2 failed");
  std::string out(::deflateBound(&z, text.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (::deflate(&z, Z_FINISH) != Z_STREAM_END) broken("deflate did not finish");
  out.resize(z.total_out);
  ::deflateEnd(&z);
  return out;
}

const char* format_name(io::GraphFormat f) {
  switch (f) {
    case io::GraphFormat::MatrixMarket: return "matrix-market";
    case io::GraphFormat::EdgeList: return "edge-list";
    case io::GraphFormat::Abc: return "abc";
    case io::GraphFormat::Cache: return "spgcsr";
    case io::GraphFormat::ByName: break;
  }
  broken("a harness must name its reader");
}

}  // namespace

void check(const io::LoadedGraph& g, const io::LoadOptions& options) {
  if (g.format != format_name(options.format)) broken("loaded as " + g.format);
  try {
    g.matrix.validate(/*require_sorted=*/true);
  } catch (const Error& e) {
    broken(std::string("the loaded CSR is invalid: ") + e.what());
  }
  if (!g.labels.empty() && g.labels.size() != static_cast<std::size_t>(g.matrix.nrows))
    broken(std::to_string(g.labels.size()) + " labels for " + std::to_string(g.matrix.nrows) + " rows");
  if (options.require_nonnegative_weights)
    for (double v : g.matrix.val)
      if (!(v >= 0) || std::isinf(v)) broken("a refused weight was loaded: " + std::to_string(v));
}

FuzzCase decode(const std::uint8_t* data, std::size_t size, io::GraphFormat format) {
  FuzzCase c;
  c.options.format = format;
  if (size == 0) return c;
  c.control = data[0];
  c.options.duplicates = static_cast<Duplicates>(c.control & 3u);
  c.options.compact_ids = (c.control & 4u) != 0;
  c.options.require_nonnegative_weights = (c.control & 8u) != 0;
  c.content.assign(reinterpret_cast<const char*>(data) + 1, size - 1);
  return c;
}

const std::string& write_input(const FuzzCase& c) {
  static MemoryFile file;
  return file.write((c.control & kGzipBit) ? gzip(c.content) : c.content);
}

void load_and_check(const FuzzCase& c) {
  const std::string& path = write_input(c);
  io::LoadedGraph g;
  try {
    g = io::load_graph(path, c.options);
  } catch (const Error&) {
    return;  // refused, as malformed input should be
  }
  check(g, c.options);
}

}  // namespace spgraph::fuzz
