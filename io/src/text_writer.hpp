#pragma once
// Buffered text output into an AtomicFile, gzip-compressed on request: the writers format
// numbers with std::to_chars straight into the buffer.
#include <zlib.h>

#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/io/atomic_file.hpp"

namespace spgraph::io::detail {

bool ends_with_gz(std::string_view path);

class TextWriter {
 public:
  TextWriter(AtomicFile& out, bool gzip);
  ~TextWriter();
  TextWriter(const TextWriter&) = delete;
  TextWriter& operator=(const TextWriter&) = delete;

  void put(std::string_view s) {
    while (s.size() > kCapacity - pos_) {
      const std::size_t n = kCapacity - pos_;
      std::memcpy(buf_.data() + pos_, s.data(), n);
      pos_ += n;
      s.remove_prefix(n);
      flush();
    }
    std::memcpy(buf_.data() + pos_, s.data(), s.size());
    pos_ += s.size();
  }
  void put(char c) {
    if (pos_ == kCapacity) flush();
    buf_[pos_++] = c;
  }
  // Integers as decimal; floating point as the shortest text that reads back exactly.
  template <class T>
  void number(T x) {
    if (kCapacity - pos_ < kMaxNumber) flush();
    pos_ = static_cast<std::size_t>(std::to_chars(buf_.data() + pos_, buf_.data() + kCapacity, x).ptr - buf_.data());
  }
  // One line per entry of a, in row order: "<row><sep><column>[<sep><value>]", the vertices
  // written by put_vertex(vertex), the value (where a has values) by number().
  template <class V, class PutVertex>
  void entries(const Csr<V>& a, char separator, PutVertex&& put_vertex) {
    for (vid_t i = 0; i < a.nrows; ++i) {
      for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
        put_vertex(i);
        put(separator);
        put_vertex(a.col[p]);
        if (!a.is_pattern()) {
          put(separator);
          number(a.val[p]);
        }
        put('\n');
      }
    }
  }
  // Writes out everything and ends the gzip stream; the caller then commits the AtomicFile.
  void finish();

 private:
  static constexpr std::size_t kMaxNumber = 32;  // "-1.7976931348623157e+308" and int64 fit
  static constexpr std::size_t kCapacity = std::size_t{1} << 20;
  void flush();

  AtomicFile& out_;
  gzFile gz_ = nullptr;
  std::vector<char> buf_;
  std::size_t pos_ = 0;
};

}  // namespace spgraph::io::detail
