// gpu::MxvLoop's work items (gpu/loop_items.hpp), built on the host: every row in exactly one
// item or in the pieces of one long row, in order, within the tile bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "spgraph/gpu/loop_items.hpp"

namespace spgraph::test {
namespace {

using gpu::detail::kLoopTileNnz;
using gpu::detail::kLoopTileRows;
using gpu::detail::LoopItem;

std::vector<eid_t> offsets(const std::vector<eid_t>& lengths) {
  std::vector<eid_t> rowptr{0};
  for (eid_t l : lengths) rowptr.push_back(rowptr.back() + l);
  return rowptr;
}

// Walks the items in order and checks they tile rows and nonzeros exactly.
void check_items(const std::vector<eid_t>& lengths) {
  const std::vector<eid_t> rowptr = offsets(lengths);
  int long_rows = -1;
  const std::vector<LoopItem> items = gpu::detail::loop_items(rowptr, long_rows);
  vid_t row = 0;
  eid_t nz = 0;
  int slots = 0;
  for (std::size_t t = 0; t < items.size();) {
    const LoopItem& item = items[t];
    ASSERT_EQ(item.first_row, row) << "item " << t;
    ASSERT_EQ(item.begin, nz) << "item " << t;
    if (item.rows > 0) {
      EXPECT_LE(item.rows, kLoopTileRows);
      EXPECT_LE(item.end - item.begin, kLoopTileNnz);
      EXPECT_EQ(item.end, rowptr[row + item.rows]);
      row += item.rows;
      nz = item.end;
      ++t;
      continue;
    }
    // The pieces of one long row, each but the last a full tile.
    const eid_t length = lengths[row];
    EXPECT_GT(length, kLoopTileNnz);
    EXPECT_EQ(item.slot, slots);
    ASSERT_EQ(item.chunks, int((length + kLoopTileNnz - 1) / kLoopTileNnz));
    for (int c = 0; c < item.chunks; ++c, ++t) {
      ASSERT_LT(t, items.size());
      EXPECT_EQ(items[t].rows, 0);
      EXPECT_EQ(items[t].first_row, row);
      EXPECT_EQ(items[t].slot, slots);
      EXPECT_EQ(items[t].begin, nz);
      EXPECT_EQ(items[t].end, std::min(nz + kLoopTileNnz, rowptr[row + 1]));
      nz = items[t].end;
    }
    ++slots;
    ++row;
  }
  EXPECT_EQ(row, vid_t(lengths.size()));
  EXPECT_EQ(nz, rowptr.back());
  EXPECT_EQ(long_rows, slots);
}

TEST(LoopItems, TilesEveryRowOnce) {
  check_items({});
  check_items({0});
  check_items(std::vector<eid_t>(100, 0));  // empty rows only: tiles of 32 rows
  check_items({kLoopTileNnz, kLoopTileNnz + 1, 1, kLoopTileNnz - 1, 2, 5 * kLoopTileNnz, 0, 3});
  std::mt19937_64 rng(3);
  std::vector<eid_t> power_law(20'000);
  for (auto& l : power_law) l = eid_t(std::exp2(double(rng() % 1000) / 100.0)) - 1;  // 0 .. ~1000
  check_items(power_law);
}

TEST(LoopItems, PacksShortRowsAndSplitsLongOnes) {
  int long_rows = 0;
  // 64 rows of 2: two tiles of 32 rows; one row of 300: three pieces.
  std::vector<eid_t> lengths(64, 2);
  lengths.push_back(300);
  const auto items = gpu::detail::loop_items(offsets(lengths), long_rows);
  ASSERT_EQ(items.size(), 5u);
  EXPECT_EQ(items[0].rows, 32);
  EXPECT_EQ(items[1].rows, 32);
  EXPECT_EQ(items[2].rows, 0);
  EXPECT_EQ(items[4].end - items[4].begin, 300 - 2 * kLoopTileNnz);
  EXPECT_EQ(long_rows, 1);
}

}  // namespace
}  // namespace spgraph::test
