// mxv and vxm on the 4 x 4 example A (small_matrices.hpp) with x = [1, 2, 3, 4]:
// A x = [2*2 + 3*3, 4*4, 1*1 + 5*4, (empty row)];  x'A = [3*1, 1*2, 1*3, 2*4 + 3*5].
// Results are dense: a position without a term holds the semiring's identity.
#include <cstdint>
#include <set>

#include "small_matrices.hpp"

namespace spgraph::test {
namespace {

using Vd = std::vector<double>;

Vd run_mxv(const gb::Matrix<double>& A, const Vd& x, auto semiring, const Descriptor& d = {}) {
  auto y = gb::from_host(Vd(d.transpose_a ? A.ncols() : A.nrows(), -7.0));
  gb::mxv(y, nullptr, A, gb::from_host(x), semiring, d);
  return gb::to_host(y);
}

Vd run_vxm(const gb::Matrix<double>& A, const Vd& x, auto semiring, const Descriptor& d = {}) {
  auto y = gb::from_host(Vd(d.transpose_b ? A.nrows() : A.ncols(), -7.0));
  gb::vxm(y, nullptr, gb::from_host(x), A, semiring, d);
  return gb::to_host(y);
}

const Vd x4{1, 2, 3, 4};

TEST(GraphblasSpmv, MxvSemiringsFillEmptyRowsWithTheIdentity) {
  const auto A = example_a<double>();
  EXPECT_EQ(run_mxv(A, x4, PlusTimes{}), (Vd{13, 16, 21, 0}));
  EXPECT_EQ(run_mxv(A, x4, MinPlus{}), (Vd{4, 8, 2, inf<double>()}));
  EXPECT_EQ(run_mxv(A, x4, MaxTimes{}), (Vd{9, 16, 20, -inf<double>()}));
  EXPECT_EQ(run_mxv(A, x4, PlusFirst{}), (Vd{5, 4, 6, 0}));   // row sums of A
  EXPECT_EQ(run_mxv(A, x4, PlusSecond{}), (Vd{5, 4, 5, 0}));  // sums of x over each row's columns
  EXPECT_EQ(run_mxv(A, x4, PlusPair{}), (Vd{2, 1, 2, 0}));
}

TEST(GraphblasSpmv, VxmSemirings) {
  const auto A = example_a<double>();
  EXPECT_EQ(run_vxm(A, x4, PlusTimes{}), (Vd{3, 2, 3, 23}));
  EXPECT_EQ(run_vxm(A, x4, MinPlus{}), (Vd{4, 3, 4, 6}));
  EXPECT_EQ(run_vxm(A, x4, MaxTimes{}), (Vd{3, 2, 3, 15}));
}

TEST(GraphblasSpmv, TransposeTheMatrixAsGraphblasNumbersInputs) {
  const auto A = example_a<double>();
  Descriptor ta, tb;
  ta.transpose_a = true;
  tb.transpose_b = true;
  EXPECT_EQ(run_mxv(A, x4, PlusTimes{}, ta), (Vd{3, 2, 3, 23}));  // mxv: A is the first input
  EXPECT_EQ(run_vxm(A, x4, PlusTimes{}, tb), (Vd{13, 16, 21, 0}));  // vxm: A is the second
  EXPECT_THROW(run_mxv(A, x4, PlusTimes{}, tb), Error);  // x cannot be transposed
  EXPECT_THROW(run_vxm(A, x4, PlusTimes{}, ta), Error);
}

TEST(GraphblasSpmv, OrAndOverBool) {
  const auto A = matrix<bool>(3, 3, {{0, 1, true}, {1, 2, true}, {2, 0, false}});
  auto y = gb::Vector<bool>(3, true);
  gb::mxv(y, nullptr, A, gb::from_host(std::vector<bool>{false, true, true}), OrAnd{});
  // row 0 reads x1 = true; row 1 reads x2 = true; row 2's only entry is false
  EXPECT_EQ(gb::to_host(y), (std::vector<bool>{true, true, false}));
}

template <class V>
void expect_valid_parents() {
  gb::Vector<V> y(4, V(-1));
  gb::mxv(y, nullptr, example_a<V>(), gb::from_host(std::vector<V>{1, 1, 1, 1}), AnySecondI{});
  const auto got = gb::to_host(y);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_TRUE((std::set<V>{1, 2}).count(got[0])) << got[0];
  EXPECT_EQ(got[1], 3);
  EXPECT_TRUE((std::set<V>{0, 3}).count(got[2])) << got[2];
  EXPECT_EQ(got[3], -1) << "an empty row gets any's no-value marker, -1 (0 is a real parent)";
}

TEST(GraphblasSpmv, AnySecondIGivesAValidColumn) {
  expect_valid_parents<std::int32_t>();
  expect_valid_parents<std::int64_t>();
}

TEST(GraphblasSpmv, PatternMatrixReadsOnes) {
  Csr<double> a = gb::to_host(example_a<double>());
  a.val.clear();
  EXPECT_EQ(run_mxv(gb::from_host(a), x4, PlusTimes{}), (Vd{5, 4, 5, 0}));
}

TEST(GraphblasSpmv, RectangularShapes) {
  const auto A = matrix<double>(2, 3, {{0, 0, 1}, {0, 2, 2}, {1, 1, 3}});
  EXPECT_EQ(run_mxv(A, {1, 2, 3}, PlusTimes{}), (Vd{7, 6}));
  EXPECT_EQ(run_vxm(A, {1, 2}, PlusTimes{}), (Vd{1, 6, 2}));
}

TEST(GraphblasSpmv, EmptyMatrices) {
  EXPECT_EQ(run_mxv(gb::Matrix<double>(0, 0), {}, PlusTimes{}), Vd{});
  EXPECT_EQ(run_mxv(gb::Matrix<double>(3, 3), {1, 2, 3}, PlusTimes{}), (Vd{0, 0, 0}));
  EXPECT_EQ(run_vxm(gb::Matrix<double>(3, 3), {1, 2, 3}, MinPlus{}), (Vd(3, inf<double>())));
}

TEST(GraphblasSpmv, OutputHasTheResultLengthOrIsEmpty) {
  const auto A = matrix<double>(2, 3, {{0, 0, 1}, {1, 2, 2}});
  auto x = gb::from_host(Vd{1, 2, 3});
  gb::Vector<double> wrong(3, 0.0);
  EXPECT_THROW(gb::mxv(wrong, nullptr, A, x, PlusTimes{}), Error);
  EXPECT_EQ(wrong.size(), 3u);
  gb::Vector<double> none, empty(0, 0.0);
  gb::mxv(none, nullptr, A, x, MinPlus{});
  EXPECT_EQ(gb::to_host(none), (Vd{2, 5}));
  gb::Vector<double> allowed_first = gb::from_host(Vd{1, 0});
  Descriptor keep;  // without replace the disallowed position keeps the "old" value: absent
  gb::mxv(empty, &allowed_first, A, x, MinPlus{}, keep);
  EXPECT_EQ(gb::to_host(empty), (Vd{2, inf<double>()}));
  auto bad_x = gb::from_host(Vd{1, 2});
  gb::Vector<double> y(2, 0.0);
  EXPECT_THROW(gb::mxv(y, nullptr, A, bad_x, PlusTimes{}), Error);
  gb::Vector<double> x_as_y(0, 0.0);  // an empty x must not be mistaken for an output to create
  EXPECT_THROW(gb::mxv(x_as_y, nullptr, gb::Matrix<double>(3, 3), x_as_y, PlusTimes{}), Error);
}

TEST(GraphblasSpmv, OutputMayAliasTheInput) {
  auto v = gb::from_host(x4);
  gb::mxv(v, nullptr, example_a<double>(), v, PlusTimes{});
  EXPECT_EQ(gb::to_host(v), (Vd{13, 16, 21, 0}));
}

// Masks on dense vectors: m = [1, 0, 1, 0] allows positions 0 and 2 by value; y starts as
// [100, 200, 300, 400].
class GraphblasSpmvMask : public ::testing::Test {
 protected:
  gb::Vector<double> mask = gb::from_host(Vd{1, 0, 1, 0});
  Vd run(auto semiring, const Descriptor& d) {
    auto y = gb::from_host(Vd{100, 200, 300, 400});
    gb::mxv(y, &mask, example_a<double>(), gb::from_host(x4), semiring, d);
    return gb::to_host(y);
  }
};

TEST_F(GraphblasSpmvMask, ValuedKeepsDisallowedPositions) {
  EXPECT_EQ(run(PlusTimes{}, {}), (Vd{13, 200, 21, 400}));
}

TEST_F(GraphblasSpmvMask, ReplaceGivesDisallowedPositionsTheIdentity) {
  Descriptor d;
  d.replace = true;
  EXPECT_EQ(run(PlusTimes{}, d), (Vd{13, 0, 21, 0}));
  EXPECT_EQ(run(MinPlus{}, d), (Vd{4, inf<double>(), 2, inf<double>()}));
}

TEST_F(GraphblasSpmvMask, Complemented) {
  Descriptor d;
  d.mask_complement = true;
  // allowed: 1 and 3; row 3 is empty, so it gets the identity even without replace
  EXPECT_EQ(run(PlusTimes{}, d), (Vd{100, 16, 300, 0}));
  d.replace = true;
  EXPECT_EQ(run(PlusTimes{}, d), (Vd{0, 16, 0, 0}));
}

TEST_F(GraphblasSpmvMask, StructuralMaskOfADenseVectorAllowsEverything) {
  Descriptor d;
  d.mask_structural = true;
  EXPECT_EQ(run(PlusTimes{}, d), (Vd{13, 16, 21, 0}));
}

TEST_F(GraphblasSpmvMask, VxmWithMask) {
  auto y = gb::from_host(Vd{100, 200, 300, 400});
  gb::vxm(y, &mask, gb::from_host(x4), example_a<double>(), PlusTimes{});
  EXPECT_EQ(gb::to_host(y), (Vd{3, 200, 3, 400}));
}

TEST(GraphblasSpmv, UnsupportedSemiringThrows) {
  gb::Vector<float> y(4, 0.f);
  EXPECT_THROW(gb::vxm(y, nullptr, gb::Vector<float>(4, 1.f), example_a<float>(), AnySecondI{}), Error);
}

}  // namespace
}  // namespace spgraph::test
