// PageRank against Boost.Graph's page_rank, an implementation that shares nothing with either
// backend, on small, generated and real graphs, both backends, both precisions.
//
// Boost iterates r(v) = (1-d) + d * sum over in-links u->v of r(u) / outdeg(u) from r = 1/n and
// does nothing for a vertex without out-links: its rank leaves the graph. spgraph spreads such a
// vertex's rank evenly over every vertex, which is what an out-link to every vertex (itself
// included) does; with those links added on the Boost side the two iterations have the same
// fixed point up to scale, Boost's being n times ours (its teleport term is 1-d, not (1-d)/n).
// Where that would add too many links (the real graphs), both sides run on the graph with its
// dangling vertices removed instead, as Boost's remove_dangling_links would, and the
// definitions coincide without any added link. Both run until the change is far below the
// bounds checked (the error shrinks by the factor d each iteration).
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/page_rank.hpp>

#include <algorithm>
#include <string>
#include <tuple>

#include "pagerank_support.hpp"
#include "spgraph/io/generators.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::test {
namespace {

using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

constexpr int kIterations = 250;  // 0.85^250 = 2e-18: both sides at their fixed points

// Boost's ranks on g scaled by 1/n, so they compare with spgraph's; a dangling vertex of g gets
// an edge to every vertex first (see above).
std::vector<double> boost_pagerank(const Csr<double>& g, double damping) {
  const vid_t n = g.nrows;
  BoostGraph bg(static_cast<std::size_t>(n));
  for (vid_t u = 0; u < n; ++u) {
    if (g.row_length(u) == 0) {
      for (vid_t v = 0; v < n; ++v) boost::add_edge(u, v, bg);
      continue;
    }
    for (eid_t k = g.rowptr[u]; k < g.rowptr[u + 1]; ++k) boost::add_edge(u, g.col[k], bg);
  }
  std::vector<double> rank(static_cast<std::size_t>(n));
  boost::graph::page_rank(bg, boost::make_iterator_property_map(rank.begin(), boost::get(boost::vertex_index, bg)),
                          boost::graph::n_iterations(kIterations), damping);
  for (double& r : rank) r /= double(n);
  return rank;
}

// g without its dangling vertices, repeatedly (removing one may leave another without
// out-links), the others renumbered in order.
Csr<double> without_dangling_vertices(const Csr<double>& g) {
  std::vector<bool> kept(static_cast<std::size_t>(g.nrows), true);
  for (bool changed = true; changed;) {
    changed = false;
    for (vid_t u = 0; u < g.nrows; ++u) {
      if (!kept[u]) continue;
      bool any = false;
      for (eid_t k = g.rowptr[u]; k < g.rowptr[u + 1] && !any; ++k) any = kept[g.col[k]];
      if (!any) kept[u] = false, changed = true;
    }
  }
  std::vector<vid_t> renumbered(static_cast<std::size_t>(g.nrows), 0);
  vid_t next = 0;
  for (vid_t u = 0; u < g.nrows; ++u)
    if (kept[u]) renumbered[u] = next++;
  Coo<double> coo;
  coo.nrows = coo.ncols = next;
  for (vid_t u = 0; u < g.nrows; ++u) {
    if (!kept[u]) continue;
    for (eid_t k = g.rowptr[u]; k < g.rowptr[u + 1]; ++k)
      if (kept[g.col[k]]) {
        coo.row.push_back(renumbered[u]);
        coo.col.push_back(renumbered[g.col[k]]);
      }
  }
  return coo_to_csr(std::move(coo));
}

vid_t dangling_vertices(const Csr<double>& g) { return vid_t(std::ranges::count(out_degrees(g), eid_t(0))); }

// Largest |ours - boost| / boost over the vertices.
double max_rel_error(const std::vector<double>& ours, const std::vector<double>& boost_ranks) {
  EXPECT_EQ(ours.size(), boost_ranks.size());
  double m = 0;
  for (std::size_t v = 0; v < std::min(ours.size(), boost_ranks.size()); ++v)
    m = std::max(m, std::abs(ours[v] - boost_ranks[v]) / boost_ranks[v]);
  return m;
}

void expect_boost_ranks(const PageRankConfig& config, const Csr<double>& g) {
  algorithms::PageRankOptions o;
  o.fixed_iterations = kIterations;
  const PageRankRun run = run_pagerank(config, g, o);
  const std::vector<double> expected = boost_pagerank(g, o.damping);
  // float: each rank rounded to 24 bits after every iteration (Graphalytics accepts 1e-4);
  // double: the order of the sums.
  EXPECT_LE(max_rel_error(run.rank, expected), config.single ? 1e-4 : 1e-11);
}

class PageRankBoostReference : public testing::TestWithParam<PageRankConfig> {
 protected:
  void expect_boost_ranks(const Csr<double>& g) { test::expect_boost_ranks(GetParam(), g); }
};

TEST_P(PageRankBoostReference, SmallGraphsWithDanglingVertices) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  for (const char* name : {"small/karate.mtx", "small/west0067.mtx", "small/ldbc-directed-example.mtx",
                           "small/polbooks.mtx", "small/netscience.mtx"}) {
    SCOPED_TRACE(name);
    expect_boost_ranks(io::load_graph(dataset(name)).matrix);
  }
}

