#include "spgraph/io/csr_cache.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

#include "spgraph/error.hpp"
#include "spgraph/io/atomic_file.hpp"

namespace spgraph::io {
namespace {

static_assert(std::endian::native == std::endian::little, "the cache layout is little-endian");

constexpr char kMagic[8] = {'S', 'P', 'G', 'C', 'S', 'R', '\r', '\n'};
enum : std::uint32_t { kPattern = 0, kFloat64 = 1 };

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t value_type;
  std::int64_t nrows, ncols, nnz;
  std::int32_t id_base;
  std::uint32_t reserved0;
  std::uint64_t label_count, label_bytes;
  std::uint64_t checksum;
  std::uint64_t reserved1;
};
static_assert(sizeof(Header) == 80 && std::is_trivially_copyable_v<Header>);

template <class T>
std::uint64_t chain(const std::vector<T>& v, std::uint64_t seed) {
  return checksum64(v.data(), v.size() * sizeof(T), seed);
}

struct LabelArrays {
  std::vector<std::uint64_t> ends;
  std::vector<char> text;
};

std::uint64_t payload_checksum(Header h, const Csr<double>& a, const LabelArrays& labels) {
  h.checksum = 0;
  std::uint64_t c = checksum64(&h, sizeof h);
  c = chain(a.rowptr, c);
  c = chain(a.col, c);
  c = chain(a.val, c);
  c = chain(labels.ends, c);
  return chain(labels.text, c);
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

class CacheReader {
 public:
  explicit CacheReader(const std::string& path) : path_(path), f_(std::fopen(path.c_str(), "rb")) {
    if (!f_) throw Error("cannot open " + path + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(::fileno(f_.get()), &st) != 0) throw Error("cannot read " + path + ": " + std::strerror(errno));
    size_ = static_cast<std::uint64_t>(st.st_size);
  }
  std::uint64_t size() const { return size_; }
  [[noreturn]] void fail(const std::string& reason) const { throw ParseError(path_, 0, reason); }
  void read(void* dst, std::size_t bytes) {
    if (bytes == 0 || std::fread(dst, 1, bytes, f_.get()) == bytes) return;
    if (std::ferror(f_.get())) throw Error("cannot read " + path_ + ": " + std::strerror(errno));
    fail("truncated while reading (did the file shrink?)");
  }
  template <class T>
  void read(std::vector<T>& v, std::uint64_t count) {
    v.resize(count);
    read(v.data(), count * sizeof(T));
  }

 private:
  std::string path_;
  std::unique_ptr<std::FILE, FileCloser> f_;
  std::uint64_t size_ = 0;
};

Header read_header(CacheReader& in) {
  Header h{};
  const auto head = static_cast<std::size_t>(std::min<std::uint64_t>(in.size(), sizeof h));
  in.read(&h, head);
  if (std::memcmp(h.magic, kMagic, std::min(head, sizeof kMagic)) != 0 || head == 0)
    in.fail("not an spgraph CSR cache (bad magic number)");
  if (head < sizeof h)
    in.fail("truncated: " + std::to_string(head) + " bytes, shorter than the " + std::to_string(sizeof h) +
            "-byte header");
  if (h.version != kCsrCacheVersion)
    in.fail("cache version " + std::to_string(h.version) + ", but this build reads version " +
            std::to_string(kCsrCacheVersion) + " (re-create the cache from the original graph)");
  if (h.value_type != kPattern && h.value_type != kFloat64)
    in.fail("unknown value type code " + std::to_string(h.value_type));
  constexpr std::int64_t kMaxIds = std::numeric_limits<vid_t>::max();
  if (h.nrows < 0 || h.nrows > kMaxIds || h.ncols < 0 || h.ncols > kMaxIds || h.nnz < 0 ||
      (h.label_count != 0 && h.label_count != static_cast<std::uint64_t>(h.nrows)))
    in.fail("corrupt header (impossible sizes)");
  return h;
}

std::uint64_t expected_size(const Header& h) {
  // Summed in 128 bits: no header value, however corrupt, can overflow it.
  const unsigned __int128 bytes = sizeof(Header) + (static_cast<unsigned __int128>(h.nrows) + 1) * 8 +
                                  static_cast<unsigned __int128>(h.nnz) * (h.value_type == kFloat64 ? 12 : 4) +
                                  static_cast<unsigned __int128>(h.label_count) * 8 + h.label_bytes;
  return bytes > std::numeric_limits<std::uint64_t>::max() ? std::numeric_limits<std::uint64_t>::max()
                                                            : static_cast<std::uint64_t>(bytes);
}

}  // namespace

void write_csr_cache(const std::string& path, const Csr<double>& a, const std::vector<std::string>& names,
                     int id_base) {
  a.validate(/*require_sorted=*/true);
  if (!names.empty() && names.size() != static_cast<std::size_t>(a.nrows))
    throw Error("write_csr_cache: " + std::to_string(names.size()) + " labels for " + std::to_string(a.nrows) +
                " vertices");
  LabelArrays labels;
  labels.ends.reserve(names.size());
  for (const std::string& s : names) {
    labels.text.insert(labels.text.end(), s.begin(), s.end());
    labels.ends.push_back(labels.text.size());
  }
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kCsrCacheVersion;
  h.value_type = a.is_pattern() ? kPattern : kFloat64;
  h.nrows = a.nrows;
  h.ncols = a.ncols;
  h.nnz = a.nnz();
  h.id_base = id_base;
  h.label_count = labels.ends.size();
  h.label_bytes = labels.text.size();
  h.checksum = payload_checksum(h, a, labels);

  AtomicFile out(path);
  auto put = [&](const auto& v) {
    out.write({reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0])});
  };
  out.write({reinterpret_cast<const char*>(&h), sizeof h});
  put(a.rowptr);
  put(a.col);
  put(a.val);
  put(labels.ends);
  put(labels.text);
  out.commit();
}

