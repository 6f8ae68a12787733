// ewise_add, ewise_mult and apply on hand-computed cases. A is the 4 x 4 example;
// E = {(0,1)=10, (1,1)=20, (2,3)=30} overlaps A at (0,1) and (2,3).
#include <cstdint>
#include <string>

#include "small_matrices.hpp"

namespace spgraph::test {
namespace {

gb::Matrix<double> example_e() { return matrix<double>(4, 4, {{0, 1, 10}, {1, 1, 20}, {2, 3, 30}}); }

TEST(GraphblasEwise, AddIsTheUnionOfPatterns) {
  gb::Matrix<double> C;
  gb::ewise_add<monoid::Plus>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 12}, {0, 2, 3}, {1, 1, 20}, {1, 3, 4}, {2, 0, 1}, {2, 3, 35}}));
  gb::ewise_add<monoid::Min>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 2}, {0, 2, 3}, {1, 1, 20}, {1, 3, 4}, {2, 0, 1}, {2, 3, 5}}));
  gb::ewise_add<mult::Second>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 10}, {0, 2, 3}, {1, 1, 20}, {1, 3, 4}, {2, 0, 1}, {2, 3, 30}}));
}

TEST(GraphblasEwise, MultIsTheIntersection) {
  gb::Matrix<double> C;
  gb::ewise_mult<mult::Times>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 20}, {2, 3, 150}}));
  gb::ewise_mult<mult::First>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 2}, {2, 3, 5}}));
  gb::ewise_mult<mult::Pair>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 1}, {2, 3, 1}}));
  gb::ewise_mult<monoid::Max>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 10}, {2, 3, 30}}));
}

TEST(GraphblasEwise, BoolAndLogicalOperators) {
  const auto A = matrix<bool>(2, 2, {{0, 0, true}, {0, 1, false}, {1, 1, true}});
  const auto B = matrix<bool>(2, 2, {{0, 1, true}, {1, 0, true}, {1, 1, false}});
  gb::Matrix<bool> C;
  gb::ewise_mult<mult::Land>(C, A, B);
  EXPECT_TRUE(same_matrix<bool>(C, 2, 2, {{0, 1, false}, {1, 1, false}}));
  gb::ewise_add<monoid::Lor>(C, A, B);
  EXPECT_TRUE(same_matrix<bool>(C, 2, 2, {{0, 0, true}, {0, 1, true}, {1, 0, true}, {1, 1, true}}));
  // lor over numbers: 1 where either is nonzero
  const auto X = matrix<std::int32_t>(1, 3, {{0, 0, 0}, {0, 1, 5}, {0, 2, 0}});
  const auto Y = matrix<std::int32_t>(1, 3, {{0, 0, 0}, {0, 1, 0}, {0, 2, -2}});
  gb::Matrix<std::int32_t> Z;
  gb::ewise_mult<monoid::Lor>(Z, X, Y);
  EXPECT_TRUE(same_matrix<std::int32_t>(Z, 1, 3, {{0, 0, 0}, {0, 1, 1}, {0, 2, 1}}));
}

TEST(GraphblasEwise, EmptyAndRectangular) {
  gb::Matrix<float> C;
  gb::ewise_add<monoid::Plus>(C, gb::Matrix<float>(0, 0), gb::Matrix<float>(0, 0));
  EXPECT_TRUE(same_matrix<float>(C, 0, 0, {}));
  const auto R = matrix<float>(2, 3, {{0, 2, 1.5f}, {1, 0, 2}});
  gb::ewise_add<monoid::Plus>(C, R, gb::Matrix<float>(2, 3));
  EXPECT_TRUE(same_matrix<float>(C, 2, 3, {{0, 2, 1.5f}, {1, 0, 2}}));
  gb::ewise_mult<mult::Times>(C, R, gb::Matrix<float>(2, 3));
  EXPECT_TRUE(same_matrix<float>(C, 2, 3, {}));
  EXPECT_THROW(gb::ewise_add<monoid::Plus>(C, R, gb::Matrix<float>(3, 2)), Error);
}

