// The process grid (spgraph/dist/process_grid.hpp): its default and parsed shapes, the block
// split of an index range, and the row and column communicators of every shape of P ranks
// (1x3, 3x1, 2x2, 1x4, 4x1, 2x1, ...), checked by collectives against the serial answer.
#include <limits>
#include <string>
#include <vector>

#include "dist_test_support.hpp"
#include "spgraph/dist/process_grid.hpp"
#include "test_support.hpp"

namespace spgraph::dist::test {
namespace {

using spgraph::test::error_of;

TEST(GridShape, DefaultIsTheMostNearlySquareWithFewerRows) {
  const std::vector<std::pair<int, GridShape>> cases = {
      {1, {1, 1}},  {2, {1, 2}},  {3, {1, 3}},  {4, {2, 2}},   {5, {1, 5}},    {6, {2, 3}},
      {7, {1, 7}},  {8, {2, 4}},  {9, {3, 3}},  {12, {3, 4}},  {16, {4, 4}},   {18, {3, 6}},
      {32, {4, 8}}, {97, {1, 97}}, {1024, {32, 32}}, {1000, {25, 40}}, {2048, {32, 64}}};
  for (const auto& [p, shape] : cases) {
    EXPECT_EQ(default_grid_shape(p), shape) << p << " ranks: " << to_string(default_grid_shape(p));
  }
  EXPECT_NE(error_of([] { default_grid_shape(0); }).find("at least 1"), std::string::npos);
}

TEST(GridShape, ParsesRxC) {
  EXPECT_EQ(parse_grid_shape("2x2", 4), (GridShape{2, 2}));
  EXPECT_EQ(parse_grid_shape("1x4", 4), (GridShape{1, 4}));
  EXPECT_EQ(parse_grid_shape("4X1", 4), (GridShape{4, 1}));
  EXPECT_EQ(parse_grid_shape("3x1", 3), (GridShape{3, 1}));
  EXPECT_EQ(parse_grid_shape("1x1", 1), (GridShape{1, 1}));
  EXPECT_EQ(to_string(GridShape{2, 3}), "2x3");
}

TEST(GridShape, RefusesWhatIsNotRxCOfTheJob) {
  for (const char* bad : {"", "2", "x2", "2x", "2x2x1", "0x4", "4x0", "-1x4", "+2x2", " 2x2", "2x2 ", "2.0x2", "axb",
                          "2*2", "99999999999x1"}) {
    const std::string msg = error_of([&] { parse_grid_shape(bad, 4); });
    EXPECT_NE(msg.find(std::string("--grid '") + bad + "': expected RxC"), std::string::npos) << bad << ": " << msg;
  }
  const std::string msg = error_of([] { parse_grid_shape("2x3", 4); });
  EXPECT_NE(msg.find("--grid '2x3': a 2x3 grid has 6 ranks, but the job has 4"), std::string::npos) << msg;
  EXPECT_NE(msg.find("the default for 4 is 2x2"), std::string::npos) << msg;
  EXPECT_NE(error_of([] { parse_grid_shape("1x1", 3); }).find("has 1 ranks, but the job has 3"), std::string::npos);
}

TEST(BlockRange, TilesTheRangeEvenlyFirstBlocksLonger) {
  for (std::int64_t n = 0; n <= 24; ++n) {
    for (std::int64_t k = 1; k <= 9; ++k) {
      std::int64_t next = 0;
      for (std::int64_t i = 0; i < k; ++i) {
        const BlockRange b = block_range(n, k, i);
        EXPECT_EQ(b.begin, next) << n << " in " << k << ", block " << i;
        EXPECT_EQ(b.size(), n / k + (i < n % k ? 1 : 0)) << n << " in " << k << ", block " << i;
        for (std::int64_t x = b.begin; x < b.end; ++x) EXPECT_EQ(block_owner(n, k, x), i) << n << " " << k << " " << x;
        next = b.end;
      }
      EXPECT_EQ(next, n);
    }
  }
}

TEST(BlockRange, MoreBlocksThanIndicesLeavesTheLastEmpty) {
  EXPECT_EQ(block_range(2, 4, 0), (BlockRange{0, 1}));
  EXPECT_EQ(block_range(2, 4, 1), (BlockRange{1, 2}));
  EXPECT_TRUE(block_range(2, 4, 2).empty());
  EXPECT_TRUE(block_range(2, 4, 3).empty());
  EXPECT_EQ(block_range(2, 4, 3).begin, 2);
  EXPECT_TRUE(block_range(0, 3, 1).empty());
}

TEST(BlockRange, SixtyFourBitRanges) {
  const std::int64_t n = (std::int64_t(1) << 62) + 4;  // 2 mod 3; far past 2^31, near the top of int64
  const BlockRange last = block_range(n, 3, 2);
  EXPECT_EQ(last.end, n);
  EXPECT_EQ(block_range(n, 3, 0).size(), n / 3 + 1);
  EXPECT_EQ(block_range(n, 3, 1).size(), n / 3 + 1);
  EXPECT_EQ(last.size(), n / 3);
  EXPECT_EQ(block_owner(n, 3, n - 1), 2);
  EXPECT_EQ(block_owner(n, 3, last.begin - 1), 1);
  const std::int64_t top = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(block_range(top, 1024, 1023).end, top);
  EXPECT_EQ(block_owner(top, 1024, top - 1), 1023);
  static_assert(block_range(10, 3, 0) == BlockRange{0, 4});  // usable at compile time
}

TEST(BlockRange, RefusesOutOfRangeArguments) {
  EXPECT_NE(error_of([] { block_range(10, 0, 0); }).find("out of range"), std::string::npos);
  EXPECT_NE(error_of([] { block_range(10, 3, 3); }).find("block 3 of [0, 10) in 3 blocks"), std::string::npos);
  EXPECT_NE(error_of([] { block_range(-1, 3, 0); }).find("out of range"), std::string::npos);
  EXPECT_NE(error_of([] { block_owner(10, 3, 10); }).find("index 10"), std::string::npos);
}

// The grid on each communicator kind, for every shape of the job's P ranks.
class ProcessGridTest : public KindTest {};

INSTANTIATE_TEST_SUITE_P(Kinds, ProcessGridTest, ::testing::ValuesIn(kKinds),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

TEST_P(ProcessGridTest, RowAndColumnCommunicatorsOfEveryShape) {
  Communicator& world = *comm_;
  const int p = world.size(), me = world.rank();
  for (int rows = 1; rows <= p; ++rows) {
    if (p % rows != 0) continue;
    const GridShape shape{rows, p / rows};
    SCOPED_TRACE(to_string(shape));
    ProcessGrid grid(world, shape);
    EXPECT_EQ(grid.shape(), shape);
    EXPECT_EQ(grid.row(), me / shape.cols);
    EXPECT_EQ(grid.col(), me % shape.cols);
    EXPECT_EQ(grid.rank_at(grid.row(), grid.col()), me);
    EXPECT_EQ(grid.row_comm().size(), shape.cols);
    EXPECT_EQ(grid.row_comm().rank(), grid.col());
    EXPECT_EQ(grid.col_comm().size(), shape.rows);
    EXPECT_EQ(grid.col_comm().rank(), grid.row());

    // Along the row: the sum of its world ranks; along the column: its world ranks, in order.
    std::int64_t row_sum = 0;
    for (int c = 0; c < shape.cols; ++c) row_sum += grid.rank_at(grid.row(), c);
    TestBuffer<std::int64_t> mine(world, std::vector<std::int64_t>{me}), sum(world, 1, -1);
    grid.row_comm().allreduce(mine.data(), sum.data(), 1, ReduceOp::Sum);
    EXPECT_EQ(sum.read(), std::vector<std::int64_t>{row_sum});

    std::vector<std::int32_t> column;
    for (int r = 0; r < shape.rows; ++r) column.push_back(grid.rank_at(r, grid.col()));
    TestBuffer<std::int32_t> me32(world, std::vector<std::int32_t>{me}), gathered(world, shape.rows, -1);
    grid.col_comm().allgather(me32.data(), gathered.data(), 1);
    EXPECT_EQ(gathered.read(), column);
  }
}

TEST_P(ProcessGridTest, DefaultShapeAndWrongShapes) {
  Communicator& world = *comm_;
  ProcessGrid grid(world);
  EXPECT_EQ(grid.shape(), default_grid_shape(world.size()));
  EXPECT_LE(grid.rows(), grid.cols());
  const std::string msg = error_of([&] { ProcessGrid wrong(world, {2, world.size()}); });
  EXPECT_NE(msg.find("does not hold the " + std::to_string(world.size()) + " ranks"), std::string::npos) << msg;
}

}  // namespace
}  // namespace spgraph::dist::test
