// gpu::MxvLoop's work items (loop_items.hpp): consecutive rows packed into warp-sized tiles,
// rows too long for one tile cut into pieces.
#include <algorithm>

#include "spgraph/gpu/loop_items.hpp"

namespace spgraph::gpu::detail {

std::vector<LoopItem> loop_items(const std::vector<eid_t>& rowptr, int& long_rows) {
  std::vector<LoopItem> items;
  long_rows = 0;
  const vid_t n = rowptr.empty() ? 0 : vid_t(rowptr.size() - 1);
  auto length = [&](vid_t r) { return rowptr[r + 1] - rowptr[r]; };
  for (vid_t r = 0; r < n;) {
    if (length(r) > kLoopTileNnz) {
      const int chunks = int((length(r) + kLoopTileNnz - 1) / kLoopTileNnz);
      for (int c = 0; c < chunks; ++c) {
        const eid_t begin = rowptr[r] + eid_t(c) * kLoopTileNnz;
        items.push_back({begin, std::min(begin + kLoopTileNnz, rowptr[r + 1]), r, 0, long_rows, chunks});
      }
      ++long_rows;
      ++r;
      continue;
    }
    const vid_t first = r;
    eid_t nnz = 0;
    while (r < n && r - first < kLoopTileRows && nnz + length(r) <= kLoopTileNnz) nnz += length(r++);
    items.push_back({rowptr[first], rowptr[r], first, int(r - first), 0, 0});
  }
  return items;
}

}  // namespace spgraph::gpu::detail
