#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/generators.hpp"

namespace spgraph::io {
namespace {

PowerLawParams small_params() {
  PowerLawParams p;
  p.n = 200'000;
  p.edges = 1'000'000;
  p.max_out_degree = 500;
  p.out_exponent = 1.5;
  p.site_size = 1000;
  p.site_exponent = 1;
  p.local_fraction = 0.6;
  return p;
}

eid_t rows_at_least(const std::vector<eid_t>& degree, eid_t d) {
  return std::count_if(degree.begin(), degree.end(), [d](eid_t x) { return x >= d; });
}

TEST(PowerLawGraph, ExactEdgeCountLongestRowAndASimpleDirectedGraph) {
  const PowerLawParams p = small_params();
  const Csr<double> a = power_law_graph(p);
  EXPECT_EQ(a.nrows, p.n);
  EXPECT_EQ(a.ncols, p.n);
  EXPECT_EQ(a.nnz(), p.edges);
  EXPECT_TRUE(a.is_pattern());
  EXPECT_NO_THROW(a.validate());  // sorted, no duplicates
  EXPECT_EQ(remove_self_loops(a).nnz(), a.nnz());
  const auto degree = out_degrees(a);
  EXPECT_EQ(*std::max_element(degree.begin(), degree.end()), p.max_out_degree);
  EXPECT_EQ(rows_at_least(degree, p.max_out_degree), 1);
}

TEST(PowerLawGraph, EmptyRows) {
  PowerLawParams p = small_params();
  p.empty_rows = 50'000;
  const Csr<double> a = power_law_graph(p);
  EXPECT_EQ(a.nnz(), p.edges);
  const auto degree = out_degrees(a);
  EXPECT_EQ(rows_at_least(degree, 1), p.n - p.empty_rows);
  EXPECT_EQ(*std::max_element(degree.begin(), degree.end()), p.max_out_degree);
}

TEST(PowerLawGraph, OutDegreeTailFollowsTheExponent) {
  PowerLawParams p = small_params();
  p.n = 1'000'000;
  p.edges = 6'000'000;
  p.max_out_degree = 3000;
  const auto degree = out_degrees(power_law_graph(p));
  // #rows with degree >= d ~ (max/d)^1.5 - 1: between d = 20 and 200 a factor 32.15.
  const double ratio = static_cast<double>(rows_at_least(degree, 20)) / static_cast<double>(rows_at_least(degree, 200));
  EXPECT_NEAR(std::log10(ratio), 1.507, 0.03);
  p.out_exponent = 2.5;
  p.max_out_degree = 770;
  const auto steeper = out_degrees(power_law_graph(p));
  const double steep_ratio = static_cast<double>(rows_at_least(steeper, 20)) / static_cast<double>(rows_at_least(steeper, 200));
  EXPECT_NEAR(std::log10(steep_ratio), std::log10((std::pow(770 / 20.0, 2.5) - 1) / (std::pow(770 / 200.0, 2.5) - 1)), 0.03);
}

TEST(PowerLawGraph, ShareOfTargetsInTheOwnSite) {
  const PowerLawParams p = small_params();
  const Csr<double> a = power_law_graph(p);
  eid_t local = 0, total = 0;
  for (vid_t i = 0; i < a.nrows; ++i) {
    if (4 * a.row_length(i) > p.site_size) continue;  // long rows reach past their site
    for (eid_t q = a.rowptr[i]; q < a.rowptr[i + 1]; ++q) local += a.col[q] / p.site_size == i / p.site_size;
    total += a.row_length(i);
  }
  // local_fraction, plus the global targets that land in the own site (1 site in 200).
  EXPECT_NEAR(static_cast<double>(local) / static_cast<double>(total), 0.6 + 0.4 / 200, 0.005);
}

TEST(PowerLawGraph, FirstRanksOfASiteAreTheMostLinked) {
  const PowerLawParams p = small_params();
  const auto in = in_degrees(power_law_graph(p));
  auto mean_at_rank = [&](vid_t r) {
    double s = 0;
    for (vid_t v = r; v < p.n; v += p.site_size) s += static_cast<double>(in[v]);
    return s / (p.n / p.site_size);
  };
  EXPECT_GT(mean_at_rank(0), 1.5 * mean_at_rank(1));
  EXPECT_GT(mean_at_rank(1), mean_at_rank(2));
  EXPECT_GT(mean_at_rank(2), mean_at_rank(10));
  EXPECT_GT(mean_at_rank(10), mean_at_rank(500));
}

TEST(PowerLawGraph, HubSitesGetTheLongestRowsAtTheirFirstRanksAndRaiseProducts) {
  PowerLawParams p = small_params();
  p.hub_fraction = 0.1;
  p.hub_group = 3;
  const Csr<double> hubs = power_law_graph(p);
  auto degree = out_degrees(hubs);
  std::vector<vid_t> by_degree(p.n);
  std::iota(by_degree.begin(), by_degree.end(), 0);
  std::partial_sort(by_degree.begin(), by_degree.begin() + 20, by_degree.end(),
                    [&](vid_t x, vid_t y) { return degree[x] > degree[y]; });
  for (int k = 0; k < 20; ++k) EXPECT_LT(by_degree[k] % p.site_size, p.hub_group) << "vertex " << by_degree[k];

  StatsOptions o;
  o.aa = NnzCount::Skip;
  o.aat = NnzCount::Skip;
  p.hub_fraction = 0;
  const Csr<double> plain = power_law_graph(p);
  EXPECT_GT(graph_stats(hubs, o).aa.products, 2 * graph_stats(plain, o).aa.products);
}

TEST(PowerLawGraph, RandomValuesKeepThePattern) {
  PowerLawParams p = small_params();
  p.n = 20'000;
  p.edges = 100'000;
  const Csr<double> pattern = power_law_graph(p);
  p.random_values = true;
  const Csr<double> valued = power_law_graph(p);
  EXPECT_EQ(valued.col, pattern.col);
  ASSERT_EQ(valued.val.size(), valued.col.size());
  EXPECT_TRUE(std::all_of(valued.val.begin(), valued.val.end(), [](double v) { return v > 0 && v <= 1; }));
}

TEST(PowerLawGraph, RejectsBadParameters) {
  auto with = [](auto change) {
    PowerLawParams p = small_params();
    change(p);
    return p;
  };
  EXPECT_THROW(power_law_graph(with([](auto& p) { p.max_out_degree = p.n; })), Error);
  EXPECT_THROW(power_law_graph(with([](auto& p) { p.edges = 100; })), Error);  // fewer than the longest row
  EXPECT_THROW(power_law_graph(with([](auto& p) { p.edges = eid_t{p.n} * p.max_out_degree + 1; })), Error);
  EXPECT_THROW(power_law_graph(with([](auto& p) { p.out_exponent = 0; })), Error);
  EXPECT_THROW(power_law_graph(with([](auto& p) { p.site_size = 0; })), Error);
  EXPECT_THROW(power_law_graph(with([](auto& p) { p.site_exponent = -1; })), Error);
  EXPECT_THROW(power_law_graph(with([](auto& p) { p.local_fraction = 1.5; })), Error);
  EXPECT_THROW(power_law_graph(with([](auto& p) { p.hub_group = -1; })), Error);
  EXPECT_THROW(power_law_graph(with([](auto& p) { p.n = 1; })), Error);
  EXPECT_THROW(power_law_graph(with([](auto& p) { p.empty_rows = p.n - 1; })), Error);
}

TEST(Presets, ScaledDividesSizeKeepsTheRest) {
  const PowerLawParams full = wb_edu_like(7);
  const PowerLawParams small = scaled(full, 10);
  EXPECT_EQ(small.n, full.n / 10);
  EXPECT_EQ(small.edges, full.edges / 10);
  EXPECT_EQ(scaled(cit_patents_like(), 10).empty_rows, cit_patents_like().empty_rows / 10);
  EXPECT_EQ(small.max_out_degree, full.max_out_degree);
  EXPECT_EQ(small.site_size, full.site_size);
  EXPECT_EQ(small.seed, 7u);
  EXPECT_EQ(scaled(full, 1'000'000).max_out_degree, full.n / 1'000'000 - 1);
  EXPECT_THROW(scaled(full, 0), Error);
}

}  // namespace
}  // namespace spgraph::io
