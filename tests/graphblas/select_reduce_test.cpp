// select (thresholds and top-k per row), reductions and transpose on hand-computed cases.
#include <cstdint>

#include "small_matrices.hpp"

namespace spgraph::test {
namespace {

using Kind = SelectSpec::Kind;

// S: row 0 0.5 -1 2 2; row 1 3 . 0 .; row 2 . 1 . 1
gb::Matrix<double> example_s() {
  return matrix<double>(3, 4, {{0, 0, 0.5}, {0, 1, -1}, {0, 2, 2}, {0, 3, 2}, {1, 0, 3}, {1, 2, 0}, {2, 1, 1},
                               {2, 3, 1}});
}

SelectSpec spec(Kind kind, double threshold = 0, std::int64_t k = 0) {
  SelectSpec s;
  s.kind = kind;
  s.threshold = threshold;
  s.k = k;
  return s;
}

TEST(GraphblasSelect, Thresholds) {
  gb::Matrix<double> C;
  gb::select(C, example_s(), spec(Kind::GreaterEqual, 1));
  EXPECT_TRUE(same_matrix(C, 3, 4, {{0, 2, 2}, {0, 3, 2}, {1, 0, 3}, {2, 1, 1}, {2, 3, 1}}));
  gb::select(C, example_s(), spec(Kind::Greater, 1));
  EXPECT_TRUE(same_matrix(C, 3, 4, {{0, 2, 2}, {0, 3, 2}, {1, 0, 3}}));
  gb::select(C, example_s(), spec(Kind::LessEqual, 0.5));
  EXPECT_TRUE(same_matrix(C, 3, 4, {{0, 0, 0.5}, {0, 1, -1}, {1, 2, 0}}));
  gb::select(C, example_s(), spec(Kind::NotEqualZero, 99));  // the threshold plays no part
  EXPECT_TRUE(same_matrix(C, 3, 4, {{0, 0, 0.5}, {0, 1, -1}, {0, 2, 2}, {0, 3, 2}, {1, 0, 3}, {2, 1, 1}, {2, 3, 1}}));
}

TEST(GraphblasSelect, ThresholdComparesInDouble) {
  const auto I = matrix<std::int32_t>(1, 3, {{0, 0, 1}, {0, 1, 2}, {0, 2, 3}});
  gb::Matrix<std::int32_t> C;
  gb::select(C, I, spec(Kind::GreaterEqual, 2.5));  // not 2: the threshold is not rounded to int
  EXPECT_TRUE(same_matrix<std::int32_t>(C, 1, 3, {{0, 2, 3}}));
  gb::select(C, I, spec(Kind::GreaterEqual, 2));
  EXPECT_TRUE(same_matrix<std::int32_t>(C, 1, 3, {{0, 1, 2}, {0, 2, 3}}));
  // double(0.1f) = 0.10000000149..., just below this threshold, although float(threshold) is 0.1f
  const auto F = matrix<float>(1, 2, {{0, 0, 0.1f}, {0, 1, 0.2f}});
  gb::Matrix<float> G;
  gb::select(G, F, spec(Kind::GreaterEqual, 0.1000000015));
  EXPECT_TRUE(same_matrix<float>(G, 1, 2, {{0, 1, 0.2f}}));
  const auto B = matrix<bool>(1, 2, {{0, 0, true}, {0, 1, false}});
  gb::Matrix<bool> D;
  gb::select(D, B, spec(Kind::Greater, 0.5));
  EXPECT_TRUE(same_matrix<bool>(D, 1, 2, {{0, 0, true}}));
}

TEST(GraphblasSelect, TopKPerRowLargestFirstTiesBySmallerColumn) {
  gb::Matrix<double> C;
  gb::select(C, example_s(), spec(Kind::TopKPerRow, 0, 2));
  EXPECT_TRUE(same_matrix(C, 3, 4, {{0, 2, 2}, {0, 3, 2}, {1, 0, 3}, {1, 2, 0}, {2, 1, 1}, {2, 3, 1}}));
  gb::select(C, example_s(), spec(Kind::TopKPerRow, 0, 1));
  EXPECT_TRUE(same_matrix(C, 3, 4, {{0, 2, 2}, {1, 0, 3}, {2, 1, 1}}));
  gb::select(C, example_s(), spec(Kind::TopKPerRow, 0, 3));
  EXPECT_TRUE(same_matrix(C, 3, 4, {{0, 0, 0.5}, {0, 2, 2}, {0, 3, 2}, {1, 0, 3}, {1, 2, 0}, {2, 1, 1}, {2, 3, 1}}));
  gb::select(C, example_s(), spec(Kind::TopKPerRow, 0, 0));
  EXPECT_TRUE(same_matrix<double>(C, 3, 4, {}));
  EXPECT_THROW(gb::select(C, example_s(), spec(Kind::TopKPerRow, 0, -1)), Error);
}

TEST(GraphblasSelect, TopKOnPatternAndEmptyMatrices) {
  Csr<float> p = csr<float>(2, 5, {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}, {1, 0, 0}});
  p.val.clear();  // all ones: every row is one big tie
  gb::Matrix<float> C;
  gb::select(C, gb::from_host(p), spec(Kind::TopKPerRow, 0, 2));
  EXPECT_TRUE(same_matrix<float>(C, 2, 5, {{0, 1, 1}, {0, 2, 1}, {1, 0, 1}}));
  gb::select(C, gb::Matrix<float>(0, 0), spec(Kind::TopKPerRow, 0, 2));
  EXPECT_TRUE(same_matrix<float>(C, 0, 0, {}));
  gb::select(C, gb::Matrix<float>(3, 3), spec(Kind::GreaterEqual, 0));
  EXPECT_TRUE(same_matrix<float>(C, 3, 3, {}));
}

TEST(GraphblasSelect, TopKInPlace) {
  auto S = example_s();
  gb::select(S, S, spec(Kind::TopKPerRow, 0, 1));
  EXPECT_TRUE(same_matrix(S, 3, 4, {{0, 2, 2}, {1, 0, 3}, {2, 1, 1}}));
}

// Reductions of the 4 x 4 example A: rows 0..3 hold {2, 3}, {4}, {1, 5}, {}; columns {1},
// {2}, {3}, {4, 5}.
TEST(GraphblasReduce, RowsAndColumnsWithEmptyOnesAtTheIdentity) {
  const auto A = example_a<double>();
  gb::Vector<double> y;
  gb::reduce_rows<monoid::Plus>(y, A);
  EXPECT_EQ(gb::to_host(y), (std::vector<double>{5, 4, 6, 0}));
  gb::reduce_rows<monoid::Min>(y, A);
  EXPECT_EQ(gb::to_host(y), (std::vector<double>{2, 4, 1, inf<double>()}));
  gb::reduce_rows<monoid::Max>(y, A);
  EXPECT_EQ(gb::to_host(y), (std::vector<double>{3, 4, 5, -inf<double>()}));
  gb::reduce_cols<monoid::Plus>(y, A);
  EXPECT_EQ(gb::to_host(y), (std::vector<double>{1, 2, 3, 9}));
  gb::reduce_cols<monoid::Max>(y, gb::Matrix<double>(2, 3));
  EXPECT_EQ(gb::to_host(y), (std::vector<double>(3, -inf<double>())));
}

TEST(GraphblasReduce, RectangularAndIntegerIdentities) {
  const auto R = matrix<std::int32_t>(2, 3, {{0, 0, 4}, {0, 2, -1}});
  gb::Vector<std::int32_t> y;
  gb::reduce_rows<monoid::Min>(y, R);
  EXPECT_EQ(gb::to_host(y), (std::vector<std::int32_t>{-1, std::numeric_limits<std::int32_t>::max()}));
  gb::reduce_cols<monoid::Plus>(y, R);
  EXPECT_EQ(gb::to_host(y), (std::vector<std::int32_t>{4, 0, -1}));
}

TEST(GraphblasReduce, Scalars) {
  const auto A = example_a<double>();
  EXPECT_EQ(gb::reduce_scalar<monoid::Plus>(A), 15);
  EXPECT_EQ(gb::reduce_scalar<monoid::Max>(A), 5);
  EXPECT_EQ(gb::reduce_scalar<monoid::Min>(gb::Matrix<double>(3, 3)), inf<double>());
  EXPECT_EQ(gb::reduce_scalar<monoid::Plus>(gb::Matrix<double>(0, 0)), 0);
  EXPECT_EQ(gb::reduce_scalar<monoid::Plus>(gb::from_host(std::vector<std::int64_t>{1, 2, 3, 4})), 10);
  EXPECT_EQ(gb::reduce_scalar<monoid::Min>(gb::from_host(std::vector<float>{})), inf<float>());
  EXPECT_TRUE(gb::reduce_scalar<monoid::Lor>(matrix<bool>(2, 2, {{0, 1, false}, {1, 0, true}})));
  EXPECT_FALSE(gb::reduce_scalar<monoid::Lor>(matrix<bool>(2, 2, {{0, 1, false}})));
  EXPECT_THROW(gb::reduce_scalar<monoid::Lor>(A), Error);  // GraphBLAS has lor over bool only
}

TEST(GraphblasTranspose, SquareRectangularAndInPlace) {
  gb::Matrix<double> C;
  gb::transpose(C, example_a<double>());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 2, 1}, {1, 0, 2}, {2, 0, 3}, {3, 1, 4}, {3, 2, 5}}));
  auto R = matrix<double>(2, 3, {{0, 0, 1}, {0, 2, 2}, {1, 1, 3}});
  gb::transpose(R, R);
  EXPECT_TRUE(same_matrix(R, 3, 2, {{0, 0, 1}, {2, 0, 2}, {1, 1, 3}}));
  gb::transpose(C, gb::Matrix<double>(0, 5));
  EXPECT_TRUE(same_matrix<double>(C, 5, 0, {}));
}

}  // namespace
}  // namespace spgraph::test