TEST(GraphblasEwise, Vectors) {
  using Vi = std::vector<std::int64_t>;
  const auto x = gb::from_host(Vi{1, 2, 3, 4}), y = gb::from_host(Vi{4, 3, 2, 1});
  gb::Vector<std::int64_t> z;
  gb::ewise_add<monoid::Plus>(z, x, y);
  EXPECT_EQ(gb::to_host(z), (Vi{5, 5, 5, 5}));
  gb::ewise_add<monoid::Max>(z, x, y);
  EXPECT_EQ(gb::to_host(z), (Vi{4, 3, 3, 4}));
  gb::ewise_mult<mult::Times>(z, x, y);
  EXPECT_EQ(gb::to_host(z), (Vi{4, 6, 6, 4}));
}

TEST(GraphblasEwise, PositionalOperatorIsNotABinaryOperator) {
  gb::Matrix<std::int32_t> C;
  EXPECT_THROW(gb::ewise_mult<mult::SecondI>(C, example_a<std::int32_t>(), example_a<std::int32_t>()), Error);
}

TEST(GraphblasApply, BuiltInUnaryOperators) {
  const auto S = matrix<double>(2, 3, {{0, 0, -1.5}, {0, 2, 2}, {1, 1, 0}});
  gb::Matrix<double> C;
  gb::apply(C, S, unary::Abs{});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, 1.5}, {0, 2, 2}, {1, 1, 0}}));
  gb::apply(C, S, unary::Negate{});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, 1.5}, {0, 2, -2}, {1, 1, -0.0}}));
  gb::apply(C, S, unary::One{});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, 1}, {0, 2, 1}, {1, 1, 1}}));
  gb::apply(C, S, unary::Identity{});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, -1.5}, {0, 2, 2}, {1, 1, 0}}));
  gb::apply(C, S, unary::Scale{4});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, -6}, {0, 2, 8}, {1, 1, 0}}));
  gb::apply(C, S, unary::AddScalar{0.5});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, -1}, {0, 2, 2.5}, {1, 1, 0.5}}));
  gb::apply(C, S, unary::Pow{2});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, 2.25}, {0, 2, 4}, {1, 1, 0}}));
}

TEST(GraphblasApply, ScalarsComputeInDoubleThenConvert) {
  // unary_ops.hpp: T(x * s) with s a double, so int 3 * 0.5 = 1.5 truncates to 1; an entry
  // whose value becomes 0 stays an entry.
  const auto A = matrix<std::int32_t>(1, 4, {{0, 0, 3}, {0, 1, 1}, {0, 2, -3}, {0, 3, 8}});
  gb::Matrix<std::int32_t> C;
  gb::apply(C, A, unary::Scale{0.5});
  EXPECT_TRUE(same_matrix<std::int32_t>(C, 1, 4, {{0, 0, 1}, {0, 1, 0}, {0, 2, -1}, {0, 3, 4}}));
  gb::apply(C, A, unary::AddScalar{0.75});
  EXPECT_TRUE(same_matrix<std::int32_t>(C, 1, 4, {{0, 0, 3}, {0, 1, 1}, {0, 2, -2}, {0, 3, 8}}));
  gb::apply(C, A, unary::Pow{0.5});  // sqrt(8) = 2.83 -> 2
  EXPECT_EQ(entries(gb::to_host(C))[3].val, 2);
  // float: the product is formed in double, then rounded once to float
  const auto F = matrix<float>(1, 1, {{0, 0, 0.1f}});
  gb::Matrix<float> G;
  gb::apply(G, F, unary::Scale{3});
  EXPECT_EQ(entries(gb::to_host(G))[0].val, static_cast<float>(double(0.1f) * 3.0));
}

TEST(GraphblasApply, VectorsAndPatternInputs) {
  auto v = gb::from_host(std::vector<float>{1, -2, 3});
  gb::apply(v, v, unary::Scale{-2});
  EXPECT_EQ(gb::to_host(v), (std::vector<float>{-2, 4, -6}));
  Csr<double> p = gb::to_host(example_a<double>());
  p.val.clear();
  gb::Matrix<double> C;
  gb::apply(C, gb::from_host(p), unary::AddScalar{1});
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 2}, {0, 2, 2}, {1, 3, 2}, {2, 0, 2}, {2, 3, 2}}));
}

struct Square {
  template <class T> T operator()(T x) const { return x * x; }
};

TEST(GraphblasApply, UserDefinedOperatorThrows) {
  gb::Matrix<double> C;
  EXPECT_THROW(gb::apply(C, example_a<double>(), Square{}), Error);
}

}  // namespace
}  // namespace spgraph::test
