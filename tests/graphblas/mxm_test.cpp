// mxm on the 4 x 4 example (small_matrices.hpp), every expected product worked by hand:
// A*B has terms (0,1): 2*3 [k=1] + 3*1 [k=2]; (0,2): 3*2 [k=2]; (1,0): 4*4 [k=3];
// (2,0): 1*1 [k=0] + 5*4 [k=3]; (2,3): 1*2 [k=0].
#include <cstdint>
#include <set>
#include <string>

#include "small_matrices.hpp"
#include "test_support.hpp"

namespace spgraph::test {
namespace {

using M = gb::Matrix<double>;

TEST(GraphblasMxm, PlusTimes) {
  M C;
  gb::mxm(C, nullptr, example_a<double>(), example_b<double>(), PlusTimes{});
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 9}, {0, 2, 6}, {1, 0, 16}, {2, 0, 21}, {2, 3, 2}}));
}

TEST(GraphblasMxm, MinPlus) {
  M C;
  gb::mxm(C, nullptr, example_a<double>(), example_b<double>(), MinPlus{});
  // (0,1) = min(2+3, 3+1); (2,0) = min(1+1, 5+4)
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 4}, {0, 2, 5}, {1, 0, 8}, {2, 0, 2}, {2, 3, 3}}));
}

TEST(GraphblasMxm, MaxTimesOverFloat) {
  gb::Matrix<float> C;
  gb::mxm(C, nullptr, example_a<float>(), example_b<float>(), MaxTimes{});
  EXPECT_TRUE(same_matrix<float>(C, 4, 4, {{0, 1, 6}, {0, 2, 6}, {1, 0, 16}, {2, 0, 20}, {2, 3, 2}}));
}

TEST(GraphblasMxm, PlusPairCountsTerms) {
  gb::Matrix<std::int64_t> C;
  gb::mxm(C, nullptr, example_a<std::int64_t>(), example_b<std::int64_t>(), PlusPair{});
  EXPECT_TRUE(same_matrix<std::int64_t>(C, 4, 4, {{0, 1, 2}, {0, 2, 1}, {1, 0, 1}, {2, 0, 2}, {2, 3, 1}}));
}

TEST(GraphblasMxm, PlusFirstAndPlusSecond) {
  gb::Matrix<std::int32_t> C;
  gb::mxm(C, nullptr, example_a<std::int32_t>(), example_b<std::int32_t>(), PlusFirst{});
  EXPECT_TRUE(same_matrix<std::int32_t>(C, 4, 4, {{0, 1, 5}, {0, 2, 3}, {1, 0, 4}, {2, 0, 6}, {2, 3, 1}}));
  gb::mxm(C, nullptr, example_a<std::int32_t>(), example_b<std::int32_t>(), PlusSecond{});
  EXPECT_TRUE(same_matrix<std::int32_t>(C, 4, 4, {{0, 1, 4}, {0, 2, 2}, {1, 0, 4}, {2, 0, 5}, {2, 3, 2}}));
}

TEST(GraphblasMxm, OrAndUsesValuesNotJustThePattern) {
  // As A and B but A(0,2) = false: (0,2) = A(0,2) and B(2,2) is a stored false, and (0,1)
  // is still true through k = 1.
  const auto A = matrix<bool>(4, 4, {{0, 1, true}, {0, 2, false}, {1, 3, true}, {2, 0, true}, {2, 3, true}});
  const auto B = matrix<bool>(4, 4, {{0, 0, true}, {0, 3, true}, {1, 1, true}, {2, 1, true}, {2, 2, true},
                                     {3, 0, true}});
  gb::Matrix<bool> C;
  gb::mxm(C, nullptr, A, B, OrAnd{});
  EXPECT_TRUE(same_matrix<bool>(C, 4, 4, {{0, 1, true}, {0, 2, false}, {1, 0, true}, {2, 0, true}, {2, 3, true}}));
  // Over bool, plus-times is the same semiring (a + b != 0 is a or b).
  gb::Matrix<bool> D;
  gb::mxm(D, nullptr, A, B, PlusTimes{});
  EXPECT_TRUE(same_matrix<bool>(D, 4, 4, {{0, 1, true}, {0, 2, false}, {1, 0, true}, {2, 0, true}, {2, 3, true}}));
}

