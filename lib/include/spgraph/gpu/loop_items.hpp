#pragma once
// The work of gpu::MxvLoop's product (mxv_loop.hpp), one item a warp at a time: whole rows,
// [first_row, first_row + rows), at most kLoopTileRows of them with at most kLoopTileNnz
// nonzeros in all, so the warp finishes each row it starts; or, with rows == 0, the nonzeros
// [begin, end) of row first_row, one of `chunks` pieces of a row longer than that, whose sum
// collects in the slot-th long-row accumulator. Built once per matrix (SpmvCache).
#include <vector>

#include "spgraph/device/memory.hpp"
#include "spgraph/types.hpp"

namespace spgraph::gpu::detail {

inline constexpr int kLoopTileRows = 32;
inline constexpr eid_t kLoopTileNnz = 128;

struct LoopItem {
  eid_t begin, end;
  vid_t first_row;
  int rows;
  int slot, chunks;
};

// Items covering every row of a matrix with these row offsets, in row order; long_rows gets
// the number of rows cut into pieces.
std::vector<LoopItem> loop_items(const std::vector<eid_t>& rowptr, int& long_rows);

struct LoopItems {
  device::Buffer<LoopItem> items;
  int long_rows = 0;
};

}  // namespace spgraph::gpu::detail