CsrCache read_csr_cache(const std::string& path) {
  CacheReader in(path);
  const Header h = read_header(in);
  const std::uint64_t expected = expected_size(h);
  if (in.size() < expected)
    in.fail("truncated: the header describes " + std::to_string(expected) + " bytes, the file has " +
            std::to_string(in.size()));
  if (in.size() > expected)
    in.fail("the file has " + std::to_string(in.size()) + " bytes, " + std::to_string(in.size() - expected) +
            " more than its header describes");

  CsrCache out;
  Csr<double>& a = out.matrix;
  a.nrows = static_cast<vid_t>(h.nrows);
  a.ncols = static_cast<vid_t>(h.ncols);
  LabelArrays labels;
  in.read(a.rowptr, static_cast<std::uint64_t>(h.nrows) + 1);
  in.read(a.col, static_cast<std::uint64_t>(h.nnz));
  if (h.value_type == kFloat64) in.read(a.val, static_cast<std::uint64_t>(h.nnz));
  in.read(labels.ends, h.label_count);
  in.read(labels.text, h.label_bytes);
  if (payload_checksum(h, a, labels) != h.checksum)
    in.fail("checksum mismatch: the file is corrupt (re-create the cache from the original graph)");

  try {
    a.validate(/*require_sorted=*/true);
  } catch (const Error& e) {
    in.fail(std::string("invalid CSR structure despite a valid checksum: ") + e.what());
  }
  out.labels.reserve(h.label_count);
  std::uint64_t begin = 0;
  for (std::uint64_t end : labels.ends) {
    if (end < begin || end > labels.text.size()) in.fail("corrupt label table");
    out.labels.emplace_back(labels.text.data() + begin, labels.text.data() + end);
    begin = end;
  }
  out.id_base = h.id_base;
  return out;
}

}  // namespace spgraph::io
