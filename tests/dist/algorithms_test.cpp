// PageRank, triangle counting, multi-source BFS and MCL on the distributed backend by the same
// templates as on one process, against the one-process answers of the same local backend and the
// published ones, on every grid shape of the job's ranks: ranks within 1e-9, counts, levels and
// clusters exact, parents valid. On CPU ranks (dist::CpuBackend against GraphBLAS) and on GPU ranks
// (dist::GpuBackend against one GPU; here every rank shares the machine's first GPU, as the
// exchanges go through host memory), the latter skipped where no GPU is usable.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "dist_test_support.hpp"
#include "spgraph/algorithms/mcl.hpp"
#include "spgraph/algorithms/msbfs.hpp"
#include "spgraph/algorithms/pagerank.hpp"
#include "spgraph/algorithms/triangle_count.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/dist/cpu_backend.hpp"
#if SPGRAPH_HAVE_GPU
#include "spgraph/dist/gpu_backend.hpp"
#endif
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::dist::test {
namespace {

using spgraph::test::dataset;

Csr<double> load(const std::string& rel) { return io::load_graph(dataset(rel)).matrix; }

// A directed graph with dangling vertices and uneven degrees, the same on every rank.
Csr<double> random_directed(vid_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  Coo<double> coo;
  coo.nrows = coo.ncols = n;
  for (vid_t i = 0; i < n; ++i) {
    if (i % 7 == 3) continue;  // no out-links
    const int k = 1 + int(rng() % (i % 11 == 0 ? 40 : 5));
    for (int e = 0; e < k; ++e) {
      coo.row.push_back(i);
      coo.col.push_back(vid_t(rng() % std::uint64_t(n)));
    }
  }
  return coo_to_csr(std::move(coo), Duplicates::First);
}

// The one-process backend a distributed one is compared with: its local backend.
template <class B>
struct OneProcess;
template <class Local>
struct OneProcess<Backend<Local>> {
  using type = Local;
};

template <class B>
class DistAlgorithms : public ::testing::Test {
 protected:
  using One = typename OneProcess<B>::type;
  void SetUp() override {
    if constexpr (!std::is_same_v<B, CpuBackend>) {
      // Every rank must agree, or one would skip while the others wait in a collective.
      std::string why;
      const std::uint8_t mine = device::gpu_available(&why) ? 1 : 0;
      std::uint8_t all = 0;
      world().allreduce(&mine, &all, 1, ReduceOp::Min);
      if (!all) GTEST_SKIP() << "GPU ranks need a usable GPU on every rank: " << (why.empty() ? "another rank has none" : why);
    }
  }
};

struct RankKind {
  template <class B>
  static std::string GetName(int) {
    return std::is_same_v<B, CpuBackend> ? "CpuRanks" : "GpuRanks";
  }
};
#if SPGRAPH_HAVE_GPU
using RankBackends = ::testing::Types<CpuBackend, GpuBackend>;
#else
using RankBackends = ::testing::Types<CpuBackend>;
#endif
TYPED_TEST_SUITE(DistAlgorithms, RankBackends, RankKind);

const char* const kGraphs[] = {"small/karate.mtx", "small/west0067.mtx", "small/ldbc-directed-example.mtx",
                               "small/jagmesh7.mtx", "small/netscience.mtx"};

TYPED_TEST(DistAlgorithms, PageRankMatchesOneProcess) {
  using One = typename TestFixture::One;
  std::vector<std::pair<std::string, Csr<double>>> graphs;
  for (const char* g : kGraphs) graphs.emplace_back(g, load(g));
  graphs.emplace_back("random directed 500", random_directed(500, 7));
  for_each_grid([&](const ProcessGrid&) {
    for (const auto& [name, host] : graphs) {
      for (algorithms::PageRankLoop loop : {algorithms::PageRankLoop::Auto, algorithms::PageRankLoop::Operations}) {
        SCOPED_TRACE(name + (loop == algorithms::PageRankLoop::Operations ? " (operations)" : ""));
        algorithms::PageRankOptions options;
        options.tolerance = 1e-10;
        options.loop = loop;
        Graph<One> one(host);
        Graph<TypeParam> many(host);
        const auto want = algorithms::pagerank<double>(one, options);
        const auto got = algorithms::pagerank<double>(many, options);
        EXPECT_EQ(got.iterations, want.iterations);
        EXPECT_EQ(got.converged, want.converged);
        ASSERT_EQ(got.rank.size(), want.rank.size());
        double sum = 0, worst = 0;
        for (std::size_t i = 0; i < got.rank.size(); ++i) {
          sum += got.rank[i];
          worst = std::max(worst, std::abs(got.rank[i] - want.rank[i]));
        }
        EXPECT_LE(worst, 1e-9);
        EXPECT_NEAR(sum, 1.0, 1e-9);
      }
    }
  });
}

TYPED_TEST(DistAlgorithms, TriangleCountsAreThePublishedOnes) {
  using One = typename TestFixture::One;
  const std::pair<const char*, std::int64_t> known[] = {{"small/karate.mtx", 45},     {"small/jagmesh7.mtx", 2016},
                                                        {"small/bcsstk13.mtx", 342300}, {"small/dolphins.mtx", 95},
                                                        {"small/netscience.mtx", 3764}, {"small/LFAT5.mtx", 0}};
  std::vector<Csr<double>> graphs;
  for (const auto& [path, count] : known) graphs.push_back(load(path));
  for_each_grid([&](const ProcessGrid&) {
    for (std::size_t g = 0; g < graphs.size(); ++g) {
      for (algorithms::TriangleMethod method : algorithms::kTriangleMethods) {
        SCOPED_TRACE(std::string(known[g].first) + " " + algorithms::to_string(method));
        algorithms::TriangleCountOptions options;
        options.method = method;
        options.per_vertex = g < 2;
        Graph<TypeParam> many(graphs[g]);
        const auto got = algorithms::triangle_count(many, options);
        EXPECT_EQ(got.triangles, known[g].second);
        if (options.per_vertex) {
          Graph<One> one(graphs[g]);
          EXPECT_EQ(got.per_vertex, algorithms::triangle_count(one, options).per_vertex);
        }
      }
    }
  });
}

TYPED_TEST(DistAlgorithms, MsbfsLevelsMatchOneProcessAndParentsAreValid) {
  using One = typename TestFixture::One;
  std::vector<std::pair<std::string, Csr<double>>> graphs;
  for (const char* g : {"small/karate.mtx", "small/west0067.mtx", "small/netscience.mtx"}) graphs.emplace_back(g, load(g));
  graphs.emplace_back("random directed 300", random_directed(300, 9));
  for_each_grid([&](const ProcessGrid&) {
    for (const auto& [name, host] : graphs) {
      SCOPED_TRACE(name);
      const vid_t n = host.nrows;
      const std::vector<vid_t> sources = {0, vid_t(n - 1), vid_t(n / 2), 0, vid_t(n / 3)};
      algorithms::MsbfsOptions options;
      options.parents = true;
      options.batch = 3;
      std::vector<algorithms::MsbfsBatch> want, got;
      Graph<One> one(host);
      Graph<TypeParam> many(host);
      const auto want_summary =
          algorithms::msbfs(one, sources, [&](const algorithms::MsbfsBatch& b) { want.push_back(b); }, options);
      const auto got_summary =
          algorithms::msbfs(many, sources, [&](const algorithms::MsbfsBatch& b) { got.push_back(b); }, options);
      EXPECT_EQ(got_summary.reached, want_summary.reached);
      EXPECT_EQ(got_summary.depth, want_summary.depth);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t b = 0; b < got.size(); ++b) {
        EXPECT_EQ(got[b].level, want[b].level);
        ASSERT_EQ(got[b].parent.size(), got[b].level.size());
        for (std::size_t s = 0; s < got[b].count; ++s)
          for (vid_t v = 0; v < n; ++v) {
            const std::size_t at = s * std::size_t(n) + std::size_t(v);
            const std::int32_t level = got[b].level[at];
            const vid_t parent = got[b].parent[at];
            if (level <= 0) {
              EXPECT_EQ(parent, algorithms::kNoParent) << "source " << s << " vertex " << v;
              continue;
            }
            ASSERT_TRUE(parent >= 0 && parent < n) << "vertex " << v << " parent " << parent;
            EXPECT_EQ(got[b].level[s * std::size_t(n) + std::size_t(parent)], level - 1) << "vertex " << v;
            const auto first = host.col.begin() + host.rowptr[std::size_t(parent)];
            const auto last = host.col.begin() + host.rowptr[std::size_t(parent) + 1];
            EXPECT_TRUE(std::binary_search(first, last, v)) << "no link " << parent << " -> " << v;
          }
      }
    }
  });
}

TYPED_TEST(DistAlgorithms, MclClustersMatchOneProcess) {
  using One = typename TestFixture::One;
  std::vector<std::pair<std::string, Csr<double>>> graphs;
  for (const char* g : {"small/karate.mtx", "small/dolphins.mtx", "small/netscience.mtx"}) graphs.emplace_back(g, load(g));
  for_each_grid([&](const ProcessGrid&) {
    for (const auto& [name, host] : graphs)
      for (double inflation : {1.4, 2.0}) {
        SCOPED_TRACE(name + " -I " + std::to_string(inflation));
        algorithms::MclOptions options;
        options.inflation = inflation;
        Graph<One> one(host);
        Graph<TypeParam> many(host);
        const auto want = algorithms::mcl(one, options);
        const auto got = algorithms::mcl(many, options);
        EXPECT_EQ(got.iterations, want.iterations);
        EXPECT_EQ(got.clusters, want.clusters);  // largest first, members ascending: one order
      }
  });
}

}  // namespace
}  // namespace spgraph::dist::test
