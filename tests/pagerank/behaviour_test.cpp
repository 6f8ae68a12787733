// PageRank's stopping rules, dangling vertices, weights and input checks, on graphs small
// enough to solve by hand.
#include <cmath>

#include "pagerank_support.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/matrix_market.hpp"

namespace spgraph::test {
namespace {

using algorithms::PageRankOptions;
using algorithms::ToleranceMode;

Csr<double> csr(vid_t n, std::vector<std::pair<vid_t, vid_t>> edges) {
  Coo<double> coo;
  coo.nrows = coo.ncols = n;
  for (auto [s, d] : edges) {
    coo.row.push_back(s);
    coo.col.push_back(d);
  }
  return coo_to_csr(std::move(coo));
}

// 0 -> 1, and 1 has no out-links. With r = (a, b), a + b = 1, one iteration gives
//   a' = (1-d)/2 + d*b/2,  b' = (1-d)/2 + d*b/2 + d*a,
// whose fixed point for d = 0.85 is (20/57, 37/57); the error shrinks by -d/2 per iteration,
// so from (1/2, 1/2) the L1 change of iteration k is exactly (d/2)^k.
const Csr<double> kLink = csr(2, {{0, 1}});
constexpr double kRatio = 0.425;

class PageRankBehaviour : public testing::TestWithParam<PageRankConfig> {
 protected:
  double eps() const { return GetParam().single ? 1e-6 : 1e-14; }
};

TEST_P(PageRankBehaviour, OneIterationByHand) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  PageRankOptions o;
  o.fixed_iterations = 1;
  const PageRankRun run = run_pagerank(GetParam(), kLink, o);
  // base = 0.15/2 + 0.85 * 0.5 / 2 = 0.2875; vertex 1 adds 0.85 * 0.5
  EXPECT_NEAR(run.rank[0], 0.2875, eps());
  EXPECT_NEAR(run.rank[1], 0.7125, eps());
  EXPECT_NEAR(run.change, 0.425, eps());
  EXPECT_EQ(run.iterations, 1);
}

TEST_P(PageRankBehaviour, ChangeShrinksGeometricallyToTheFixedPoint) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  for (int k : {2, 5, 9}) {
    PageRankOptions o;
    o.fixed_iterations = k;
    const PageRankRun run = run_pagerank(GetParam(), kLink, o);
    EXPECT_NEAR(run.change, std::pow(kRatio, k), eps()) << k;
    EXPECT_NEAR(run.rank[0], 20.0 / 57 + (0.5 - 20.0 / 57) * std::pow(-kRatio, k), eps()) << k;
  }
  const PageRankRun run = run_pagerank(GetParam(), kLink, PageRankOptions{});
  EXPECT_NEAR(run.rank[0], 20.0 / 57, 1e-6);
  EXPECT_NEAR(run.rank[1], 37.0 / 57, 1e-6);
}

TEST_P(PageRankBehaviour, StopsAtTheFirstIterationBelowTolerance) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  // 0.425^13 = 1.47e-5, 0.425^14 = 6.3e-6: the first change below 1e-5 is iteration 14's.
  PageRankOptions o;
  o.tolerance = 1e-5;
  PageRankRun run = run_pagerank(GetParam(), kLink, o);
  EXPECT_TRUE(run.converged);
  EXPECT_EQ(run.iterations, 14);
  EXPECT_NEAR(run.change, std::pow(kRatio, 14), eps());

  // networkx's rule compares with n * tol = 2e-5, which 0.425^13 already is below.
  o.tolerance_mode = ToleranceMode::NetworkX;
  run = run_pagerank(GetParam(), kLink, o);
  EXPECT_TRUE(run.converged);
  EXPECT_EQ(run.iterations, 13);
}

TEST_P(PageRankBehaviour, ReportsNotConvergedAfterMaxIterations) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  PageRankOptions o;
  o.max_iterations = 10;
  const PageRankRun run = run_pagerank(GetParam(), kLink, o);
  EXPECT_FALSE(run.converged);
  EXPECT_EQ(run.iterations, 10);
  EXPECT_NEAR(run.change, std::pow(kRatio, 10), eps());
  EXPECT_NEAR(sum(run.rank), 1.0, eps());
}

TEST_P(PageRankBehaviour, FixedIterationsIgnoreTolerance) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  PageRankOptions o;
  o.fixed_iterations = 30;  // the change drops below the default 1e-6 at iteration 17
  o.max_iterations = 5;     // not used either
  const PageRankRun run = run_pagerank(GetParam(), kLink, o);
  EXPECT_EQ(run.iterations, 30);
  EXPECT_TRUE(run.converged);
}

