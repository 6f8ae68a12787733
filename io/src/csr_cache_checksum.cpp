// libxxhash used header-only (XXH_INLINE_ALL): the binaries then run on machines without
// Debian's libxxhash, and the hash loop is inlined here.
#include "csr_cache_checksum.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace spgraph::io::detail {

std::uint64_t block_hash(const std::vector<std::span<const char>>& sections, std::uint64_t block) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  for_each_piece(sections, block * kChecksumBlockBytes, (block + 1) * kChecksumBlockBytes,
                 [&](std::size_t s, std::uint64_t offset, std::uint64_t bytes, std::uint64_t) {
                   XXH3_64bits_update(&state, sections[s].data() + offset, bytes);
                 });
  return XXH3_64bits_digest(&state);
}

std::uint64_t cache_checksum(CacheHeader header, const std::vector<std::uint64_t>& block_hashes) {
  header.checksum = 0;
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, &header, sizeof header);
  XXH3_64bits_update(&state, block_hashes.data(), block_hashes.size() * sizeof(std::uint64_t));
  return XXH3_64bits_digest(&state);
}

}  // namespace spgraph::io::detail
