#pragma once
#include <bit>
#include <cstdint>

#include "spgraph/csr.hpp"

namespace spgraph::test {

// FNV-1a over the arrays' values (not their bytes, so it does not depend on endianness).
inline std::uint64_t checksum(const Csr<double>& a) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
  mix(static_cast<std::uint64_t>(a.nrows));
  mix(static_cast<std::uint64_t>(a.ncols));
  for (eid_t p : a.rowptr) mix(static_cast<std::uint64_t>(p));
  for (vid_t c : a.col) mix(static_cast<std::uint64_t>(c));
  for (double v : a.val) mix(std::bit_cast<std::uint64_t>(v));
  return h;
}

}  // namespace spgraph::test