// Any result is right as long as it is one of the valid inner indices k, those with both
// A(i,k) and B(k,j) present (GraphBLAS documents any as nondeterministic).
template <class V>
void expect_valid_inner_indices() {
  gb::Matrix<V> C;
  gb::mxm(C, nullptr, example_a<V>(), example_b<V>(), AnySecondI{});
  const auto got = entries(gb::to_host(C));
  const std::vector<std::tuple<vid_t, vid_t, std::set<V>>> valid{
      {0, 1, {1, 2}}, {0, 2, {2}}, {1, 0, {3}}, {2, 0, {0, 3}}, {2, 3, {0}}};
  ASSERT_EQ(got.size(), valid.size()) << show(got);
  for (std::size_t e = 0; e < got.size(); ++e) {
    const auto& [i, j, ks] = valid[e];
    EXPECT_EQ(got[e].row, i);
    EXPECT_EQ(got[e].col, j);
    EXPECT_TRUE(ks.count(got[e].val)) << got[e] << " is not a valid inner index";
  }
}

TEST(GraphblasMxm, AnySecondIGivesAValidInnerIndex) {
  expect_valid_inner_indices<std::int32_t>();
  expect_valid_inner_indices<std::int64_t>();
}

TEST(GraphblasMxm, PatternInputsReadAsOnes) {
  Csr<double> a = gb::to_host(example_a<double>()), b = gb::to_host(example_b<double>());
  a.val.clear();
  b.val.clear();
  M C;
  gb::mxm(C, nullptr, gb::from_host(a), gb::from_host(b), PlusTimes{});
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 2}, {0, 2, 1}, {1, 0, 1}, {2, 0, 2}, {2, 3, 1}}));
}

TEST(GraphblasMxm, Transposes) {
  M C;
  Descriptor ta;
  ta.transpose_a = true;
  gb::mxm(C, nullptr, example_a<double>(), example_b<double>(), PlusTimes{}, ta);
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 1}, {0, 2, 2}, {1, 0, 2}, {1, 3, 4}, {2, 0, 3}, {2, 3, 6}, {3, 1, 17},
                                    {3, 2, 10}}));
  Descriptor tb;
  tb.transpose_b = true;
  gb::mxm(C, nullptr, example_a<double>(), example_b<double>(), PlusTimes{}, tb);
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 6}, {0, 2, 8}, {1, 0, 8}, {2, 0, 11}, {2, 3, 4}}));
}

TEST(GraphblasMxm, RectangularShapes) {
  const auto A = matrix<double>(2, 3, {{0, 0, 1}, {0, 2, 2}, {1, 1, 3}});
  const auto B = matrix<double>(3, 4, {{0, 1, 1}, {0, 3, 2}, {1, 0, 4}, {2, 1, 5}});
  M C(7, 7);  // an output of another shape is replaced
  gb::mxm(C, nullptr, A, B, PlusTimes{});
  EXPECT_TRUE(same_matrix(C, 2, 4, {{0, 1, 11}, {0, 3, 2}, {1, 0, 12}}));
  Descriptor both;
  both.transpose_a = both.transpose_b = true;  // (B' A')' = A B, so B' A' is its transpose
  gb::mxm(C, nullptr, B, A, PlusTimes{}, both);
  EXPECT_TRUE(same_matrix(C, 4, 2, {{1, 0, 11}, {3, 0, 2}, {0, 1, 12}}));
}

TEST(GraphblasMxm, EmptyOperands) {
  M C;
  gb::mxm(C, nullptr, M(0, 0), M(0, 0), PlusTimes{});
  EXPECT_TRUE(same_matrix<double>(C, 0, 0, {}));
  gb::mxm(C, nullptr, M(4, 4), example_b<double>(), MinPlus{});
  EXPECT_TRUE(same_matrix<double>(C, 4, 4, {}));
  gb::mxm(C, nullptr, M(3, 0), M(0, 2), PlusTimes{});  // inner dimension 0
  EXPECT_TRUE(same_matrix<double>(C, 3, 2, {}));
}

TEST(GraphblasMxm, OutputMayAliasAnInput) {
  M A = example_a<double>();
  gb::mxm(A, nullptr, A, A, PlusTimes{});
  // A*A: (0,3) = 2*4 + 3*5, (0,0) = 3*1, (2,1) = 1*2, (2,2) = 1*3
  EXPECT_TRUE(same_matrix(A, 4, 4, {{0, 0, 3}, {0, 3, 23}, {2, 1, 2}, {2, 2, 3}}));
}

