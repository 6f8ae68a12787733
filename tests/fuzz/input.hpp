#pragma once
// What the readers' fuzz harnesses share: one libFuzzer input is one file given to
// io::load_graph with options the input itself chooses, so that every option's code path is
// explored along with the bytes.
//
// Input layout: byte 0 chooses the options (bits below), the rest is the file's content.
//   bits 0-1  LoadOptions::duplicates: Error, Sum, Max, First
//   bit 2     compact_ids
//   bit 3     require_nonnegative_weights
//   bit 4     gzip-compress the content first (the text readers' .gz path)
//   bits 5-7  the cache harness's own (fuzz_csr_cache.cpp)
// trust_vertex_count stays false: it is the documented opt-in to allocate whatever vertex
// count the file names, which a 13-byte input can make 16 GiB.
#include <cstddef>
#include <cstdint>
#include <string>

#include "spgraph/io/load_graph.hpp"

namespace spgraph::fuzz {

inline constexpr std::uint8_t kGzipBit = 1u << 4;
inline constexpr std::uint8_t kUnverifiedBit = 1u << 5;

struct FuzzCase {
  io::LoadOptions options;
  std::uint8_t control = 0;  // byte 0, for the bits a harness reads itself
  std::string content;       // the file, before any gzip wrapping
};

FuzzCase decode(const std::uint8_t* data, std::size_t size, io::GraphFormat format);

// Writes the case's file (gzip-wrapped when bit 4 asks) to an in-memory file and returns its
// path, valid until the next call.
const std::string& write_input(const FuzzCase& c);

// Aborts, naming the broken promise, unless `g` is what a load with `options` may return: a
// valid CSR with sorted rows, one label per vertex or none, no refused weight.
void check(const io::LoadedGraph& g, const io::LoadOptions& options);

// write_input, io::load_graph, check. A refusal (spgraph::Error, ParseError included) is the
// expected outcome of malformed input; anything else escaping to libFuzzer is a finding, as
// is whatever the sanitizers report.
void load_and_check(const FuzzCase& c);

}  // namespace spgraph::fuzz
