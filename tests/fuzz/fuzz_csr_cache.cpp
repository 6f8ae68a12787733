// libFuzzer harness for the .spgcsr cache reader (input layout: input.hpp; the file is read
// raw, never gzip-wrapped).
//
// Nearly every mutation of a cache fails its checksum, which would keep the fuzzer in front
// of the checks behind it. So with bit 5 the cache is read with verify_checksum off, and
// corrupt row offsets, columns and label tables reach read_csr_cache's structure checks, which
// always run; bits 6-7 pick 1 to 4 reading threads. Without bit 5 the file goes through
// load_graph like the other readers' inputs.
#include "input.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/csr_cache.hpp"

namespace {

void read_unverified(const spgraph::fuzz::FuzzCase& c) {
  const std::string& path = spgraph::fuzz::write_input(c);
  spgraph::io::LoadedGraph g;
  try {
    spgraph::io::CsrCache cache =
        spgraph::io::read_csr_cache(path, {.verify_checksum = false, .threads = 1 + (c.control >> 6)});
    g.matrix = std::move(cache.matrix);
    g.labels = std::move(cache.labels);
    g.format = "spgcsr";
  } catch (const spgraph::Error&) {
    return;
  }
  spgraph::io::LoadOptions promised = c.options;  // weights are load_graph's check, not the cache's
  promised.require_nonnegative_weights = false;
  spgraph::fuzz::check(g, promised);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  spgraph::fuzz::FuzzCase c = spgraph::fuzz::decode(data, size, spgraph::io::GraphFormat::Cache);
  c.control &= static_cast<std::uint8_t>(~spgraph::fuzz::kGzipBit);
  if (c.control & spgraph::fuzz::kUnverifiedBit)
    read_unverified(c);
  else
    spgraph::fuzz::load_and_check(c);
  return 0;
}
