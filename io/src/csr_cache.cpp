#include "spgraph/io/csr_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <memory>
#include <span>

#include "csr_cache_checksum.hpp"
#include "csr_cache_layout.hpp"
#include "csr_parallel_check.hpp"
#include "generator_parallel.hpp"
#include "host_memory.hpp"
#include "prefault.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/atomic_file.hpp"

namespace spgraph::io {
namespace {

using detail::CacheHeader;
using detail::kCacheFloat64;
using detail::kCachePattern;

// Fewer threads for a small file: starting one costs about what reading 4 MiB does.
constexpr std::uint64_t kBytesPerThread = std::uint64_t{4} << 20;

template <class T>
std::span<const char> bytes_of(const T* data, std::uint64_t count) {
  return {reinterpret_cast<const char*>(data), count * sizeof(T)};
}
template <class T>
std::span<char> bytes_of(T* data, std::uint64_t count) {
  return {reinterpret_cast<char*>(data), count * sizeof(T)};
}

std::uint64_t payload_bytes(const std::vector<std::span<const char>>& sections) {
  std::uint64_t total = 0;
  for (const auto& s : sections) total += s.size();
  return total;
}

std::vector<std::uint64_t> block_hashes(const std::vector<std::span<const char>>& sections, int threads) {
  std::vector<std::uint64_t> hashes(detail::checksum_blocks(payload_bytes(sections)));
  detail::parallel_blocks(static_cast<std::int64_t>(hashes.size()), threads,
                          [&](std::int64_t b, int) { hashes[b] = detail::block_hash(sections, b); });
  return hashes;
}

class FileDescriptor {
 public:
  explicit FileDescriptor(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0) throw Error("cannot open " + path + ": " + std::strerror(errno));
  }
  ~FileDescriptor() { ::close(fd_); }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

class CacheFile {
 public:
  explicit CacheFile(const std::string& path) : path_(path), fd_(path) {
    struct stat st {};
    if (::fstat(fd_.get(), &st) != 0) throw Error("cannot read " + path + ": " + std::strerror(errno));
    size_ = static_cast<std::uint64_t>(st.st_size);
  }
  std::uint64_t size() const { return size_; }
  [[noreturn]] void fail(const std::string& reason) const { throw ParseError(path_, 0, reason); }
  const std::string& path() const { return path_; }

  // Reads exactly dst.size() bytes at `offset`; safe to call from several threads at once.
  void read_at(std::span<char> dst, std::uint64_t offset) const {
    while (!dst.empty()) {
      const ssize_t got = ::pread(fd_.get(), dst.data(), dst.size(), static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw Error("cannot read " + path_ + ": " + std::strerror(errno));
      if (got == 0) fail("truncated while reading (did the file shrink?)");
      dst = dst.subspan(static_cast<std::size_t>(got));
      offset += static_cast<std::uint64_t>(got);
    }
  }

 private:
  std::string path_;
  FileDescriptor fd_;
  std::uint64_t size_ = 0;
};

CacheHeader read_header(const CacheFile& in) {
  CacheHeader h{};
  const auto head = static_cast<std::size_t>(std::min<std::uint64_t>(in.size(), sizeof h));
  in.read_at({reinterpret_cast<char*>(&h), head}, 0);
  if (head == 0 || std::memcmp(h.magic, detail::kCacheMagic, std::min(head, sizeof h.magic)) != 0)
    in.fail("not an spgraph CSR cache (bad magic number)");
  if (head < sizeof h)
    in.fail("truncated: " + std::to_string(head) + " bytes, shorter than the " + std::to_string(sizeof h) +
            "-byte header");
  if (h.version != kCsrCacheVersion)
    in.fail("cache version " + std::to_string(h.version) + ", but this build reads version " +
            std::to_string(kCsrCacheVersion) + ": re-create it from the original graph (spgraph-convert GRAPH " +
            in.path() + ")");
  if (h.value_type != kCachePattern && h.value_type != kCacheFloat64)
    in.fail("unknown value type code " + std::to_string(h.value_type));
  constexpr std::int64_t kMaxIds = std::numeric_limits<vid_t>::max();
  if (h.nrows < 0 || h.nrows > kMaxIds || h.ncols < 0 || h.ncols > kMaxIds || h.nnz < 0 ||
      (h.label_count != 0 && h.label_count != static_cast<std::uint64_t>(h.nrows)))
    in.fail("corrupt header (impossible sizes)");
  return h;
}

std::uint64_t expected_size(const CacheHeader& h) {
  // Summed in 128 bits: no header value, however corrupt, can overflow it.
  const unsigned __int128 bytes = sizeof(CacheHeader) + (static_cast<unsigned __int128>(h.nrows) + 1) * 8 +
                                  static_cast<unsigned __int128>(h.nnz) * (h.value_type == kCacheFloat64 ? 12 : 4) +
                                  static_cast<unsigned __int128>(h.label_count) * 8 + h.label_bytes;
  return bytes > std::numeric_limits<std::uint64_t>::max() ? std::numeric_limits<std::uint64_t>::max()
                                                            : static_cast<std::uint64_t>(bytes);
}

// Seconds since the previous lap, written to the phase it ends when phases are wanted.
class PhaseClock {
 public:
  explicit PhaseClock(CsrCacheReadPhases* phases) : phases_(phases) {}
  void lap(double CsrCacheReadPhases::*phase) {
    const auto now = std::chrono::steady_clock::now();
    if (phases_) phases_->*phase = std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }

