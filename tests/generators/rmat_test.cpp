#include <gtest/gtest.h>

#include <algorithm>

#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/generators.hpp"

namespace spgraph::io {
namespace {

struct QuadrantShares {
  double top_left = 0, top_right = 0, bottom_left = 0, bottom_right = 0;
};

QuadrantShares quadrant_shares(const Csr<double>& a) {
  QuadrantShares q;
  const vid_t half = a.nrows / 2;
  for (vid_t i = 0; i < a.nrows; ++i)
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      const bool right = a.col[p] >= half;
      (i < half ? (right ? q.top_right : q.top_left) : (right ? q.bottom_right : q.bottom_left)) += 1;
    }
  const double m = static_cast<double>(a.nnz());
  q.top_left /= m, q.top_right /= m, q.bottom_left /= m, q.bottom_right /= m;
  return q;
}

bool has_self_loop(const Csr<double>& a) {
  for (vid_t i = 0; i < a.nrows; ++i)
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (a.col[p] == i) return true;
  return false;
}

TEST(Rmat, UniformQuadrantsGiveAnErdosRenyiGraph) {
  RmatParams p;
  p.scale = 16;
  p.edges = 1 << 18;
  p.a = p.b = p.c = p.d = 0.25;
  const Csr<double> a = rmat(p);
  EXPECT_EQ(a.nrows, 1 << 16);
  EXPECT_EQ(a.ncols, 1 << 16);
  EXPECT_TRUE(a.is_pattern());
  EXPECT_NO_THROW(a.validate());
  EXPECT_FALSE(has_self_loop(a));
  // About m/n = 4 self-loops and m^2 / (2 n^2) = 8 duplicates are removed.
  EXPECT_LE(a.nnz(), p.edges);
  EXPECT_GE(a.nnz(), p.edges - 40);
  const QuadrantShares q = quadrant_shares(a);
  for (double share : {q.top_left, q.top_right, q.bottom_left, q.bottom_right}) EXPECT_NEAR(share, 0.25, 0.003);  // 3.5 standard deviations
}

TEST(Rmat, Graph500ParametersAreSkewedTowardsLowIds) {
  RmatParams p;
  p.scale = 16;
  p.edges = 1 << 20;
  const Csr<double> a = rmat(p);
  EXPECT_NO_THROW(a.validate());
  EXPECT_FALSE(has_self_loop(a));
  const QuadrantShares q = quadrant_shares(a);
  // Before duplicates are merged the shares are a, b, c, d; merging takes most from the dense
  // top-left quadrant, so it lands a little below a.
  EXPECT_NEAR(q.top_left, 0.555, 0.015);
  EXPECT_LT(q.top_left, 0.57);
  EXPECT_NEAR(q.top_right, 0.195, 0.01);
  EXPECT_NEAR(q.bottom_left, 0.195, 0.01);
  EXPECT_NEAR(q.bottom_right, 0.053, 0.005);
  const auto degree = out_degrees(a);
  EXPECT_EQ(std::max_element(degree.begin(), degree.end()) - degree.begin(), 0);  // (a+b)^scale dominates
}

TEST(Rmat, VertexCountNotAPowerOfTwo) {
  RmatParams p;
  p.n = 1000;
  p.edges = 20000;
  const Csr<double> a = rmat(p);
  EXPECT_EQ(a.nrows, 1000);
  EXPECT_EQ(a.ncols, 1000);
  EXPECT_NO_THROW(a.validate());  // every column id is below 1000
  EXPECT_FALSE(has_self_loop(a));
}

TEST(Rmat, RandomValuesKeepThePattern) {
  RmatParams p;
  p.scale = 12;
  p.edges = 30000;
  p.seed = 9;
  const Csr<double> pattern = rmat(p);
  p.random_values = true;
  const Csr<double> valued = rmat(p);
  EXPECT_EQ(valued.rowptr, pattern.rowptr);
  EXPECT_EQ(valued.col, pattern.col);
  ASSERT_EQ(valued.val.size(), valued.col.size());
  double sum = 0;
  for (double v : valued.val) {
    EXPECT_GT(v, 0);
    EXPECT_LE(v, 1);
    sum += v;
  }
  EXPECT_NEAR(sum / static_cast<double>(valued.val.size()), 0.5, 0.01);
}

TEST(Rmat, RejectsBadParameters) {
  RmatParams p;
  p.scale = 10;
  p.edges = 100;
  p.a = 0.6;  // sums to 1.03
  EXPECT_THROW(rmat(p), Error);
  p.a = 0.57;
  p.d = -0.01;
  p.c = 0.25;
  EXPECT_THROW(rmat(p), Error);
  RmatParams big;
  big.scale = 31;
  EXPECT_THROW(rmat(big), Error);
  RmatParams negative;
  negative.scale = 4;
  negative.edges = -1;
  EXPECT_THROW(rmat(negative), Error);
}

}  // namespace
}  // namespace spgraph::io
