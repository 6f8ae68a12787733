// Multi-source BFS on both backends: karate from vertex 30 (LAGraph's levels and parents), the
// LDBC Graphalytics BFS validation graphs, every source of the small graphs against Boost.Graph's
// breadth_first_search, parents checked valid, batches, repeated sources, sources without links,
// in-links, the bit-parallel form against the frontier matrix, an empty graph and bad sources.
#include <gtest/gtest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>

#include <cstdint>
#include <algorithm>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "../graphblas/small_matrices.hpp"
#include "graphalytics.hpp"
#include "msbfs_answers.hpp"
#include "spgraph/algorithms/msbfs.hpp"
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::test {
namespace {

using algorithms::BfsDirection;
using algorithms::kNoParent;
using algorithms::kUnreached;
using algorithms::MsbfsOptions;

using Answers = MsbfsAnswers;

template <class B>
class Msbfs : public ::testing::Test {
 protected:
  void SetUp() override {
    if constexpr (std::is_same_v<B, gpu::GpuBackend>) SPGRAPH_REQUIRE_GPU();
  }
  static Answers run(const Csr<double>& h, const std::vector<vid_t>& sources, const MsbfsOptions& options = {}) {
    Graph<B> g(h);
    return msbfs_answers(g, sources, options);
  }
};
using Backends = ::testing::Types<graphblas::GraphBlasBackend, gpu::GpuBackend>;
TYPED_TEST_SUITE(Msbfs, Backends);

Csr<double> small(const std::string& file) { return io::load_graph(dataset("small/" + file)).matrix; }

// Boost.Graph's levels from `source` following row i's links (out-links).
std::vector<std::int32_t> boost_levels(const Csr<double>& h, vid_t source) {
  using G = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  G g(static_cast<std::size_t>(h.nrows));
  for (vid_t u = 0; u < h.nrows; ++u)
    for (eid_t p = h.rowptr[u]; p < h.rowptr[u + 1]; ++p) boost::add_edge(u, h.col[p], g);
  std::vector<std::int32_t> level(static_cast<std::size_t>(h.nrows), kUnreached);
  level[source] = 0;
  struct Recorder : boost::default_bfs_visitor {
    std::vector<std::int32_t>* level;
    void tree_edge(G::edge_descriptor e, const G& g) const {
      (*level)[boost::target(e, g)] = (*level)[boost::source(e, g)] + 1;
    }
  } recorder;
  recorder.level = &level;
  boost::breadth_first_search(g, static_cast<std::size_t>(source), boost::visitor(recorder));
  return level;
}

Csr<double> transposed(const Csr<double>& h) {
  std::vector<Entry<double>> e;
  for (vid_t u = 0; u < h.nrows; ++u)
    for (eid_t p = h.rowptr[u]; p < h.rowptr[u + 1]; ++p) e.push_back({h.col[p], u, 1});
  return csr<double>(h.ncols, h.nrows, e);
}

// karate from vertex 30: LAGraph's levels exactly; each parent among the listed valid ones.
TYPED_TEST(Msbfs, KarateFrom30MatchesLagraph) {
  std::ifstream in(dataset("expected/karate.bfs-from-30.tsv"));
  ASSERT_TRUE(in) << "datasets/expected/karate.bfs-from-30.tsv";
  std::vector<std::int32_t> want(34, kUnreached);
  std::vector<std::vector<vid_t>> allowed(34);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream f(line);
    vid_t v = 0;
    std::string parents;
    f >> v >> want[v] >> parents;
    std::istringstream list(parents);
    for (std::string p; std::getline(list, p, ',');) allowed[v].push_back(static_cast<vid_t>(std::stoi(p)));
  }
  const Answers a = this->run(small("karate.mtx"), {30}, {.parents = true});
  EXPECT_EQ(a.level[0], want);
  for (vid_t v = 0; v < 34; ++v) {
    if (v == 30) {
      EXPECT_EQ(a.parent[0][v], kNoParent);
      continue;
    }
    EXPECT_NE(std::find(allowed[v].begin(), allowed[v].end(), a.parent[0][v]), allowed[v].end())
        << "vertex " << v << " parent " << a.parent[0][v];
  }
  EXPECT_EQ(a.summary.reached, (std::vector<std::int64_t>{34}));
  EXPECT_EQ(a.summary.edges_traversed, 156);  // every link of the one component
}

// Graphalytics' BFS validation graphs (source: the file's vertex 1; unreached: 2^63 - 1).
TYPED_TEST(Msbfs, GraphalyticsValidationGraphs) {
  for (const char* name : {"dir", "undir"}) {
    const GraphalyticsGraph g = read_graphalytics_adjacency(dataset(std::string("graphalytics/bfs/") + name + "-input"));
    const std::vector<double> expected =
        read_graphalytics_values(dataset(std::string("graphalytics/bfs/") + name + "-output"), g);
    const vid_t source = g.vertex_of_id.at(1);
    const Answers a = this->run(g.matrix, {source}, {.parents = true});
    for (vid_t v = 0; v < g.matrix.nrows; ++v)
      EXPECT_EQ(a.level[0][v], expected[v] > 1e18 ? kUnreached : static_cast<std::int32_t>(expected[v]))
          << name << " vertex " << v;
    EXPECT_TRUE(parents_valid(g.matrix, source, a.level[0], a.parent[0], BfsDirection::Out)) << name;
  }
}

// Every vertex as a source, in batches of 16 (several batches, the last one short), against
// Boost.Graph; parents valid; following in-links equals Boost on the transposed graph.
TYPED_TEST(Msbfs, EverySourceOfTheSmallGraphsMatchesBoost) {
  for (const char* file : {"karate.mtx", "west0067.mtx", "ldbc-directed-example.mtx", "LFAT5.mtx", "dolphins.mtx",
                           "tree-example.mtx"}) {
    const Csr<double> h = small(file);
    std::vector<vid_t> sources(static_cast<std::size_t>(h.nrows));
    std::iota(sources.begin(), sources.end(), 0);
    for (BfsDirection d : {BfsDirection::Out, BfsDirection::In}) {
      const Csr<double> followed = d == BfsDirection::Out ? h : transposed(h);
      const Answers a = this->run(h, sources, {.parents = true, .direction = d, .batch = 16});
      ASSERT_EQ(a.summary.reached.size(), sources.size());
      for (vid_t s : sources) {
        const auto want = boost_levels(followed, s);
        ASSERT_EQ(a.level[s], want) << file << " source " << s << (d == BfsDirection::Out ? " out" : " in");
        EXPECT_TRUE(parents_valid(h, s, a.level[s], a.parent[s], d)) << file << " source " << s;
        EXPECT_EQ(a.summary.reached[s], std::count_if(want.begin(), want.end(), [](int l) { return l >= 0; }));
        EXPECT_EQ(a.summary.depth[s], *std::max_element(want.begin(), want.end())) << file << " source " << s;
      }
    }
  }
}

// More than a word of sources in one batch, a source repeated, a source without links; the
// same answers whatever the batch size; no parents unless asked.
TYPED_TEST(Msbfs, BatchesRepeatsAndIsolatedSources) {
  const Csr<double> h = small("bcsstk13.mtx");
  std::vector<vid_t> sources;
  for (vid_t s = 0; s < 150; ++s) sources.push_back((s * 37) % h.nrows);
  sources.push_back(sources[3]);  // repeated
  const Answers all = this->run(h, sources, {.batch = 200});
  const Answers small_batches = this->run(h, sources, {.batch = 7});
  EXPECT_EQ(all.level, small_batches.level);
  EXPECT_EQ(all.level.back(), all.level[3]);
  EXPECT_TRUE(all.parent[0].empty());
  for (std::size_t k : {std::size_t{0}, std::size_t{77}, sources.size() - 1})
    EXPECT_EQ(all.level[k], boost_levels(h, sources[k])) << "source " << sources[k];

  // Vertex 3 has no links at all; vertex 0 only out-links.
  const Csr<double> lonely = csr<double>(4, 4, {{0, 1, 1}, {1, 2, 1}});
  const Answers a = this->run(lonely, {3, 0, 2}, {.parents = true});
  EXPECT_EQ(a.level[0], (std::vector<std::int32_t>{-1, -1, -1, 0}));
  EXPECT_EQ(a.level[1], (std::vector<std::int32_t>{0, 1, 2, -1}));
  EXPECT_EQ(a.level[2], (std::vector<std::int32_t>{-1, -1, 0, -1}));
  EXPECT_EQ(a.parent[1], (std::vector<vid_t>{kNoParent, 0, 1, kNoParent}));
  EXPECT_EQ(a.summary.depth, (std::vector<std::int32_t>{0, 2, 0}));
  EXPECT_EQ(a.summary.edges_traversed, 0 + 2 + 0);
}

// The bit-parallel form (the gpu's, without parents) against the frontier matrix: the same
// levels and summary from every source, both directions, batches of 64 and of 100 (run 64 at a
// time by the word form).
TYPED_TEST(Msbfs, BothFormsAgree) {
  using algorithms::MsbfsForm;
  for (const char* file : {"karate.mtx", "west0067.mtx", "bcsstk13.mtx", "hep-th.mtx"}) {
    const Csr<double> h = small(file);
    std::vector<vid_t> sources(static_cast<std::size_t>(std::min<vid_t>(h.nrows, 200)));
    std::iota(sources.begin(), sources.end(), 0);
    for (BfsDirection d : {BfsDirection::Out, BfsDirection::In})
      for (int batch : {64, 100}) {
        const Answers words = this->run(h, sources, {.direction = d, .batch = batch});
        const Answers matrix = this->run(h, sources, {.direction = d, .batch = batch, .form = MsbfsForm::Matrix});
        EXPECT_EQ(words.level, matrix.level) << file << " batch " << batch;
        EXPECT_EQ(words.summary.reached, matrix.summary.reached) << file;
        EXPECT_EQ(words.summary.depth, matrix.summary.depth) << file;
        EXPECT_EQ(words.summary.edges_traversed, matrix.summary.edges_traversed) << file;
      }
  }
}

TYPED_TEST(Msbfs, EmptyGraphAndBadSources) {
  Csr<double> none;
  none.rowptr = {0};
  const Answers a = this->run(none, {});
  EXPECT_TRUE(a.summary.reached.empty());
  const std::string bad = error_of([&] { this->run(none, {0}); });
  EXPECT_NE(bad.find("source 0 (sources[0])"), std::string::npos) << bad;
  const Csr<double> h = small("karate.mtx");
  const std::string outside = error_of([&] { this->run(h, {3, 34}); });
  EXPECT_NE(outside.find("source 34 (sources[1]) is not a vertex of the graph (0..33)"), std::string::npos)
      << outside;
  EXPECT_THROW(this->run(h, {3}, {.batch = 0}), Error);
  // Only the summary when no sink is given.
  Graph<TypeParam> g(h);
  const auto summary = algorithms::msbfs(g, {0, 33}, {});
  EXPECT_EQ(summary.reached, (std::vector<std::int64_t>{34, 34}));
}

}  // namespace
}  // namespace spgraph::test
