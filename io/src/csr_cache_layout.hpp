#pragma once
// The .spgcsr file layout that the cache's writer and reader share (documented in
// spgraph/io/csr_cache.hpp): the header, and the payload as a list of sections in file order.
#include <bit>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

namespace spgraph::io::detail {

static_assert(std::endian::native == std::endian::little, "the cache layout is little-endian");

inline constexpr char kCacheMagic[8] = {'S', 'P', 'G', 'C', 'S', 'R', '\r', '\n'};
enum : std::uint32_t { kCachePattern = 0, kCacheFloat64 = 1 };

struct CacheHeader {
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
static_assert(sizeof(CacheHeader) == 80 && std::is_trivially_copyable_v<CacheHeader>);

// Calls piece(section, offset in that section, bytes, offset in the payload) for each part of
// `sections` (laid end to end) that payload bytes [begin, end) cover, in order.
template <class Byte, class Piece>
void for_each_piece(const std::vector<std::span<Byte>>& sections, std::uint64_t begin, std::uint64_t end,
                    Piece&& piece) {
  std::uint64_t section_start = 0;
  for (std::size_t s = 0; s < sections.size() && begin < end; ++s) {
    const std::uint64_t section_end = section_start + sections[s].size();
    if (begin < section_end) {
      const std::uint64_t stop = end < section_end ? end : section_end;
      piece(s, begin - section_start, stop - begin, begin);
      begin = stop;
    }
    section_start = section_end;
  }
}

}  // namespace spgraph::io::detail