 private:
  CsrCacheReadPhases* phases_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// The labels from their end offsets into `text`, built by several threads.
std::vector<std::string> build_labels(const CacheFile& in, const std::uint64_t* ends, std::uint64_t count,
                                      const char* text, std::uint64_t text_bytes, int threads) {
  constexpr std::int64_t kLabelsPerBlock = 1 << 16;
  std::vector<std::string> labels(count);
  detail::parallel_blocks((static_cast<std::int64_t>(count) + kLabelsPerBlock - 1) / kLabelsPerBlock, threads,
                          [&](std::int64_t b, int) {
                            const auto first = static_cast<std::uint64_t>(b * kLabelsPerBlock);
                            const auto last = std::min<std::uint64_t>(count, first + kLabelsPerBlock);
                            std::uint64_t begin = first == 0 ? 0 : ends[first - 1];
                            for (std::uint64_t i = first; i < last; ++i) {
                              if (ends[i] < begin || ends[i] > text_bytes) in.fail("corrupt label table");
                              labels[i].assign(text + begin, text + ends[i]);
                              begin = ends[i];
                            }
                          });
  return labels;
}

}  // namespace

void write_csr_cache(const std::string& path, const Csr<double>& a, const std::vector<std::string>& names,
                     int id_base) {
  const int threads = detail::resolve_threads(0);
  detail::validate_csr(a, threads);
  if (!names.empty() && names.size() != static_cast<std::size_t>(a.nrows))
    throw Error("write_csr_cache: " + std::to_string(names.size()) + " labels for " + std::to_string(a.nrows) +
                " vertices");
  std::vector<std::uint64_t> label_ends;
  std::string label_text;
  label_ends.reserve(names.size());
  for (const std::string& s : names) {
    label_text += s;
    label_ends.push_back(label_text.size());
  }
  CacheHeader h{};
  std::memcpy(h.magic, detail::kCacheMagic, sizeof h.magic);
  h.version = kCsrCacheVersion;
  h.value_type = a.is_pattern() ? kCachePattern : kCacheFloat64;
  h.nrows = a.nrows;
  h.ncols = a.ncols;
  h.nnz = a.nnz();
  h.id_base = id_base;
  h.label_count = label_ends.size();
  h.label_bytes = label_text.size();
  const std::vector<std::span<const char>> sections = {
      bytes_of(a.rowptr.data(), a.rowptr.size()), bytes_of(a.col.data(), a.col.size()),
      bytes_of(a.val.data(), a.val.size()), bytes_of(label_ends.data(), label_ends.size()),
      bytes_of(label_text.data(), label_text.size())};
  h.checksum = detail::cache_checksum(h, block_hashes(sections, threads));

  AtomicFile out(path);
  out.write({reinterpret_cast<const char*>(&h), sizeof h});
  for (const auto& s : sections) out.write({s.data(), s.size()});
  out.commit();
}

CsrCache read_csr_cache(const std::string& path, const CsrCacheReadOptions& options) {
  PhaseClock clock(options.phases);
  const CacheFile in(path);
  const CacheHeader h = read_header(in);
  const std::uint64_t expected = expected_size(h);
  if (in.size() < expected)
    in.fail("truncated: the header describes " + std::to_string(expected) + " bytes, the file has " +
            std::to_string(in.size()));
  if (in.size() > expected)
    in.fail("the file has " + std::to_string(in.size()) + " bytes, " + std::to_string(in.size() - expected) +
            " more than its header describes");
  const std::uint64_t payload = expected - sizeof h;
  const int threads = static_cast<int>(std::min<std::uint64_t>(
      static_cast<std::uint64_t>(detail::resolve_threads(options.threads)), payload / kBytesPerThread + 1));
  clock.lap(&CsrCacheReadPhases::open);

  CsrCache out;
  Csr<double>& a = out.matrix;
  a.nrows = static_cast<vid_t>(h.nrows);
  a.ncols = static_cast<vid_t>(h.ncols);
  const auto offsets = static_cast<std::size_t>(h.nrows) + 1;
  const auto nnz = static_cast<std::size_t>(h.nnz);
  const std::size_t nvals = h.value_type == kCacheFloat64 ? nnz : 0;
  std::vector<std::span<char>> arrays;
  detail::allocating(path, detail::csr_bytes(a.nrows, h.nnz, nvals > 0), detail::csr_arrays(a.nrows, h.nnz), [&] {
    arrays = {detail::reserved_bytes(a.rowptr, offsets), detail::reserved_bytes(a.col, nnz),
              detail::reserved_bytes(a.val, nvals)};
  });
  detail::prefault(arrays, threads);
  // std::vector zero-fills on one thread: the three arrays at once.
  detail::parallel_blocks(3, threads, [&](std::int64_t array, int) {
    if (array == 0) a.rowptr.resize(offsets);
    if (array == 1) a.col.resize(nnz);
    if (array == 2) a.val.resize(nvals);
  });
  // The label arrays are scratch: left uninitialised, their pages are mapped by the reads.
  std::unique_ptr<std::uint64_t[]> label_ends;
  std::unique_ptr<char[]> label_text;
  detail::allocating(path, 8 * h.label_count + h.label_bytes, std::to_string(h.label_count) + " labels", [&] {
    label_ends.reset(new std::uint64_t[h.label_count]);
    label_text.reset(new char[h.label_bytes]);
  });
  clock.lap(&CsrCacheReadPhases::allocate);

  const std::vector<std::span<char>> sections = {
      bytes_of(a.rowptr.data(), a.rowptr.size()), bytes_of(a.col.data(), a.col.size()),
      bytes_of(a.val.data(), a.val.size()), bytes_of(label_ends.get(), h.label_count),
      bytes_of(label_text.get(), h.label_bytes)};
  const std::vector<std::span<const char>> read_only(sections.begin(), sections.end());
  std::vector<std::uint64_t> hashes(options.verify_checksum ? detail::checksum_blocks(payload) : 0);
  // Checksum blocks are the unit of work: each thread reads a block, then hashes it while it is
  // still in the thread's cache.
  detail::parallel_blocks(static_cast<std::int64_t>(detail::checksum_blocks(payload)), threads,
                          [&](std::int64_t b, int) {
                            const std::uint64_t first = static_cast<std::uint64_t>(b) * detail::kChecksumBlockBytes;
                            detail::for_each_piece(sections, first, first + detail::kChecksumBlockBytes,
                                                   [&](std::size_t s, std::uint64_t offset, std::uint64_t bytes,
                                                       std::uint64_t at) {
                                                     in.read_at(sections[s].subspan(offset, bytes), sizeof h + at);
                                                   });
                            if (options.verify_checksum) hashes[b] = detail::block_hash(read_only, b);
                          });
  clock.lap(&CsrCacheReadPhases::read);

  if (options.verify_checksum && detail::cache_checksum(h, hashes) != h.checksum)
    in.fail("checksum mismatch: the file is corrupt (re-create the cache from the original graph)");
  try {
    detail::validate_csr(a, threads);
  } catch (const Error& e) {
    in.fail(std::string("invalid CSR structure") + (options.verify_checksum ? " despite a valid checksum" : "") +
            ": " + e.what());
  }
  clock.lap(&CsrCacheReadPhases::check);

  out.labels = build_labels(in, label_ends.get(), h.label_count, label_text.get(), h.label_bytes, threads);
  out.id_base = h.id_base;
  clock.lap(&CsrCacheReadPhases::labels);
  return out;
}

CsrCacheRows read_csr_cache_rows(const std::string& path,
                                 const std::function<std::pair<std::int64_t, std::int64_t>(std::int64_t)>& rows_of) {
  const CacheFile in(path);
  const CacheHeader h = read_header(in);
  const auto [row_begin, row_end] = rows_of(h.nrows);
  const std::uint64_t expected = expected_size(h);
  if (in.size() != expected)
    in.fail("the header describes " + std::to_string(expected) + " bytes, the file has " + std::to_string(in.size()));
  if (row_begin < 0 || row_end < row_begin || row_end > h.nrows)
    throw Error("read_csr_cache_rows: rows [" + std::to_string(row_begin) + ", " + std::to_string(row_end) + ") of " +
                path + ", which has " + std::to_string(h.nrows));
  const std::uint64_t rowptr_at = sizeof h, col_at = rowptr_at + 8 * (static_cast<std::uint64_t>(h.nrows) + 1);
  const std::uint64_t val_at = col_at + 4 * static_cast<std::uint64_t>(h.nnz);
  const std::uint64_t labels_at = val_at + (h.value_type == kCacheFloat64 ? 8 * static_cast<std::uint64_t>(h.nnz) : 0);
  const auto rows = static_cast<std::size_t>(row_end - row_begin);
  std::vector<eid_t> offsets(rows + 1);
  in.read_at(bytes_of(offsets.data(), offsets.size()), rowptr_at + 8 * static_cast<std::uint64_t>(row_begin));
  const eid_t first = offsets.front(), last = offsets.back();
  if (first < 0 || last < first || last > h.nnz) in.fail("corrupt row offsets in rows " + std::to_string(row_begin) + ".." + std::to_string(row_end));
  CsrCacheRows out;
  out.links = h.nnz;
  Csr<double>& a = out.cache.matrix;
  a.nrows = static_cast<vid_t>(h.nrows);
  a.ncols = static_cast<vid_t>(h.ncols);
  const auto count = static_cast<std::size_t>(last - first);
  a.col.resize(count);
  in.read_at(bytes_of(a.col.data(), count), col_at + 4 * static_cast<std::uint64_t>(first));
  if (h.value_type == kCacheFloat64) {
    a.val.resize(count);
    in.read_at(bytes_of(a.val.data(), count), val_at + 8 * static_cast<std::uint64_t>(first));
  }
  a.rowptr.assign(static_cast<std::size_t>(h.nrows) + 1, 0);
  for (std::size_t i = 0; i < rows; ++i) {
    if (offsets[i + 1] < offsets[i]) in.fail("corrupt row offsets at row " + std::to_string(row_begin + std::int64_t(i)));
    a.rowptr[static_cast<std::size_t>(row_begin) + i + 1] = offsets[i + 1] - first;
  }
  for (std::size_t i = static_cast<std::size_t>(row_end); i < static_cast<std::size_t>(h.nrows); ++i)
    a.rowptr[i + 1] = a.rowptr[i];
  try {
    a.validate();
  } catch (const Error& e) {
    in.fail(std::string("invalid CSR structure: ") + e.what());
  }
  std::unique_ptr<std::uint64_t[]> label_ends(new std::uint64_t[h.label_count]);
  std::unique_ptr<char[]> label_text(new char[h.label_bytes]);
  in.read_at(bytes_of(label_ends.get(), h.label_count), labels_at);
  in.read_at({label_text.get(), static_cast<std::size_t>(h.label_bytes)}, labels_at + 8 * h.label_count);
  out.cache.labels = build_labels(in, label_ends.get(), h.label_count, label_text.get(), h.label_bytes, 1);
  out.cache.id_base = h.id_base;
  return out;
}

}  // namespace spgraph::io
