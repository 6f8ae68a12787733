#pragma once
// What the PageRank tests share: running one configuration (backend x precision), reading the
// published answers, and the LDBC Graphalytics adjacency-list format.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "spgraph/algorithms/pagerank.hpp"
#include "spgraph/graph_ops.hpp"
#include "graphalytics.hpp"
#include "test_support.hpp"

namespace spgraph::test {

struct PageRankConfig {
  algorithms::Backend backend;
  bool single;  // float ranks; double otherwise
  algorithms::PageRankLoop loop = algorithms::PageRankLoop::Auto;  // Host or Device on the gpu
};

// "gpu_host_loop_float": backend, loop (none for Auto), precision, as a test name.
inline std::string config_label(const PageRankConfig& c) {
  const char* loop = c.loop == algorithms::PageRankLoop::Host         ? "_host_loop"
                     : c.loop == algorithms::PageRankLoop::Device     ? "_device_loop"
                     : c.loop == algorithms::PageRankLoop::Operations ? "_operations"
                                                                      : "";
  return std::string(to_string(c.backend)) + loop + (c.single ? "_float" : "_double");
}
inline std::string config_name(const testing::TestParamInfo<PageRankConfig>& info) { return config_label(info.param); }
// gtest prints the parameter as "gpu host loop float" (not its bytes).
inline void PrintTo(const PageRankConfig& c, std::ostream* os) {
  std::string words = config_label(c);
  std::replace(words.begin(), words.end(), '_', ' ');
  *os << words;
}

// The gpu backend with each way of running the iterations (on these small graphs Auto would
// take the device loop every time), and both backends with the definition as unfused
// operations of the contract.
inline const auto all_pagerank_configs = testing::Values(
    PageRankConfig{algorithms::Backend::Cpu, false}, PageRankConfig{algorithms::Backend::Cpu, true},
    PageRankConfig{algorithms::Backend::Cpu, false, algorithms::PageRankLoop::Operations},
    PageRankConfig{algorithms::Backend::Cpu, true, algorithms::PageRankLoop::Operations},
    PageRankConfig{algorithms::Backend::Gpu, false, algorithms::PageRankLoop::Operations},
    PageRankConfig{algorithms::Backend::Gpu, true, algorithms::PageRankLoop::Operations},
    PageRankConfig{algorithms::Backend::Gpu, false, algorithms::PageRankLoop::Host},
    PageRankConfig{algorithms::Backend::Gpu, true, algorithms::PageRankLoop::Host},
    PageRankConfig{algorithms::Backend::Gpu, false, algorithms::PageRankLoop::Device},
    PageRankConfig{algorithms::Backend::Gpu, true, algorithms::PageRankLoop::Device});

// The result with ranks widened to double, whichever precision ran.
struct PageRankRun {
  std::vector<double> rank;
  int iterations = 0;
  double change = 0;
  bool converged = false;
  double solve_seconds = 0, iterate_seconds = 0;
};

template <class V>
PageRankRun widen(const algorithms::PageRankResult<V>& r) {
  return {std::vector<double>(r.rank.begin(), r.rank.end()), r.iterations, r.change, r.converged, r.solve_seconds,
          r.iterate_seconds};
}

// Runs with the configuration's loop, whatever o says, and checks that loop ran.
inline PageRankRun run_pagerank(const PageRankConfig& c, const Csr<double>& g, algorithms::PageRankOptions o) {
  o.loop = c.loop;
  const auto check = [&](const auto& result) {
    EXPECT_EQ(result.device_loop, c.loop == algorithms::PageRankLoop::Device);
    return widen(result);
  };
  return c.single ? check(algorithms::pagerank<float>(c.backend, g, o))
                  : check(algorithms::pagerank<double>(c.backend, g, o));
}

inline double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double m = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

inline double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

// datasets/expected/*.pagerank.tsv: "#" header, then "vertex<TAB>rank", 0-based, in order.
inline std::vector<double> read_expected_ranks(const std::string& path) {
  std::ifstream in(path);
  if (!in) ADD_FAILURE() << "cannot open " << path;
  std::vector<double> ranks;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::size_t v = 0;
    double r = 0;
    fields >> v >> r;
    EXPECT_EQ(v, ranks.size()) << path << ": vertices out of order";
    ranks.push_back(r);
  }
  return ranks;
}

}  // namespace spgraph::test

// First statement of a test over PageRankConfig: GPU configurations skip without a device.
#define SPGRAPH_REQUIRE_BACKEND(config)                                   \
  if ((config).backend == ::spgraph::algorithms::Backend::Gpu) SPGRAPH_REQUIRE_GPU()
