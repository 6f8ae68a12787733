// PageRank, triangle counting, multi-source BFS and MCL on the distributed backend by the same
// templates as on one process, against the one-process answers of the same local backend and the
// published ones, on every grid shape of the job's ranks: ranks within 1e-9, counts, levels and
// clusters exact, parents valid. On CPU ranks (dist::CpuBackend against GraphBLAS) and on GPU ranks
// (dist::GpuBackend against one GPU; here every rank shares the machine's first GPU, as the
// exchanges go through host memory), the latter skipped where no GPU is usable.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "msbfs_answers.hpp"
#include "rank_backends.hpp"
#include "spgraph/algorithms/mcl.hpp"
#include "spgraph/algorithms/msbfs.hpp"
#include "spgraph/algorithms/pagerank.hpp"
#include "spgraph/algorithms/triangle_count.hpp"

namespace spgraph::dist::test {
namespace {

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
      Graph<One> one(host);
      Graph<TypeParam> many(host);
      const spgraph::test::MsbfsAnswers want = spgraph::test::msbfs_answers(one, sources, options);
      const spgraph::test::MsbfsAnswers got = spgraph::test::msbfs_answers(many, sources, options);
      EXPECT_EQ(got.summary.reached, want.summary.reached);
      EXPECT_EQ(got.summary.depth, want.summary.depth);
      EXPECT_EQ(got.level, want.level);
      for (std::size_t s = 0; s < sources.size(); ++s)
        EXPECT_TRUE(spgraph::test::parents_valid(host, sources[s], got.level[s], got.parent[s], options.direction))
            << "source " << s;
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

// PageRankLoop::Device (every iteration in one kernel) runs on a grid of one rank of GPU ranks,
// and is refused with a message elsewhere, on every rank alike.
TYPED_TEST(DistAlgorithms, PageRankDeviceLoopOnOneGpuRankOnly) {
  const Csr<double> host = load("small/karate.mtx");
  for_each_grid([&](const ProcessGrid& grid) {
    Graph<TypeParam> many(host);
    algorithms::PageRankOptions options;
    options.loop = algorithms::PageRankLoop::Device;
    if (DeviceLoop<TypeParam> && grid.world().size() == 1) {
      EXPECT_TRUE(algorithms::pagerank<double>(many, options).device_loop);
      return;
    }
    try {
      algorithms::pagerank<double>(many, options);
      ADD_FAILURE() << "PageRankLoop::Device ran";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(DeviceLoop<TypeParam> ? "one rank" : "host only"), std::string::npos) << e.what();
    }
  });
}

// On a grid of one rank every operation is the local backend's own: the algorithms call no
// collective and give the one-process answers exactly, PageRank by the same loop (one kernel for
// every iteration, where the GPU's MxvLoop suits the graph), msbfs by the GPU's WordBfs.
TYPED_TEST(DistAlgorithms, OnOneRankTheLocalBackendRunsAlone) {
  using One = typename TestFixture::One;
  if (world().size() != 1) GTEST_SKIP() << "a job of one rank runs it; this one has " << world().size();
  const Csr<double> host = load("small/netscience.mtx");
  ProcessGrid grid(world(), GridShape{1, 1});
  GridScope scope(grid);
  Graph<One> one(host);
  Graph<TypeParam> many(host);
  grid.reset_traffic();

  const auto rank_one = algorithms::pagerank<double>(one, {});
  const auto rank_many = algorithms::pagerank<double>(many, {});
  EXPECT_EQ(rank_many.rank, rank_one.rank);
  EXPECT_EQ(rank_many.device_loop, rank_one.device_loop);
  EXPECT_EQ(algorithms::triangle_count(many).triangles, 3764);
  EXPECT_EQ(algorithms::mcl(many).clusters, algorithms::mcl(one).clusters);
  // GraphBLAS has no bit-parallel search: CPU ranks run the distributed one, on one rank too.
  const std::vector<vid_t> sources = {0, 7, 1000};
  if constexpr (WordFrontierBfs<One>)
    EXPECT_EQ(spgraph::test::msbfs_answers(many, sources, {}).level, spgraph::test::msbfs_answers(one, sources, {}).level);

  const dist::Traffic traffic = grid.traffic();
  std::string calls;
  for (int c = 0; c < kCollectives; ++c)
    if (traffic.by_collective[c].calls)
      calls += std::string(" ") + name_of(Collective(c)) + " " + std::to_string(traffic.by_collective[c].calls);
  EXPECT_EQ(calls, "") << "collectives on a grid of one rank";
}

}  // namespace
}  // namespace spgraph::dist::test
