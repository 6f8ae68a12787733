// graphblas::Matrix / Vector: host round trips, pattern and empty shapes, dense access.
#include <cstdint>
#include <random>
#include <stdexcept>

#include "small_matrices.hpp"

namespace spgraph::test {
namespace {

TEST(GraphblasContainers, CsrRoundTripKeepsDimensionsEntriesAndValues) {
  const Csr<double> h = csr<double>(3, 5, {{0, 4, 1.5}, {0, 1, -2}, {2, 0, 7}, {2, 3, 0}});
  const gb::Matrix<double> m = gb::from_host(h);
  EXPECT_EQ(m.nrows(), 3);
  EXPECT_EQ(m.ncols(), 5);
  EXPECT_EQ(m.nnz(), 4);
  const Csr<double> back = gb::to_host(m);
  EXPECT_EQ(back.rowptr, (std::vector<eid_t>{0, 2, 2, 4}));
  EXPECT_EQ(back.col, (std::vector<vid_t>{1, 4, 0, 3}));
  EXPECT_EQ(back.val, (std::vector<double>{-2, 1.5, 7, 0}));  // a stored zero stays an entry
  EXPECT_EQ(gb::to_host(m).col, back.col) << "to_host must leave the matrix intact";
}

TEST(GraphblasContainers, PatternCsrBecomesAllOnes) {
  Csr<std::int32_t> h = csr<std::int32_t>(3, 3, {{0, 1, 9}, {1, 0, 9}, {1, 2, 9}});
  h.val.clear();
  ASSERT_TRUE(h.is_pattern());
  const auto m = gb::from_host(h);
  EXPECT_TRUE(same_matrix(m, 3, 3, {{0, 1, 1}, {1, 0, 1}, {1, 2, 1}}));
  EXPECT_FALSE(gb::to_host(m).is_pattern()) << "to_host always returns values";
}

TEST(GraphblasContainers, BoolValuesSurviveVectorBoolStorage) {
  const auto m = matrix<bool>(2, 3, {{0, 0, true}, {0, 2, false}, {1, 1, true}});
  EXPECT_TRUE(same_matrix(m, 2, 3, {{0, 0, true}, {0, 2, false}, {1, 1, true}}));
}

TEST(GraphblasContainers, EmptyShapes) {
  const auto zero = gb::from_host(Csr<float>{});
  EXPECT_EQ(zero.nrows(), 0);
  EXPECT_EQ(zero.ncols(), 0);
  EXPECT_EQ(zero.nnz(), 0);
  const Csr<float> zero_back = gb::to_host(zero);
  EXPECT_EQ(zero_back.rowptr, std::vector<eid_t>{0});

  Csr<float> h;
  h.nrows = h.ncols = 5;
  h.rowptr.assign(6, 0);
  const auto none = gb::from_host(h);
  EXPECT_EQ(none.nnz(), 0);
  EXPECT_TRUE(same_matrix<float>(none, 5, 5, {}));
  EXPECT_TRUE(same_matrix<float>(gb::Matrix<float>(2, 7), 2, 7, {}));
}

TEST(GraphblasContainers, UnsortedOrDuplicateColumnsAreRejected) {
  Csr<double> unsorted = csr<double>(2, 3, {{0, 0, 1}, {0, 2, 2}});
  std::swap(unsorted.col[0], unsorted.col[1]);
  std::swap(unsorted.val[0], unsorted.val[1]);
  EXPECT_THROW(gb::from_host(unsorted), Error);
  Csr<double> duplicate = csr<double>(2, 3, {{1, 1, 1}, {1, 2, 2}});
  duplicate.col[1] = 1;
  EXPECT_THROW(gb::from_host(duplicate), Error);
}

TEST(GraphblasContainers, LargeRandomRoundTrip) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<vid_t> pick(0, 99'999);
  std::vector<Entry<float>> es;
  for (int k = 0; k < 500'000; ++k) es.push_back({pick(rng), pick(rng), float(k % 97)});
  std::sort(es.begin(), es.end(), [](auto& a, auto& b) { return std::tie(a.row, a.col) < std::tie(b.row, b.col); });
  es.erase(std::unique(es.begin(), es.end(), [](auto& a, auto& b) { return a.row == b.row && a.col == b.col; }),
           es.end());
  const Csr<float> h = csr<float>(100'000, 100'000, es);
  const Csr<float> back = gb::to_host(gb::from_host(h));
  EXPECT_EQ(back.rowptr, h.rowptr);
  EXPECT_EQ(back.col, h.col);
  EXPECT_EQ(back.val, h.val);
}

TEST(GraphblasContainers, CloneIsIndependentAndMoveLeavesNoMatrix) {
  auto a = example_a<double>();
  auto copy = a.clone();
  gb::apply(a, a, unary::Negate{});
  EXPECT_TRUE(same_matrix(copy, 4, 4, {{0, 1, 2}, {0, 2, 3}, {1, 3, 4}, {2, 0, 1}, {2, 3, 5}}));
  gb::Matrix<double> moved = std::move(a);
  EXPECT_FALSE(a);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  EXPECT_EQ(a.nrows(), 0);
  EXPECT_EQ(moved.nnz(), 5);
  gb::Matrix<double> out;
  EXPECT_THROW(gb::transpose(out, a), Error);  // a moved-from input is an error, not a crash
}

TEST(GraphblasContainers, VectorRoundTripAndFill) {
  const std::vector<std::int64_t> x{3, -1, 0, 7};
  EXPECT_EQ(gb::to_host(gb::from_host(x)), x);
  EXPECT_EQ(gb::to_host(gb::Vector<float>(3, 2.5f)), (std::vector<float>{2.5f, 2.5f, 2.5f}));
  EXPECT_EQ(gb::to_host(gb::from_host(std::vector<bool>{true, false, true})), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(gb::Vector<double>(0, 1.0).size(), 0u);
  EXPECT_TRUE(gb::to_host(gb::from_host(std::vector<double>{})).empty());
  // Byte vectors hold compact per-vertex data (PageRank's out-degree codes), the whole range.
  const std::vector<std::uint8_t> bytes{0, 1, 254, 255};
  EXPECT_EQ(gb::to_host(gb::from_host(bytes)), bytes);
  EXPECT_EQ(gb::to_host(gb::Vector<std::uint8_t>(2, 255)), (std::vector<std::uint8_t>{255, 255}));
}

TEST(GraphblasContainers, WithDenseWritesThroughTheVectorsOwnArray) {
  auto v = gb::from_host(std::vector<double>{1, 2, 3});
  gb::with_dense(v, [](double* d, std::size_t n) {
    ASSERT_EQ(n, 3u);
    for (std::size_t i = 0; i < n; ++i) d[i] = d[i] * 10 + 1;
  });
  EXPECT_EQ(gb::to_host(v), (std::vector<double>{11, 21, 31}));
}

TEST(GraphblasContainers, WithDenseExpandsAVectorStoredAsOneValue) {
  // apply(One) gives every entry the same value, which GraphBLAS stores once (iso).
  auto v = gb::from_host(std::vector<std::int32_t>{4, 5, 6, 7});
  gb::apply(v, v, unary::One{});
  std::vector<std::int32_t> seen;
  gb::with_dense(v, [&](std::int32_t* d, std::size_t n) {
    seen.assign(d, d + n);
    d[2] = 9;
  });
  EXPECT_EQ(seen, (std::vector<std::int32_t>{1, 1, 1, 1}));
  EXPECT_EQ(gb::to_host(v), (std::vector<std::int32_t>{1, 1, 9, 1}));
}

TEST(GraphblasContainers, WithDenseGivesTheArrayBackWhenTheCallbackThrows) {
  auto v = gb::from_host(std::vector<float>{1, 2});
  EXPECT_THROW(gb::with_dense(v, [](float* d, std::size_t) {
                 d[0] = 5;
                 throw std::runtime_error("stop");
               }),
               std::runtime_error);
  EXPECT_EQ(gb::to_host(v), (std::vector<float>{5, 2}));
}

}  // namespace
}  // namespace spgraph::test
