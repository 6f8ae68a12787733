// The presets against the real graphs they stand for (seed paper, Table II): size exactly,
// longest row exactly, products of A*A exactly counted and nnz(A*A) estimated from sampled rows,
// each within 25% (they land within a few percent: bench_generators prints the exact figures).
// Full size: about 25 s and 600 MB on one core.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "spgraph/io/generators.hpp"

namespace spgraph::io {
namespace {

void expect_within(double actual, double target, double tolerance, const char* what) {
  EXPECT_GT(actual, (1 - tolerance) * target) << what;
  EXPECT_LT(actual, (1 + tolerance) * target) << what;
}

void expect_shape(const PowerLawParams& params, const GraphShape& target) {
  const Csr<double> a = power_law_graph(params);
  StatsOptions o;
  o.aa = NnzCount::Sampled;
  o.aat = NnzCount::Skip;
  const GraphStats s = graph_stats(a, o);
  EXPECT_EQ(s.nrows, target.n);
  EXPECT_EQ(s.nnz, target.nnz);
  EXPECT_EQ(s.max_row, target.max_row);
  expect_within(static_cast<double>(s.aa.products), target.products, 0.25, "products of A*A");
  expect_within(s.aa.nnz, target.nnz_aa, 0.25, "nnz(A*A)");
  EXPECT_LT(s.aa.nnz_stderr, 0.01 * s.aa.nnz);
  ::testing::Test::RecordProperty("products_vs_target", std::to_string(static_cast<double>(s.aa.products) / target.products));
  ::testing::Test::RecordProperty("nnz_aa_vs_target", std::to_string(s.aa.nnz / target.nnz_aa));
}

TEST(PresetShape, WbEduLike) { expect_shape(wb_edu_like(), kWbEduShape); }

TEST(PresetShape, CitPatentsLike) { expect_shape(cit_patents_like(), kCitPatentsShape); }

// The scaled variants keep the shape: products per edge and nnz(A*A) per product.
TEST(PresetShape, ScaledVariantsKeepTheShape) {
  for (const auto& [params, target] : {std::pair{wb_edu_like(), kWbEduShape}, std::pair{cit_patents_like(), kCitPatentsShape}}) {
    for (int k : {10, 50}) {
      const GraphStats s = graph_stats(power_law_graph(scaled(params, k)), StatsOptions{});
      expect_within(static_cast<double>(s.aa.products) / static_cast<double>(s.nnz),
                    target.products / static_cast<double>(target.nnz), 0.25, "products per edge");
      expect_within(s.aa.nnz / static_cast<double>(s.aa.products), target.nnz_aa / target.products, 0.25,
                    "nnz(A*A) per product");
    }
  }
}

}  // namespace
}  // namespace spgraph::io
