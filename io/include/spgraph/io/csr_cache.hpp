#pragma once
// The binary CSR cache (.spgcsr): a parsed graph saved so the next run loads it at the speed
// of reading its arrays, instead of parsing text again.
//
// Layout (little-endian), version 2:
//   header, 80 bytes:
//     0  char[8]  magic "SPGCSR\r\n" (the CR LF shows text-mode mangling)
//     8  u32      version
//    12  u32      value type: 0 pattern (no values), 1 float64
//    16  i64      nrows      24  i64 ncols      32  i64 nnz
//    40  i32      id base (what vertex 0 is called when there are no labels)
//    44  u32      reserved, 0
//    48  u64      label count (0 or nrows)
//    56  u64      label bytes (sum of label lengths)
//    64  u64      checksum (below)
//    72  u64      reserved, 0
//   payload: rowptr i64[nrows+1], col i32[nnz], val f64[nnz] (if valued),
//            label ends u64[label count] (end offset of each label in the text), label text.
//   checksum: the payload cut into 1 MiB blocks (the last one shorter), each hashed with
//   XXH3-64 (libxxhash); the checksum is XXH3-64 of the header, its checksum field zero,
//   followed by the block hashes (u64 each). Blocks let threads hash what they read in parallel.
// Version 1 (a single xxHash64 stream) is no longer read. A file of another version, with a bad
// magic, of the wrong size, failing its checksum or its CSR checks is refused with a ParseError
// saying which.
#include <cstdint>
#include <functional>
#include <utility>
#include <string>
#include <vector>

#include "spgraph/csr.hpp"

namespace spgraph::io {

inline constexpr std::uint32_t kCsrCacheVersion = 2;

struct CsrCache {
  Csr<double> matrix;
  std::vector<std::string> labels;  // empty, or one per vertex
  int id_base = 0;
};

// labels: empty or one per vertex.
void write_csr_cache(const std::string& path, const Csr<double>& matrix,
                     const std::vector<std::string>& labels = {}, int id_base = 0);

// Wall-clock seconds of read_csr_cache's steps, for benchmarks.
struct CsrCacheReadPhases {
  double open = 0;      // open, header and size checks
  double allocate = 0;  // the arrays allocated: pages mapped, std::vector's zero-fill
  double read = 0;      // the payload read into the arrays, each block hashed as it arrives
  double check = 0;     // the checksum compared, the CSR structure checked
  double labels = 0;    // the label strings built
};

struct CsrCacheReadOptions {
  bool verify_checksum = true;  // false skips the hashing; the CSR checks always run
  int threads = 0;              // 0: all hardware threads (fewer for a small file)
  CsrCacheReadPhases* phases = nullptr;  // filled in when given
};

// Reads the payload with parallel pread calls straight into the result's arrays.
CsrCache read_csr_cache(const std::string& path, const CsrCacheReadOptions& options = {});

// One rank's share of a cache (the distributed apps, each rank reading its own rows): the rows
// [row_begin, row_end) with their columns and values, every other row empty, in a matrix of the
// file's size; the labels and id base too. `links` is the file's whole entry count. The
// checksum covers the whole file and is not verified; the rows read get the CSR checks.
struct CsrCacheRows {
  CsrCache cache;
  eid_t links = 0;
};
// rows_of(nrows) gives [row_begin, row_end) once the header says how many rows there are.
CsrCacheRows read_csr_cache_rows(const std::string& path,
                                 const std::function<std::pair<std::int64_t, std::int64_t>(std::int64_t)>& rows_of);

}  // namespace spgraph::io