// iterate_seconds (the backend's clock: CUDA events on the gpu) times a part of what
// solve_seconds (the host's clock) times.
TEST_P(PageRankBehaviour, IterationTimeIsPartOfTheSolveTime) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  std::vector<std::pair<vid_t, vid_t>> ring;
  constexpr vid_t n = 100'000;
  for (vid_t i = 0; i < n; ++i) ring.emplace_back(i, (i + 1) % n);
  PageRankOptions o;
  o.fixed_iterations = 50;
  const PageRankRun run = run_pagerank(GetParam(), csr(n, ring), o);
  EXPECT_GT(run.iterate_seconds, 0);
  EXPECT_LE(run.iterate_seconds, run.solve_seconds);
}

TEST_P(PageRankBehaviour, GraphWithoutEdgesIsUniformAtOnce) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  // Every vertex is dangling: all rank is spread evenly, nothing changes.
  const PageRankRun run = run_pagerank(GetParam(), csr(4, {}), PageRankOptions{});
  EXPECT_TRUE(run.converged);
  EXPECT_EQ(run.iterations, 1);
  EXPECT_NEAR(run.change, 0, eps());
  for (double r : run.rank) EXPECT_NEAR(r, 0.25, eps());
}

TEST_P(PageRankBehaviour, SymmetricCycleAndSelfLoop) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  PageRankRun run = run_pagerank(GetParam(), csr(3, {{0, 1}, {1, 2}, {2, 0}}), PageRankOptions{});
  EXPECT_EQ(run.iterations, 1);
  for (double r : run.rank) EXPECT_NEAR(r, 1.0 / 3, eps());
  run = run_pagerank(GetParam(), csr(1, {{0, 0}}), PageRankOptions{});
  EXPECT_EQ(run.iterations, 1);
  EXPECT_NEAR(run.rank[0], 1.0, eps());
}

TEST_P(PageRankBehaviour, EdgeWeightsAreIgnored) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  const Csr<double> weighted = io::read_matrix_market(dataset("small/ldbc-directed-example.mtx")).matrix;
  ASSERT_FALSE(weighted.is_pattern());
  const PageRankRun a = run_pagerank(GetParam(), weighted, PageRankOptions{});
  const PageRankRun b = run_pagerank(GetParam(), drop_values(weighted), PageRankOptions{});
  EXPECT_EQ(a.rank, b.rank);
  EXPECT_EQ(a.iterations, b.iterations);
}

TEST_P(PageRankBehaviour, DampingZeroIsUniform) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  PageRankOptions o;
  o.damping = 0;
  const PageRankRun run = run_pagerank(GetParam(), kLink, o);
  EXPECT_EQ(run.iterations, 1);
  EXPECT_NEAR(run.rank[0], 0.5, eps());
  EXPECT_NEAR(run.rank[1], 0.5, eps());
}

TEST_P(PageRankBehaviour, RejectsBadInput) {
  SPGRAPH_REQUIRE_BACKEND(GetParam());
  auto fails = [&](const Csr<double>& g, const PageRankOptions& o, const std::string& says) {
    try {
      run_pagerank(GetParam(), g, o);
      ADD_FAILURE() << "no error; expected one saying '" << says << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  fails(Csr<double>{}, {}, "at least one vertex");
  Csr<double> rectangular = kLink;
  rectangular.ncols = 3;
  fails(rectangular, {}, "square");
  PageRankOptions o;
  o.damping = 1.5;
  fails(kLink, o, "damping");
  o = {};
  o.tolerance = 0;
  fails(kLink, o, "tolerance");
  o = {};
  o.max_iterations = 0;
  fails(kLink, o, "maximum number of iterations");
  o = {};
  o.fixed_iterations = -2;
  fails(kLink, o, "fixed iterations");
}

// Only the gpu backend can run every iteration in one kernel; asking the cpu one to is an
// error that says so, not a silent host loop.
TEST(PageRankLoopChoice, DeviceLoopOnTheCpuBackendIsAnError) {
  PageRankOptions o;
  o.loop = algorithms::PageRankLoop::Device;
  try {
    algorithms::pagerank<double>(algorithms::Backend::Cpu, kLink, o);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("needs the gpu backend"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, PageRankBehaviour, all_pagerank_configs, config_name);

}  // namespace
}  // namespace spgraph::test
