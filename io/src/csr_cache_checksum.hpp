#pragma once
// The cache's checksum (version 2): the payload (every byte after the header) is cut into
// blocks of kChecksumBlockBytes, each block is hashed on its own with XXH3-64, and the
// checksum is XXH3-64 over the header (its checksum field zero) followed by the block hashes.
// One XXH3 stream over the whole file would be simpler but runs on one core; independent
// blocks let every reading thread hash the block it has just read while it is still in its
// cache, and the result does not depend on the number of threads.
#include <cstdint>
#include <span>
#include <vector>

#include "csr_cache_layout.hpp"

namespace spgraph::io::detail {

inline constexpr std::uint64_t kChecksumBlockBytes = std::uint64_t{1} << 20;

inline std::uint64_t checksum_blocks(std::uint64_t payload_bytes) {
  return (payload_bytes + kChecksumBlockBytes - 1) / kChecksumBlockBytes;
}

// XXH3-64 of payload block `block` of `sections` (laid end to end).
std::uint64_t block_hash(const std::vector<std::span<const char>>& sections, std::uint64_t block);

// The file's checksum from its header (checksum field ignored) and its block hashes.
std::uint64_t cache_checksum(CacheHeader header, const std::vector<std::uint64_t>& block_hashes);

}  // namespace spgraph::io::detail
