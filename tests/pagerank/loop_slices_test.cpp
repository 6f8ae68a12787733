// gpu::MxvLoop's slices (gpu/loop_slices.hpp), built on the host: one per block, every row ends
// in exactly one, every nonzero lies in exactly one, they hold equal work (a row end weighing
// one or more entries) but for the rows a cut moved to the end of, and a row cut between slices
// names the first block holding a piece of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "spgraph/error.hpp"
#include "gpu/common/loop_slices.hpp"

namespace spgraph::test {
namespace {

using gpu::detail::LoopSlice;
using gpu::detail::LoopSlicePlan;

std::vector<eid_t> offsets(const std::vector<eid_t>& lengths) {
  std::vector<eid_t> rowptr{0};
  for (eid_t l : lengths) rowptr.push_back(rowptr.back() + l);
  return rowptr;
}

LoopSlicePlan check_slices(const std::vector<eid_t>& lengths, int max_blocks, eid_t weight = 1) {
  const std::vector<eid_t> rowptr = offsets(lengths);
  const LoopSlicePlan plan = gpu::detail::loop_slices(rowptr, max_blocks, weight);
  EXPECT_GE(plan.slices.size(), 1u);
  EXPECT_LE(plan.slices.size(), std::size_t(max_blocks));
  const eid_t work = weight * eid_t(lengths.size()) + rowptr.back();
  const eid_t share = (work + eid_t(plan.slices.size()) - 1) / eid_t(plan.slices.size());
  vid_t row = 0;
  eid_t nz = 0;
  int open_from = -1;  // the first block holding a piece of the row now open
  for (std::size_t b = 0; b < plan.slices.size(); ++b) {
    SCOPED_TRACE("block " + std::to_string(b));
    const LoopSlice& s = plan.slices[b];
    EXPECT_EQ(s.first_row, row);
    EXPECT_EQ(s.begin, nz);
    const eid_t rows = s.end_row - s.first_row, nnz = s.end - s.begin;
    EXPECT_GE(rows, 0);
    EXPECT_GE(nnz, 0);
    EXPECT_LE(weight * rows + nnz, share + 2 * weight + gpu::detail::kLoopSnapRow);
    EXPECT_LE(nnz, plan.max_nnz);
    EXPECT_LE(rows, plan.max_rows);
    for (vid_t r = s.first_row; r < s.end_row; ++r) EXPECT_LE(rowptr[r + 1], s.end) << "row " << r;
    const bool head = rows > 0 && rowptr[s.first_row] < s.begin;
    EXPECT_EQ(s.head_from, head ? open_from : -1);
    if (rows > 0) open_from = -1;
    const bool tail = s.end_row < vid_t(lengths.size()) && s.end > std::max(rowptr[s.end_row], s.begin);
    EXPECT_EQ(s.tail, tail);
    if (tail && open_from < 0) open_from = int(b);
    row = s.end_row;
    nz = s.end;
  }
  EXPECT_EQ(row, vid_t(lengths.size()));
  EXPECT_EQ(nz, rowptr.back());
  EXPECT_EQ(open_from, -1);
  return plan;
}

TEST(LoopSlices, CoverEveryRowAndNonzeroOnce) {
  check_slices({}, 132);
  check_slices({0}, 132);
  check_slices(std::vector<eid_t>(100'000, 0), 132);  // empty rows only
  check_slices({5, 0, 3, 40'000, 1, 2, 0, 70'000, 9}, 132);
  std::mt19937_64 rng(3);
  std::vector<eid_t> power_law(200'000);
  for (auto& l : power_law) l = eid_t(std::exp2(double(rng() % 1400) / 100.0)) - 1;  // 0 .. ~16000
  for (int blocks : {1, 7, 132})
    for (eid_t weight : {1, 3}) check_slices(power_law, blocks, weight);
}

TEST(LoopSlices, SmallGraphsRunOnFewerBlocks) {
  EXPECT_EQ(check_slices(std::vector<eid_t>(34, 4), 132).slices.size(), 1u);  // karate's size
  EXPECT_EQ(check_slices(std::vector<eid_t>(100'000, 20), 132).slices.size(), 132u);
}

TEST(LoopSlices, ARowOverManyBlocks) {
  // One row of ten blocks' worth between short ones: the block where it ends names the first.
  std::vector<eid_t> lengths(1000, 1);
  lengths[500] = 30'000;
  const LoopSlicePlan plan = check_slices(lengths, 16);
  int heads = 0;
  for (const LoopSlice& s : plan.slices) heads += s.head_from >= 0;
  EXPECT_EQ(heads, 1);
}

TEST(LoopSlices, CutsMoveToTheEndsOfShortRows) {
  // Rows of 50: no cut falls inside one, and no block waits for another's piece.
  const LoopSlicePlan plan = check_slices(std::vector<eid_t>(20'000, 50), 132);
  for (const LoopSlice& s : plan.slices) {
    EXPECT_FALSE(s.tail);
    EXPECT_EQ(s.head_from, -1);
  }
}

TEST(LoopSlices, RowsWeighMore) {
  // Half the rows empty, half of 20 entries: with a row end weighing 3 entries, the slices
  // over the empty rows hold more rows than the others.
  std::vector<eid_t> lengths(40'000, 0);
  std::fill(lengths.begin() + 20'000, lengths.end(), 20);
  const LoopSlicePlan plan = check_slices(lengths, 100, 3);
  const LoopSlice& first = plan.slices.front();
  const LoopSlice& last = plan.slices.back();
  EXPECT_EQ(first.end - first.begin, 0);
  EXPECT_NEAR(double(first.end_row - first.first_row), (20'000 * 20 + 3 * 40'000) / 100.0 / 3, 2);
  EXPECT_NEAR(double(last.end - last.begin + 3 * (last.end_row - last.first_row)), (20'000 * 20 + 3 * 40'000) / 100.0,
              2 * 3 + 20);
}

TEST(LoopSlices, RejectsNoBlocksAndWeightlessRows) {
  EXPECT_THROW(gpu::detail::loop_slices({0, 1}, 0, 1), Error);
  EXPECT_THROW(gpu::detail::loop_slices({0, 1}, 4, 0), Error);
}

}  // namespace
}  // namespace spgraph::test
