// The result comparison itself (host only): sums that cancel may differ from GraphBLAS's by
// rounding relative to their terms' magnitudes, and no more.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spgemm_test_support.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::test {
namespace {

eid_t position(const Csr<double>& m, vid_t i, vid_t j) {
  const auto first = m.col.begin() + m.rowptr[i], last = m.col.begin() + m.rowptr[i + 1];
  const auto it = std::lower_bound(first, last, j);
  EXPECT_TRUE(it != last && *it == j) << "no entry (" << i << ", " << j << ")";
  return it - m.col.begin();
}

// The oracle's A*A of a dataset and its terms' magnitudes.
struct Square {
  Csr<double> want;
  std::optional<Csr<double>> magnitudes;
};

Square square_of(const char* name) {
  const Csr<double> a = io::load_graph(dataset(std::string("small/") + name)).matrix;
  return {oracle_mxm<PlusTimes>(a, a), oracle_magnitudes<PlusTimes>(a, a)};
}

TEST(SpgemmComparison, MagnitudesSumTheTermsAbsoluteValues) {
  Csr<double> a;
  a.nrows = 1;
  a.ncols = 2;
  a.rowptr = {0, 2};
  a.col = {0, 1};
  a.val = {1.0, -2.0};
  Csr<double> b;
  b.nrows = 2;
  b.ncols = 1;
  b.rowptr = {0, 1, 2};
  b.col = {0, 0};
  b.val = {3.0, 4.0};
  const auto m = oracle_magnitudes<PlusTimes>(a, b);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->val, std::vector<double>{11.0});  // |1 * 3| + |-2 * 4|; the product is -5
  // No cancellation possible: min-plus picks one term, integers are exact, and terms of one
  // sign sum to the result's magnitude.
  EXPECT_FALSE(oracle_magnitudes<MinPlus>(a, b).has_value());
  EXPECT_FALSE(
      oracle_magnitudes<PlusTimes>(convert_values<std::int64_t>(a), convert_values<std::int64_t>(b)).has_value());
  a.val = {1.0, 2.0};
  EXPECT_FALSE(oracle_magnitudes<PlusTimes>(a, b).has_value());
}

// What the H200's hash and ESC paths returned: bcsstk13's A*A at (2, 17) is -3.4e9 from terms
// whose magnitudes sum to 3.3e14, and LFAT5's at (7, 8) is -9e-12 from terms of about 1e6.
TEST(SpgemmComparison, OtherSummationOrdersPass) {
  Square s = square_of("bcsstk13.mtx");
  ASSERT_TRUE(s.magnitudes.has_value());
  Csr<double> got = s.want;
  got.val[position(got, 2, 17)] = -3437947408.7731667;
  EXPECT_TRUE(same_matrix(got, s.want, true, s.magnitudes));
  EXPECT_FALSE(same_matrix(got, s.want)) << "relative to |C(i,j)| the reordered sum looks wrong";

  s = square_of("LFAT5.mtx");
  ASSERT_TRUE(s.magnitudes.has_value());
  got = s.want;
  got.val[position(got, 7, 8)] = 0;
  EXPECT_TRUE(same_matrix(got, s.want, true, s.magnitudes));
}

TEST(SpgemmComparison, WrongValuesStillFail) {
  for (const char* name : {"bcsstk13.mtx", "LFAT5.mtx", "west0067.mtx"}) {
    SCOPED_TRACE(name);
    const Square s = square_of(name);
    ASSERT_TRUE(s.magnitudes.has_value());
    // An entry off by 1e-9 of its terms' magnitudes (a thousand times the tolerance) fails;
    // 1e-300 makes the explicit zeros, whose terms are all 0, fail too.
    Csr<double> got = s.want;
    for (eid_t p = 0; p < got.nnz(); p += got.nnz() / 64 + 1) {  // 64 entries spread over C
      got.val[p] += 1e-9 * s.magnitudes->val[p] + 1e-300;
      EXPECT_FALSE(same_matrix(got, s.want, true, s.magnitudes)) << "entry " << p;
      got.val[p] = s.want.val[p];
    }
  }
}

}  // namespace
}  // namespace spgraph::test
