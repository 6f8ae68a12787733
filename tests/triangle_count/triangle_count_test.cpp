// Triangle counting: published counts (datasets/PROVENANCE.md, ../shared/datasets/README.md:
// SNAP's and SciPy-verified figures) on both backends with every method, presort and form;
// per-vertex counts against Boost.Graph; the undirected simple graph under a directed, weighted
// input; a count past 2^32; an empty graph.
#include <gtest/gtest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/clustering_coefficient.hpp>

#include <cstdint>
#include <numeric>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "../graphblas/small_matrices.hpp"
#include "spgraph/algorithms/triangle_count.hpp"
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::test {
namespace {

using algorithms::TriangleCountOptions;
using algorithms::TriangleMethod;
using algorithms::TrianglePresort;

constexpr auto& kMethods = algorithms::kTriangleMethods;

template <class B>
class TriangleCount : public ::testing::Test {
 protected:
  void SetUp() override {
    if constexpr (std::is_same_v<B, gpu::GpuBackend>) SPGRAPH_REQUIRE_GPU();
  }
  // The count by `options` on a fresh Graph of h.
  static algorithms::TriangleCountResult count(const Csr<double>& h, const TriangleCountOptions& options = {}) {
    Graph<B> g(h);
    return algorithms::triangle_count(g, options);
  }
};
using Backends = ::testing::Types<graphblas::GraphBlasBackend, gpu::GpuBackend>;
TYPED_TEST_SUITE(TriangleCount, Backends);

struct Known {
  const char* file;
  std::int64_t triangles;
};
// datasets/small (copied from ../shared/datasets/small, counts from its README).
constexpr Known kSmall[] = {{"karate.mtx", 45},     {"dolphins.mtx", 95},      {"polbooks.mtx", 560},
                            {"chesapeake.mtx", 194}, {"netscience.mtx", 3764}, {"jagmesh7.mtx", 2016},
                            {"bcsstk13.mtx", 342300}, {"hep-th.mtx", 13302},     {"A.mtx", 11},
                            {"ldbc-undirected-example.mtx", 4}, {"ldbc-cdlp-undirected-example.mtx", 6},
                            {"ldbc-wcc-example.mtx", 5}, {"LFAT5.mtx", 0},       {"tree-example.mtx", 0}};

Csr<double> small(const char* file) { return io::load_graph(dataset(std::string("small/") + file)).matrix; }

// Every method, each presort and both forms (fused and materialised), on every small graph.
TYPED_TEST(TriangleCount, SmallGraphsEveryMethodPresortAndForm) {
  for (const Known& k : kSmall) {
    const Csr<double> h = small(k.file);
    Graph<TypeParam> g(h);
    for (TriangleMethod m : kMethods)
      for (TrianglePresort p : {TrianglePresort::Auto, TrianglePresort::None, TrianglePresort::Ascending,
                                TrianglePresort::Descending})
        for (bool materialize : {false, true}) {
          const auto r = algorithms::triangle_count(g, {.method = m, .presort = p, .materialize = materialize});
          EXPECT_EQ(r.triangles, k.triangles) << k.file << " " << to_string(m) << " presort " << to_string(p)
                                              << (materialize ? " materialised" : " fused");
          EXPECT_EQ(r.method, m);
        }
  }
}

// Boost.Graph's num_triangles_on_vertex on the undirected simple graph (setS drops parallel
// edges; self-loops are left out when building it).
std::vector<std::int64_t> boost_per_vertex(const Csr<double>& h) {
  using G = boost::adjacency_list<boost::setS, boost::vecS, boost::undirectedS>;
  G g(static_cast<std::size_t>(h.nrows));
  for (vid_t i = 0; i < h.nrows; ++i)
    for (eid_t p = h.rowptr[i]; p < h.rowptr[i + 1]; ++p)
      if (h.col[p] != i) boost::add_edge(static_cast<std::size_t>(i), static_cast<std::size_t>(h.col[p]), g);
  std::vector<std::int64_t> t(static_cast<std::size_t>(h.nrows));
  for (vid_t v = 0; v < h.nrows; ++v) t[v] = static_cast<std::int64_t>(boost::num_triangles_on_vertex(g, v));
  return t;
}

TYPED_TEST(TriangleCount, PerVertexMatchesBoostGraph) {
  for (const char* file : {"karate.mtx", "dolphins.mtx", "polbooks.mtx", "chesapeake.mtx", "jagmesh7.mtx",
                           "netscience.mtx", "west0067.mtx", "ldbc-directed-example.mtx"}) {
    const Csr<double> h = small(file);
    const std::vector<std::int64_t> want = boost_per_vertex(h);
    for (bool materialize : {false, true}) {
      const auto r = this->count(h, {.materialize = materialize, .per_vertex = true});
      EXPECT_EQ(r.per_vertex, want) << file << (materialize ? " materialised" : " fused");
      EXPECT_EQ(std::accumulate(r.per_vertex.begin(), r.per_vertex.end(), std::int64_t{0}), 3 * r.triangles) << file;
    }
  }
  EXPECT_TRUE(this->count(small("karate.mtx")).per_vertex.empty());  // only when asked
}

// Directed links 0->1, 1->0 (reciprocal), 1->2 twice with different weights, 2->0, self-loops
// at 0 and 2, and a second triangle 2-3-4 given in one direction with a negative weight: the
// undirected simple graph has the triangles {0,1,2} and {2,3,4}.
TYPED_TEST(TriangleCount, DirectedWeightedInputCountsItsUndirectedSimpleGraph) {
  const Csr<double> h = csr<double>(6, 6, {{0, 1, 2.5}, {1, 0, 1}, {1, 2, 3}, {2, 0, 7}, {0, 0, 4}, {2, 2, 1},
                                           {2, 3, -1}, {3, 4, 2}, {4, 2, 0.5}, {4, 5, 1}});
  for (TriangleMethod m : kMethods) {
    const auto r = this->count(h, {.method = m, .per_vertex = true});
    EXPECT_EQ(r.triangles, 2) << to_string(m);
    EXPECT_EQ(r.per_vertex, (std::vector<std::int64_t>{1, 1, 2, 1, 1, 0})) << to_string(m);
  }
}

// K_3000 has C(3000, 3) = 4,495,501,000 triangles, past 2^32: every count is 64-bit.
TYPED_TEST(TriangleCount, CompleteGraphPast2To32) {
  const vid_t n = 3000;
  Csr<double> k;
  k.nrows = k.ncols = n;
  k.rowptr = {0};
  for (vid_t i = 0; i < n; ++i) {
    for (vid_t j = 0; j < n; ++j)
      if (j != i) k.col.push_back(j);
    k.rowptr.push_back(static_cast<eid_t>(k.col.size()));
  }
  EXPECT_EQ(this->count(k).triangles, 4495501000LL);
  // The per-vertex counts (C(2999, 2) each) and the other forms cost seconds on the CPU.
  if constexpr (std::is_same_v<TypeParam, gpu::GpuBackend>) {
    EXPECT_EQ(this->count(k, {.per_vertex = true}).per_vertex, std::vector<std::int64_t>(n, std::int64_t{2999} * 2998 / 2));
    for (TriangleMethod m : {TriangleMethod::Sandia, TriangleMethod::Cohen})
      EXPECT_EQ(this->count(k, {.method = m}).triangles, 4495501000LL) << to_string(m);
  }
}

TYPED_TEST(TriangleCount, EmptyGraphsCountZero) {
  Csr<double> none;  // no vertices
  none.rowptr = {0};
  const auto r = this->count(none, {.per_vertex = true});
  EXPECT_EQ(r.triangles, 0);
  EXPECT_TRUE(r.per_vertex.empty());
  const Csr<double> isolated = csr<double>(5, 5, {{3, 3, 1}});  // one self-loop, nothing else
  for (TriangleMethod m : kMethods) EXPECT_EQ(this->count(isolated, {.method = m}).triangles, 0) << to_string(m);
  EXPECT_EQ(this->count(isolated, {.per_vertex = true}).per_vertex, std::vector<std::int64_t>(5, 0));
}

// LAGraph's rule relabels a graph whose degrees are skewed (mean degree >= 10, the sampled mean
// above 4 times the sampled median) and leaves an even one alone; Burkhardt and Cohen never
// relabel. Skewed: a clique of 300 vertices, each of the other 3700 a leaf hanging from one of
// them (median degree 1, mean about 24); C(300, 3) = 4,455,100 triangles.
TYPED_TEST(TriangleCount, PresortRule) {
  const vid_t n = 4000, clique = 300;
  std::vector<Entry<double>> e;
  for (vid_t i = 0; i < clique; ++i)
    for (vid_t j = 0; j < clique; ++j)
      if (i != j) e.push_back({i, j, 1});
  for (vid_t v = clique; v < n; ++v) {
    e.push_back({v, v % clique, 1});
    e.push_back({v % clique, v, 1});
  }
  const Csr<double> s = csr<double>(n, n, e);
  auto r = this->count(s);
  EXPECT_EQ(r.presort, TrianglePresort::Ascending);
  EXPECT_EQ(r.triangles, 4455100);
  r = this->count(s, {.method = TriangleMethod::SandiaDot2});
  EXPECT_EQ(r.presort, TrianglePresort::Descending);
  EXPECT_EQ(r.triangles, 4455100);
  EXPECT_EQ(this->count(s, {.method = TriangleMethod::Cohen}).presort, TrianglePresort::None);
  EXPECT_EQ(this->count(s, {.presort = TrianglePresort::None}).presort, TrianglePresort::None);
  const Csr<double> even = small("bcsstk13.mtx");  // n = 2003, mean degree about 40, not skewed
  r = this->count(even);
  EXPECT_EQ(r.presort, TrianglePresort::None);
  EXPECT_EQ(r.triangles, 342300);
}

// The medium real graphs (../shared/datasets/real, SNAP's and SciPy-verified counts).
struct RealGraph {
  const char* name;  // the test's name
  const char* file;
  std::int64_t triangles;
};
// gtest prints the parameter as "cnr-2000.mtx.gz, 20977629 triangles" (not its bytes).
void PrintTo(const RealGraph& g, std::ostream* os) { *os << g.file << ", " << g.triangles << " triangles"; }
class TriangleCountReal : public ::testing::TestWithParam<RealGraph> {};

TEST_P(TriangleCountReal, PublishedCountOnTheCpu) {
  const std::string path = shared_dataset(std::string("real/") + GetParam().file);
  SPGRAPH_REQUIRE_SHARED_DATASET(path);
  EXPECT_EQ(algorithms::triangle_count(algorithms::Backend::Cpu, io::load_graph(path).matrix).triangles,
            GetParam().triangles);
}

TEST_P(TriangleCountReal, PublishedCountOnTheGpuEveryMethod) {
  SPGRAPH_REQUIRE_GPU();
  const std::string path = shared_dataset(std::string("real/") + GetParam().file);
  SPGRAPH_REQUIRE_SHARED_DATASET(path);
  const Csr<double> h = io::load_graph(path).matrix;
  Graph<gpu::GpuBackend> g(h);
  for (TriangleMethod m : kMethods)
    EXPECT_EQ(algorithms::triangle_count(g, {.method = m}).triangles, GetParam().triangles) << to_string(m);
  EXPECT_EQ(algorithms::triangle_count(g, {.materialize = true}).triangles, GetParam().triangles) << "materialised";
}

INSTANTIATE_TEST_SUITE_P(Shared, TriangleCountReal,
                         ::testing::Values(RealGraph{"cnr2000", "cnr-2000.mtx.gz", 20977629},
                                           RealGraph{"webNotreDame", "web-NotreDame.txt.gz", 8910005},
                                           RealGraph{"citHepPh", "cit-HepPh.txt.gz", 1276868},
                                           RealGraph{"emailEnron", "email-Enron.txt.gz", 727044}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(TriangleCountOptions, MethodNamesRoundTrip) {
  for (TriangleMethod m : kMethods) EXPECT_EQ(algorithms::triangle_method_from_string(to_string(m)), m);
  EXPECT_FALSE(algorithms::triangle_method_from_string("sandiadot").has_value());
}

}  // namespace
}  // namespace spgraph::test
