#include <gtest/gtest.h>

#include "spgraph/error.hpp"
#include "spgraph/io/generators.hpp"

namespace spgraph::io {
namespace {

// 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 0, 2 -> 3; vertex 3 has no out-edges.
//   A*A : row 0 gathers rows 1 and 2: {3} + {0, 3} = 3 products, 2 nonzeros; row 2 gathers
//         rows 0 and 3: {1, 2} = 2 products, 2 nonzeros. Total 5 products, 4 nonzeros.
//   A*A': products = sum of squared column counts = 1 + 1 + 1 + 2^2 = 7; (i, j) is nonzero
//         when rows i and j share a column: (0,0) (1,1) (1,2) (2,1) (2,2) = 5 nonzeros.
Csr<double> small_graph() {
  Csr<double> a;
  a.nrows = a.ncols = 4;
  a.rowptr = {0, 2, 3, 5, 5};
  a.col = {1, 2, 3, 0, 3};
  return a;
}

TEST(GraphStats, HandComputedSmallGraph) {
  for (NnzCount how : {NnzCount::Exact, NnzCount::Sampled}) {
    StatsOptions o;
    o.aa = o.aat = how;
    o.sample_work = 1;  // with the whole work allowed, sampling counts every row
    const GraphStats s = graph_stats(small_graph(), o);
    EXPECT_EQ(s.nrows, 4);
    EXPECT_EQ(s.nnz, 5);
    EXPECT_EQ(s.max_row, 2);
    EXPECT_EQ(s.max_column, 2);
    EXPECT_EQ(s.empty_rows, 1);
    EXPECT_EQ(s.aa.products, 5);
    EXPECT_EQ(s.aa.nnz, 4);
    EXPECT_TRUE(s.aa.exact);
    EXPECT_EQ(s.aa.nnz_stderr, 0);
    EXPECT_EQ(s.aat.products, 7);
    EXPECT_EQ(s.aat.nnz, 5);
  }
}

TEST(GraphStats, SkipCountsProductsOnly) {
  StatsOptions o;
  o.aa = o.aat = NnzCount::Skip;
  const GraphStats s = graph_stats(small_graph(), o);
  EXPECT_EQ(s.aa.products, 5);
  EXPECT_EQ(s.aat.products, 7);
  EXPECT_EQ(s.aa.nnz, 0);
  EXPECT_EQ(s.aat.nnz, 0);
}

TEST(GraphStats, RectangularHasNoSquare) {
  Csr<float> a;  // 2 x 3: (0,0) (0,2) (1,2)
  a.nrows = 2;
  a.ncols = 3;
  a.rowptr = {0, 2, 3};
  a.col = {0, 2, 2};
  a.val = {1, 2, 3};
  StatsOptions o;
  o.aat = NnzCount::Exact;
  const GraphStats s = graph_stats(a, o);
  EXPECT_EQ(s.aa.products, 0);
  EXPECT_EQ(s.aat.products, 1 + 4);
  EXPECT_EQ(s.aat.nnz, 4);  // rows 0 and 1 share column 2: a full 2 x 2
}

// The sample is at least 1000 rows, whatever sample_work, so on this 98k-row graph the
// estimate's standard error is about 1.5%.
TEST(GraphStats, SampledEstimateAgreesWithTheExactCount) {
  const Csr<double> a = power_law_graph(scaled(wb_edu_like(), 100));
  StatsOptions exact;
  exact.aat = NnzCount::Exact;
  const GraphStats e = graph_stats(a, exact);
  StatsOptions sampled;
  sampled.aa = sampled.aat = NnzCount::Sampled;
  sampled.sample_work = 0.05;
  const GraphStats s = graph_stats(a, sampled);
  EXPECT_EQ(s.aa.products, e.aa.products);
  EXPECT_FALSE(s.aa.exact);
  for (auto [est, ref] : {std::pair{s.aa, e.aa}, std::pair{s.aat, e.aat}}) {
    EXPECT_GT(est.nnz_stderr, 0);
    EXPECT_LT(est.nnz_stderr, 0.02 * ref.nnz);
    EXPECT_NEAR(est.nnz, ref.nnz, 4 * est.nnz_stderr);
  }
}

TEST(GraphStats, ThreadCountDoesNotChangeTheResults) {
  const Csr<double> a = power_law_graph(scaled(cit_patents_like(), 100));
  StatsOptions o;
  o.aa = NnzCount::Exact;
  o.aat = NnzCount::Sampled;
  const GraphStats one = graph_stats(a, o);
  o.threads = 3;
  const GraphStats three = graph_stats(a, o);
  EXPECT_EQ(one.aa.nnz, three.aa.nnz);
  EXPECT_EQ(one.aat.nnz, three.aat.nnz);  // bitwise: partial sums are added in a fixed order
  EXPECT_EQ(one.aat.nnz_stderr, three.aat.nnz_stderr);
}

TEST(GraphStats, RejectsNonPositiveSampleWork) {
  StatsOptions o;
  o.sample_work = 0;
  EXPECT_THROW(graph_stats(small_graph(), o), Error);
}

}  // namespace
}  // namespace spgraph::io
