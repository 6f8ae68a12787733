// Hand-computed cases for the host transforms on one 4 x 4 matrix:
//   row 0: (0,1)=1 (0,3)=2
//   row 1: (1,1)=3 (1,2)=4        (1,1) is a self-loop
//   row 2: (2,0)=5
//   row 3: (3,0)=6 (3,2)=7 (3,3)=8
#include <gtest/gtest.h>

#include <cstdint>

#include "container_test_util.hpp"
#include "spgraph/graph_ops.hpp"

namespace spgraph {
namespace {

using test::make_csr;
using test::same_csr;

template <class V>
Csr<V> sample() {
  return make_csr<V>(4, 4, {0, 2, 4, 5, 8}, {1, 3, 1, 2, 0, 0, 2, 3}, {1, 2, 3, 4, 5, 6, 7, 8});
}
template <class V>
Csr<V> sample_pattern() {
  return make_csr<V>(4, 4, {0, 2, 4, 5, 8}, {1, 3, 1, 2, 0, 0, 2, 3});
}

template <class V>
class GraphOps : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double, std::int32_t, std::int64_t>;
TYPED_TEST_SUITE(GraphOps, ValueTypes);

TYPED_TEST(GraphOps, Transpose) {
  using V = TypeParam;
  auto t = transpose(sample<V>());
  EXPECT_TRUE(same_csr(t, make_csr<V>(4, 4, {0, 2, 4, 6, 8}, {2, 3, 0, 1, 1, 3, 0, 3}, {5, 6, 1, 3, 4, 7, 2, 8})));
  EXPECT_TRUE(same_csr(transpose(sample_pattern<V>()), make_csr<V>(4, 4, {0, 2, 4, 6, 8}, {2, 3, 0, 1, 1, 3, 0, 3})));
}

TYPED_TEST(GraphOps, TransposeRectangular) {
  using V = TypeParam;
  // 2 x 3: (0,2)=1 (1,0)=2 (1,2)=3
  auto t = transpose(make_csr<V>(2, 3, {0, 1, 3}, {2, 0, 2}, {1, 2, 3}));
  EXPECT_TRUE(same_csr(t, make_csr<V>(3, 2, {0, 1, 1, 3}, {1, 0, 1}, {2, 1, 3})));
}

TYPED_TEST(GraphOps, SymmetrizeCombinesMirroredEntries) {
  using V = TypeParam;
  const std::vector<eid_t> rowptr{0, 3, 6, 9, 12};
  const std::vector<vid_t> col{1, 2, 3, 0, 1, 2, 0, 1, 3, 0, 2, 3};
  // (0,3)=2 and (3,0)=6 meet; the diagonal (1,1), (3,3) is kept once, unchanged.
  EXPECT_TRUE(same_csr(symmetrize(sample<V>(), Duplicates::Max),
                       make_csr<V>(4, 4, rowptr, col, {1, 5, 6, 1, 3, 4, 5, 4, 7, 6, 7, 8})));
  EXPECT_TRUE(same_csr(symmetrize(sample<V>(), Duplicates::Sum),
                       make_csr<V>(4, 4, rowptr, col, {1, 5, 8, 1, 3, 4, 5, 4, 7, 8, 7, 8})));
  EXPECT_TRUE(same_csr(symmetrize(sample<V>(), Duplicates::First),
                       make_csr<V>(4, 4, rowptr, col, {1, 5, 2, 1, 3, 4, 5, 4, 7, 6, 7, 8})));
  EXPECT_TRUE(same_csr(symmetrize(sample_pattern<V>()), make_csr<V>(4, 4, rowptr, col)));
}

TYPED_TEST(GraphOps, RemoveSelfLoops) {
  using V = TypeParam;
  EXPECT_TRUE(same_csr(remove_self_loops(sample<V>()),
                       make_csr<V>(4, 4, {0, 2, 3, 4, 6}, {1, 3, 2, 0, 0, 2}, {1, 2, 4, 5, 6, 7})));
}

TYPED_TEST(GraphOps, Triangles) {
  using V = TypeParam;
  EXPECT_TRUE(same_csr(lower_triangle(sample<V>()), make_csr<V>(4, 4, {0, 0, 0, 1, 3}, {0, 0, 2}, {5, 6, 7})));
  EXPECT_TRUE(same_csr(lower_triangle(sample<V>(), false),
                       make_csr<V>(4, 4, {0, 0, 1, 2, 5}, {1, 0, 0, 2, 3}, {3, 5, 6, 7, 8})));
  EXPECT_TRUE(same_csr(upper_triangle(sample<V>()), make_csr<V>(4, 4, {0, 2, 3, 3, 3}, {1, 3, 2}, {1, 2, 4})));
  EXPECT_TRUE(same_csr(upper_triangle(sample<V>(), false),
                       make_csr<V>(4, 4, {0, 2, 4, 4, 5}, {1, 3, 1, 2, 3}, {1, 2, 3, 4, 8})));
  EXPECT_TRUE(same_csr(upper_triangle(sample_pattern<V>()), make_csr<V>(4, 4, {0, 2, 3, 3, 3}, {1, 3, 2})));
}

TYPED_TEST(GraphOps, Degrees) {
  using V = TypeParam;
  EXPECT_EQ(out_degrees(sample<V>()), (std::vector<eid_t>{2, 2, 1, 3}));
  EXPECT_EQ(in_degrees(sample<V>()), (std::vector<eid_t>{2, 2, 2, 2}));
  auto wide = make_csr<V>(1, 5, {0, 3}, {0, 3, 4});
  EXPECT_EQ(in_degrees(wide), (std::vector<eid_t>{1, 0, 0, 1, 1}));
  EXPECT_EQ(out_degrees(wide), (std::vector<eid_t>{3}));
}

TYPED_TEST(GraphOps, DropValues) {
  using V = TypeParam;
  auto p = drop_values(sample<V>());
  EXPECT_TRUE(p.is_pattern());
  EXPECT_TRUE(same_csr(p, sample_pattern<V>()));
}

TEST(GraphOpsBool, TransposeAndSymmetrizeKeepBooleanValues) {
  // (0,1)=true (1,0)=false (1,1)=true
  auto a = make_csr<bool>(2, 2, {0, 1, 3}, {1, 0, 1}, {true, false, true});
  EXPECT_TRUE(same_csr(transpose(a), make_csr<bool>(2, 2, {0, 1, 3}, {1, 0, 1}, {false, true, true})));
  EXPECT_TRUE(same_csr(symmetrize(a, Duplicates::Max), make_csr<bool>(2, 2, {0, 1, 3}, {1, 0, 1}, {true, true, true})));
  EXPECT_TRUE(same_csr(symmetrize(a, Duplicates::First), make_csr<bool>(2, 2, {0, 1, 3}, {1, 0, 1}, {true, false, true})));
}

TEST(Symmetrize, RejectsErrorPolicyRectangularAndUnsortedInput) {
  test::expect_error_mentions([] { symmetrize(sample<double>(), Duplicates::Error); }, {"Duplicates::Error"});
  test::expect_error_mentions([] { symmetrize(make_csr<double>(2, 3, {0, 0, 0}, {})); }, {"square", "2 x 3"});
  test::expect_error_mentions([] { symmetrize(make_csr<double>(2, 2, {0, 2, 2}, {1, 0})); }, {"row 0", "unsorted"});
}

TEST(ConvertValues, ConvertsEachValueAndKeepsThePattern) {
  auto d = make_csr<double>(2, 3, {0, 2, 3}, {0, 2, 1}, {2.7, -1.5, 0.0});
  auto i = convert_values<std::int32_t>(d);
  EXPECT_TRUE(same_csr(i, make_csr<std::int32_t>(2, 3, {0, 2, 3}, {0, 2, 1}, {2, -1, 0})));
  auto b = convert_values<bool>(d);
  EXPECT_TRUE(same_csr(b, make_csr<bool>(2, 3, {0, 2, 3}, {0, 2, 1}, {true, true, false})));
  auto f = convert_values<float>(convert_values<std::int64_t>(d));
  EXPECT_TRUE(same_csr(f, make_csr<float>(2, 3, {0, 2, 3}, {0, 2, 1}, {2.f, -1.f, 0.f})));
  auto back = convert_values<double>(b);
  EXPECT_EQ(back.val, (std::vector<double>{1, 1, 0}));
}

TEST(ConvertValues, PatternStaysPattern) {
  auto p = convert_values<std::int64_t>(sample_pattern<float>());
  EXPECT_TRUE(p.is_pattern());
  EXPECT_TRUE(same_csr(p, sample_pattern<std::int64_t>()));
}

}  // namespace
}  // namespace spgraph
