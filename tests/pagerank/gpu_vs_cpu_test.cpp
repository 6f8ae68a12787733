// The GPU backend against the GraphBLAS one on real web graphs (shared datasets; skipped
// where they are absent): same iterations, same ranks up to the order of floating-point sums.
#include <filesystem>
#include <optional>
#include <string>

#include "pagerank_support.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/edge_list.hpp"
#include "spgraph/io/matrix_market.hpp"

namespace spgraph::test {
namespace {

using algorithms::Backend;
using algorithms::PageRankLoop;
using algorithms::PageRankOptions;
using algorithms::pagerank;

Csr<double> load_shared(const std::string& rel) {
  const std::string path = shared_dataset(rel);
  if (rel.find(".mtx") != std::string::npos) return io::read_matrix_market(path).matrix;
  return io::read_edge_list(path).matrix;
}

// Largest |a - b| relative to the larger of the two (ranks are all positive).
template <class V>
double max_rel_diff(const std::vector<V>& a, const std::vector<V>& b) {
  EXPECT_EQ(a.size(), b.size());
  double m = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    m = std::max(m, std::abs(double(a[i]) - double(b[i])) / std::max(double(a[i]), double(b[i])));
  return m;
}

// The GPU's ranks; none where the device loop was asked for and the graph is too big for it
// (gpu::MxvLoop keeps a block's share of the graph in shared memory), which must say so, and
// where the automatic choice then takes the host loop.
template <class V>
std::optional<algorithms::PageRankResult<V>> run_or_too_big(const Csr<double>& g, const PageRankOptions& options) {
  try {
    return pagerank<V>(Backend::Gpu, g, options);
  } catch (const Error& e) {
    if (options.loop != PageRankLoop::Device) throw;
    EXPECT_NE(std::string(e.what()).find("shared memory"), std::string::npos) << e.what();
    PageRankOptions automatic = options;
    automatic.loop = PageRankLoop::Auto;
    EXPECT_FALSE(pagerank<V>(Backend::Gpu, g, automatic).device_loop);
    return std::nullopt;
  }
}

class PageRankGpuVsCpu : public testing::TestWithParam<const char*> {};

TEST_P(PageRankGpuVsCpu, SameRanksAndIterations) {
  SPGRAPH_REQUIRE_GPU();
  const std::string path = shared_dataset(GetParam());
  SPGRAPH_REQUIRE_SHARED_DATASET(path);
  const Csr<double> g = load_shared(GetParam());

  PageRankOptions fixed;
  fixed.fixed_iterations = 40;
  PageRankOptions until_converged;
  until_converged.max_iterations = 300;  // the change shrinks by about d = 0.85 per iteration
  const auto cpu = pagerank<double>(Backend::Cpu, g, fixed);
  const auto cpu_converged = pagerank<double>(Backend::Cpu, g, until_converged);
  const auto cpu_float = pagerank<float>(Backend::Cpu, g, fixed);
  std::vector<float> reference(cpu.rank.begin(), cpu.rank.end());
  EXPECT_LE(max_rel_diff(cpu_float.rank, reference), 1e-3);

  for (PageRankLoop loop : {PageRankLoop::Host, PageRankLoop::Device, PageRankLoop::Operations}) {
    SCOPED_TRACE(loop == PageRankLoop::Host ? "host loop" : loop == PageRankLoop::Device ? "device loop" : "operations");
    fixed.loop = until_converged.loop = loop;
    if (const auto gpu = run_or_too_big<double>(g, fixed)) {
      EXPECT_EQ(gpu->device_loop, loop == PageRankLoop::Device);
      EXPECT_LE(max_rel_diff(gpu->rank, cpu.rank), 1e-11);
      EXPECT_NEAR(gpu->change, cpu.change, 1e-12);

      const auto gpu_converged = pagerank<double>(Backend::Gpu, g, until_converged);
      EXPECT_TRUE(gpu_converged.converged);
      EXPECT_TRUE(cpu_converged.converged);
      EXPECT_EQ(gpu_converged.iterations, cpu_converged.iterations);
      double total = 0;
      for (double r : gpu_converged.rank) total += r;
      EXPECT_NEAR(total, 1.0, 1e-9);
    }
    // float sums differ in order between the backends; both stay close to the double answer.
    if (const auto gpu_float = run_or_too_big<float>(g, fixed))
      EXPECT_LE(max_rel_diff(gpu_float->rank, reference), 1e-3);
  }
}

INSTANTIATE_TEST_SUITE_P(RealGraphs, PageRankGpuVsCpu,
                         testing::Values("real/cnr-2000.mtx.gz", "real/web-NotreDame.txt.gz"),
                         GraphFileTestName{});

}  // namespace
}  // namespace spgraph::test
