// Markov clustering against the mcl program itself (datasets/mcl: mcl 22-282's clusters for the
// same graphs and parameters) on both backends: the small graphs exactly at -I 1.4, 2 and 3;
// netscience within an adjusted Rand index of 0.99; email-Enron and cit-HepPh likewise on the
// GPU (minutes on the CPU backend). Also: many row panels give
// the clusters of one, empty and linkless graphs, weights MCL refuses, the options' checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "mcl_reference.hpp"
#include "spgraph/algorithms/cluster_agreement.hpp"
#include "spgraph/algorithms/mcl.hpp"
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::test {
namespace {

using algorithms::MclOptions;
using Clusters = std::vector<std::vector<vid_t>>;

template <class B>
class Mcl : public ::testing::Test {
 protected:
  void SetUp() override {
    if constexpr (std::is_same_v<B, gpu::GpuBackend>) SPGRAPH_REQUIRE_GPU();
  }
  static algorithms::MclResult run(const Csr<double>& h, const MclOptions& options = {},
                                   const algorithms::MclProgress& progress = {}) {
    Graph<B> g(h);
    return algorithms::mcl(g, options, progress);
  }
};
using Backends = ::testing::Types<graphblas::GraphBlasBackend, gpu::GpuBackend>;
TYPED_TEST_SUITE(Mcl, Backends);

io::LoadedGraph load(const std::string& path) {
  io::LoadOptions options;
  options.duplicates = Duplicates::Max;  // mcl's rule for repeated links
  return io::load_graph(path, options);
}

// Members ascending, clusters largest first and equal sizes by their members: the order of the
// algorithm's result. (mcl orders by its own numbering, the labels' first appearance.)
Clusters canonical(Clusters c) {
  for (auto& members : c) std::sort(members.begin(), members.end());
  std::sort(c.begin(), c.end(), [](const auto& a, const auto& b) { return a.size() != b.size() ? a.size() > b.size() : a < b; });
  return c;
}

// mcl's clustering of `graph` as stored in datasets/mcl/<stem>.clusters, in vertex ids, in
// canonical order.
Clusters reference(const io::LoadedGraph& graph, const std::string& stem) {
  return canonical(clusters_as_ids(read_cluster_file(mcl_reference_path(stem)), vertex_ids_by_name(graph)));
}

// How many of a's clusters b does not hold, for a readable failure.
std::size_t missing_from(const Clusters& a, const Clusters& b) {
  std::size_t missing = 0;
  for (const auto& c : a) missing += std::find(b.begin(), b.end(), c) == b.end();
  return missing;
}

struct Small {
  const char* name;
  const char* path;     // under datasets/
  int iterations[3];    // mcl's, at -I 1.4, 2 and 3 (datasets/mcl/README.md)
};
constexpr Small kSmall[] = {{"karate", "small/karate.mtx", {12, 11, 7}},
                            {"dolphins", "small/dolphins.mtx", {17, 13, 7}},
                            {"polbooks", "small/polbooks.mtx", {20, 13, 11}},
                            {"chesapeake", "small/chesapeake.mtx", {15, 8, 9}},
                            {"hep-th", "small/hep-th.mtx", {36, 20, 16}},
                            {"cathat", "mcl/cathat.abc", {24, 13, 9}}};
struct Inflation {
  double value;
  const char* suffix;
};
constexpr Inflation kInflations[] = {{1.4, "I14"}, {2.0, "I20"}, {3.0, "I30"}};

// The same clusters as mcl, after as many iterations.
TYPED_TEST(Mcl, SmallGraphsGiveMclsClusters) {
  for (const Small& s : kSmall) {
    const io::LoadedGraph graph = load(dataset(s.path));
    for (int k = 0; k < 3; ++k) {
      const Inflation& inflation = kInflations[k];
      const std::string stem = std::string(s.name) + "." + inflation.suffix;
      const auto r = this->run(graph.matrix, {.inflation = inflation.value});
      EXPECT_TRUE(r.converged) << stem;
      EXPECT_EQ(r.iterations, s.iterations[k]) << stem;
      const Clusters expected = reference(graph, stem);
      EXPECT_EQ(r.clusters, canonical(r.clusters)) << stem << ": not in canonical order";
      EXPECT_TRUE(r.clusters == expected) << stem << ": " << r.clusters.size() << " clusters, mcl " << expected.size()
                                          << "; " << missing_from(r.clusters, expected) << " of ours not in mcl's";
    }
  }
}

// Within an adjusted Rand index of 0.99 of mcl's at -I 2.0, and converged: mcl cut overlaps on
// each of these graphs (and pruned with some loss on the large ones), where float sums may tip
// a few vertices.
void expect_agrees_with_mcl(const io::LoadedGraph& graph, const algorithms::MclResult& r, const std::string& name) {
  const Clusters expected = reference(graph, name + ".I20");
  const vid_t n = graph.matrix.nrows;
  const double ari = algorithms::adjusted_rand_index(algorithms::cluster_of_each_vertex(r.clusters, n),
                                                     algorithms::cluster_of_each_vertex(expected, n));
  EXPECT_GE(ari, 0.99) << name << ": " << r.clusters.size() << " clusters, mcl " << expected.size();
  EXPECT_TRUE(r.converged) << name;
}

// A small real graph on both backends: netscience (Newman's co-authorship network, 1589
// vertices, 128 of them isolated; mcl cut 5 overlaps), a second of CPU time. The large real
// graphs below take minutes on the CPU backend (385 s on 2 cores), so they run on the GPU only.
TYPED_TEST(Mcl, SmallRealGraphAgreesWithMcl) {
  const io::LoadedGraph graph = load(dataset("small/netscience.mtx"));
  expect_agrees_with_mcl(graph, this->run(graph.matrix), "netscience");
}

// The two real graphs of the issue (../shared/datasets/real, SNAP edge lists), on the GPU.
TEST(MclLargeRealGraphs, AgreeWithMclOnTheGpu) {
  SPGRAPH_REQUIRE_GPU();
  for (const char* name : {"email-Enron", "cit-HepPh"}) {
    const std::string path = shared_dataset(std::string("real/") + name + ".txt.gz");
    SPGRAPH_REQUIRE_SHARED_DATASET(path);
    const io::LoadedGraph graph = load(path);
    Graph<gpu::GpuBackend> g(graph.matrix);
    expect_agrees_with_mcl(graph, algorithms::mcl(g), name);
  }
}

// One line per iteration, numbered from 1, ending below mcl's chaos limit.
TYPED_TEST(Mcl, ProgressReportsEveryIteration) {
  const io::LoadedGraph graph = load(dataset("small/karate.mtx"));
  std::vector<algorithms::MclIteration> steps;
  const auto r = this->run(graph.matrix, {}, [&](const algorithms::MclIteration& s) { steps.push_back(s); });
  ASSERT_EQ(int(steps.size()), r.iterations);
  for (int i = 0; i < r.iterations; ++i) EXPECT_EQ(steps[i].iteration, i + 1);
  EXPECT_LT(steps.back().chaos, 1e-4);
  EXPECT_GE(steps.front().chaos, 1e-4);
  EXPECT_GT(steps.back().entries, 0);
}

TYPED_TEST(Mcl, EmptyAndLinklessGraphs) {
  Csr<double> empty;
  EXPECT_TRUE(this->run(empty).clusters.empty());
  Csr<double> isolated;
  isolated.nrows = isolated.ncols = 5;
  isolated.rowptr.assign(6, 0);
  const auto r = this->run(isolated);
  EXPECT_EQ(r.clusters, (Clusters{{0}, {1}, {2}, {3}, {4}}));
}

// Negative, NaN and infinite weights are refused; zero weights count as no link.
TYPED_TEST(Mcl, WeightsMclRefuses) {
  Csr<double> h;
  h.nrows = h.ncols = 3;
  h.rowptr = {0, 1, 2, 2};
  h.col = {1, 2};
  for (double bad : {-1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    h.val = {1.0, bad};
    EXPECT_THROW(this->run(h), Error) << bad;
  }
  h.val = {1.0, 0.0};  // vertex 2 is then alone
  EXPECT_EQ(this->run(h).clusters, (Clusters{{0, 1}, {2}}));
}

TYPED_TEST(Mcl, OptionsMclWouldRefuse) {
  const io::LoadedGraph graph = load(dataset("small/karate.mtx"));
  for (const MclOptions& bad : {MclOptions{.inflation = 0}, MclOptions{.inflation = -2},
                                MclOptions{.inflation = std::numeric_limits<double>::quiet_NaN()},
                                MclOptions{.recover_percent = 101}, MclOptions{.select_number = -1},
                                MclOptions{.max_iterations = 0}})
    EXPECT_THROW(this->run(graph.matrix, bad), Error);
  EXPECT_THROW(algorithms::mcl_scheme(0), Error);
  EXPECT_THROW(algorithms::mcl_scheme(8), Error);
  const MclOptions s1 = algorithms::mcl_scheme(1);
  EXPECT_EQ(s1.prune_number, 3000);
  EXPECT_EQ(s1.select_number, 400);
  EXPECT_EQ(s1.recover_number, 500);
  EXPECT_EQ(s1.recover_percent, 90);
}

// A memory budget far below the expansion's size: many row panels, each pruned as it comes,
// and the same clusters as one panel.
TEST(MclRowPanels, SmallBudgetGivesTheSameClusters) {
  SPGRAPH_REQUIRE_GPU();
  const io::LoadedGraph graph = load(dataset("small/hep-th.mtx"));
  Graph<gpu::GpuBackend> whole(graph.matrix), panels(graph.matrix);
  const auto one = algorithms::mcl(whole);
  const auto many = algorithms::mcl(panels, {.memory_budget = std::size_t(2) << 20});
  EXPECT_EQ(many.clusters, one.clusters);
  EXPECT_EQ(many.iterations, one.iterations);
  EXPECT_EQ(one.clusters, reference(graph, "hep-th.I20"));
}

}  // namespace
}  // namespace spgraph::test