TEST_P(PageRankBoostReference, GeneratedPowerLawGraph) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  io::PowerLawParams p;
  p.n = 2000;
  p.edges = 12'000;
  p.max_out_degree = 300;
  p.empty_rows = 200;
  p.site_size = 100;
  p.local_fraction = 0.5;
  p.seed = 7;
  const Csr<double> g = io::power_law_graph(p);
  ASSERT_GE(dangling_vertices(g), p.empty_rows);  // the case the added links stand for
  expect_boost_ranks(g);
}

// Out-degrees at and past what one byte holds (the pass reads those apart from the others,
// detail::OutDegreeCode): 254, 255 (the escape code's own value), 256 and 1000, among small ones.
TEST_P(PageRankBoostReference, OutDegreesPastOneByte) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  Coo<double> coo;
  coo.nrows = coo.ncols = 1200;
  auto links = [&](vid_t from, vid_t first, vid_t count) {
    for (vid_t v = first; v < first + count; ++v) coo.row.push_back(from), coo.col.push_back(v);
  };
  links(0, 100, 1000);
  links(1, 10, 254);
  links(2, 300, 255);
  links(3, 600, 256);
  for (vid_t u = 4; u < coo.nrows; ++u) links(u, u / 2, 1), links(u, (u + 1) % coo.nrows, 1);
  const Csr<double> g = coo_to_csr(std::move(coo));
  const std::vector<eid_t> degrees = out_degrees(g);
  ASSERT_EQ(degrees[0], 1000);
  ASSERT_EQ(degrees[2], 255);
  expect_boost_ranks(g);
}

INSTANTIATE_TEST_SUITE_P(Backends, PageRankBoostReference, all_pagerank_configs, config_name);

// One case per real graph and configuration, so a missing graph skips (or, under
// SPGRAPH_REQUIRE_SHARED_DATASETS=1, fails) its own cases only.
// The file names are std::string, not const char*, so that gtest prints the pair as
// (cpu double, "real/cit-HepPh.txt.gz") rather than with the pointer's address.
class PageRankBoostReferenceReal : public testing::TestWithParam<std::tuple<PageRankConfig, std::string>> {};

TEST_P(PageRankBoostReferenceReal, WithoutTheirDanglingVertices) {
  const auto& [config, name] = GetParam();
  SPGRAPH_REQUIRE_BACKEND(config);
  const std::string path = shared_dataset(name);
  SPGRAPH_REQUIRE_SHARED_DATASET(path);
  const Csr<double> g = without_dangling_vertices(io::load_graph(path).matrix);
  ASSERT_GT(g.nrows, 1000);
  ASSERT_EQ(dangling_vertices(g), 0);
  expect_boost_ranks(config, g);
}

INSTANTIATE_TEST_SUITE_P(
    Backends, PageRankBoostReferenceReal,
    testing::Combine(all_pagerank_configs,
                     testing::Values(std::string("real/cit-HepPh.txt.gz"), std::string("real/web-NotreDame.txt.gz"))),
    [](const testing::TestParamInfo<std::tuple<PageRankConfig, std::string>>& info) {
      return config_label(std::get<0>(info.param)) + "_" + graph_test_name(std::get<1>(info.param));
    });

}  // namespace
}  // namespace spgraph::test
