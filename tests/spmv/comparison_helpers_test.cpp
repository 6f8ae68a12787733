// The comparison helpers every SpMV and SpGEMM test relies on reject what they must: an
// infinity against a finite value, opposite infinities and NaN against a number, however large
// the tolerance's scale (these run everywhere, without a GPU).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "matrix_support.hpp"
#include "spmv_test_support.hpp"

namespace spgraph::test {
namespace {

template <class V>
void check_values_match() {
  const V inf = std::numeric_limits<V>::infinity(), nan = std::numeric_limits<V>::quiet_NaN();
  EXPECT_FALSE(values_match<V>(inf, 3));
  EXPECT_FALSE(values_match<V>(3, inf));
  EXPECT_FALSE(values_match<V>(-inf, inf));
  EXPECT_FALSE(values_match<V>(inf, std::numeric_limits<V>::max()));
  EXPECT_FALSE(values_match<V>(nan, 1));
  EXPECT_FALSE(values_match<V>(1, nan));
  EXPECT_FALSE(values_match<V>(nan, inf));
  EXPECT_FALSE(values_match<V>(1, 2, std::numeric_limits<double>::infinity()));  // an infinite magnitude
  EXPECT_TRUE(values_match<V>(inf, inf));
  EXPECT_TRUE(values_match<V>(-inf, -inf));
  EXPECT_TRUE(values_match<V>(nan, nan));
  EXPECT_TRUE(values_match<V>(1, V(1) + V(1) * std::numeric_limits<V>::epsilon()));  // within tolerance
}

TEST(ComparisonHelpers, ValuesMatchTakesInfinitiesAndNanOnlyForThemselves) {
  check_values_match<double>();
  check_values_match<float>();
}

TEST(ComparisonHelpers, SameMatrixRejectsInfinityAndNanAgainstNumbers) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  Csr<double> want;
  want.nrows = want.ncols = 2;
  want.rowptr = {0, 1, 2};
  want.col = {0, 1};
  want.val = {inf, 2.0};
  Csr<double> got = want;
  EXPECT_TRUE(same_matrix(got, want));
  got.val = {3.0, 2.0};
  EXPECT_FALSE(same_matrix(got, want));
  got.val = {inf, nan};
  EXPECT_FALSE(same_matrix(got, want));
  want.val = {inf, nan};
  EXPECT_TRUE(same_matrix(got, want));
  got.val = {inf, 1.0};
  EXPECT_FALSE(same_matrix(got, want));
}

// expect_close reports (nonfatally) each wrong element, for min/max semirings, whose empty rows
// hold +-inf, and for plus, whose tolerance scales with the row's terms.
TEST(ComparisonHelpers, ExpectCloseRejectsInfinityAndNanAgainstNumbers) {
  using spmv::expect_close;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NONFATAL_FAILURE(expect_close<MinPlus>(std::vector<double>{5.0}, {inf}, {}, "min-plus"), "y[0]");
  EXPECT_NONFATAL_FAILURE(expect_close<MaxTimes>(std::vector<double>{0.0}, {-inf}, {}, "max-times"), "y[0]");
  EXPECT_NONFATAL_FAILURE(expect_close<MinPlus>(std::vector<float>{1.0f, 3.0f}, {1.0, inf}, {}, "float"), "y[1]");
  EXPECT_NONFATAL_FAILURE(expect_close<MinPlus>(std::vector<double>{-inf}, {inf}, {}, "opposite"), "y[0]");
  EXPECT_NONFATAL_FAILURE(expect_close<PlusTimes>(std::vector<double>{nan}, {1.0}, {4.0}, "nan"), "y[0]");
  EXPECT_NONFATAL_FAILURE(expect_close<PlusTimes>(std::vector<double>{1.0}, {nan}, {4.0}, "nan expected"), "y[0]");
  EXPECT_NONFATAL_FAILURE(expect_close<PlusTimes>(std::vector<double>{1.0}, {2.0}, {inf}, "infinite scale"), "y[0]");
  // What matches: the same infinities, NaN for NaN, and values within the tolerance.
  expect_close<MinPlus>(std::vector<double>{inf, 1.0}, {inf, 1.0}, {}, "min-plus, exact");
  expect_close<MaxTimes>(std::vector<float>{-std::numeric_limits<float>::infinity()}, {-inf}, {}, "float -inf");
  expect_close<PlusTimes>(std::vector<double>{nan, 1.0 + 1e-13}, {nan, 1.0}, {0.0, 4.0}, "plus");
}

}  // namespace
}  // namespace spgraph::test