// Masks. M allows (0,1), (2,0), (3,3) by value; structurally also (0,2), which holds 0.
// The old C has entries at (0,0), (0,2), (1,0), (3,3). A*B is
// {(0,1)=9, (0,2)=6, (1,0)=16, (2,0)=21, (2,3)=2}.
class GraphblasMxmMask : public ::testing::Test {
 protected:
  M mask = matrix<double>(4, 4, {{0, 1, 1}, {0, 2, 0}, {2, 0, 1}, {3, 3, 1}});
  M C = matrix<double>(4, 4, {{0, 0, 7}, {0, 2, 8}, {1, 0, 9}, {3, 3, 10}});
  void multiply(const Descriptor& d) { gb::mxm(C, &mask, example_a<double>(), example_b<double>(), PlusTimes{}, d); }
};

TEST_F(GraphblasMxmMask, ValuedKeepsOldEntriesOutsideTheMask) {
  multiply({});
  // allowed: (0,1) new, (2,0) new, (3,3) has no product so it is deleted; others kept
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 0, 7}, {0, 1, 9}, {0, 2, 8}, {1, 0, 9}, {2, 0, 21}}));
}

TEST_F(GraphblasMxmMask, StructuralAlsoAllowsTheZeroValuedEntry) {
  Descriptor d;
  d.mask_structural = true;
  multiply(d);
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 0, 7}, {0, 1, 9}, {0, 2, 6}, {1, 0, 9}, {2, 0, 21}}));
}

TEST_F(GraphblasMxmMask, ReplaceDeletesEverythingOutsideTheMask) {
  Descriptor d;
  d.replace = true;
  multiply(d);
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 9}, {2, 0, 21}}));
  d.mask_structural = true;
  C = matrix<double>(4, 4, {{0, 0, 7}});
  multiply(d);
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 9}, {0, 2, 6}, {2, 0, 21}}));
}

TEST_F(GraphblasMxmMask, Complemented) {
  Descriptor d;
  d.mask_complement = true;
  multiply(d);
  // allowed: all but (0,1), (2,0), (3,3): old (0,0) deleted, (0,2) and (1,0) overwritten,
  // (2,3) new; (3,3) is outside the complement and keeps its old 10
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 2, 6}, {1, 0, 16}, {2, 3, 2}, {3, 3, 10}}));
}

TEST_F(GraphblasMxmMask, ComplementedWithReplace) {
  Descriptor d;
  d.mask_complement = d.replace = true;
  multiply(d);
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 2, 6}, {1, 0, 16}, {2, 3, 2}}));
  d.mask_structural = true;  // now (0,2) is excluded too
  multiply(d);
  EXPECT_TRUE(same_matrix(C, 4, 4, {{1, 0, 16}, {2, 3, 2}}));
}

TEST_F(GraphblasMxmMask, KeptEntriesNeedAnOutputOfTheRightShape) {
  C = matrix<double>(2, 2, {{0, 0, 1}});
  EXPECT_THROW(multiply({}), Error);
  EXPECT_EQ(C.nrows(), 2) << "a failed mxm leaves C as it was";
}

// A semiring never silently becomes another one.
struct MyMax {
  static constexpr const char* name = "mymax";
  template <class T> static constexpr T identity() { return T(0); }
  template <class T> static constexpr T add(T a, T b) { return a < b ? b : a; }
};

TEST(GraphblasMxm, UnsupportedSemiringsThrowNamingSemiringAndType) {
  M C = example_a<double>();
  const std::string secondi = error_of([&] { gb::mxm(C, nullptr, C, C, AnySecondI{}); });
  EXPECT_NE(secondi.find("any.secondi"), std::string::npos) << secondi;
  EXPECT_NE(secondi.find("double"), std::string::npos) << secondi;
  const std::string lor = error_of([&] { gb::mxm(C, nullptr, C, C, OrAnd{}); });
  EXPECT_NE(lor.find("lor.land over double"), std::string::npos) << lor;
  const std::string mine = error_of([&] { gb::mxm(C, nullptr, C, C, Semiring<MyMax, mult::Times>{}); });
  EXPECT_NE(mine.find("mymax.times"), std::string::npos) << mine;
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 2}, {0, 2, 3}, {1, 3, 4}, {2, 0, 1}, {2, 3, 5}}))
      << "a refused mxm must not touch C";
}

TEST(GraphblasMxm, DimensionMismatchIsAOneLineErrorNamingTheCall) {
  M C;
  const std::string msg = error_of([&] { gb::mxm(C, nullptr, M(2, 3), M(2, 3), PlusTimes{}); });
  EXPECT_NE(msg.find("GrB_mxm failed (GrB_DIMENSION_MISMATCH)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("second input is 2-by-3"), std::string::npos) << msg;  // GrB_error's text
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

}  // namespace
}  // namespace spgraph::test
