#pragma once
// The binary CSR cache (.spgcsr): a parsed graph saved so the next run loads it at the speed
// of reading its arrays, instead of parsing text again.
//
// Layout (little-endian), version 1:
//   header, 80 bytes:
//     0  char[8]  magic "SPGCSR\r\n" (the CR LF shows text-mode mangling)
//     8  u32      version
//    12  u32      value type: 0 pattern (no values), 1 float64
//    16  i64      nrows      24  i64 ncols      32  i64 nnz
//    40  i32      id base (what vertex 0 is called when there are no labels)
//    44  u32      reserved, 0
//    48  u64      label count (0 or nrows)
//    56  u64      label bytes (sum of label lengths)
//    64  u64      checksum of everything else (header with this field zero, then the arrays)
//    72  u64      reserved, 0
//   arrays: rowptr i64[nrows+1], col i32[nnz], val f64[nnz] (if valued),
//           label ends u64[label count] (end offset of each label in the text), label text.
// A file of another version, with a bad magic, of the wrong size, failing its checksum or
// its CSR checks is refused with a ParseError saying which.
#include <cstdint>
#include <string>
#include <vector>

#include "spgraph/csr.hpp"

namespace spgraph::io {

inline constexpr std::uint32_t kCsrCacheVersion = 1;

struct CsrCache {
  Csr<double> matrix;
  std::vector<std::string> labels;  // empty, or one per vertex
  int id_base = 0;
};

// labels: empty or one per vertex.
void write_csr_cache(const std::string& path, const Csr<double>& matrix,
                     const std::vector<std::string>& labels = {}, int id_base = 0);
CsrCache read_csr_cache(const std::string& path);

// The cache's checksum: four independent 64-bit multiply-rotate lanes over 32-byte blocks
// (the xxHash64 round), several GB/s on one core. Chain sections through `seed`.
std::uint64_t checksum64(const void* data, std::size_t bytes, std::uint64_t seed = 0);

}  // namespace spgraph::io
