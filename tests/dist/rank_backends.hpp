#pragma once
// The distributed algorithms' tests (algorithms_test.cpp, word_bfs_test.cpp): a typed fixture over
// the kinds of rank, CPU ranks (dist::CpuBackend against GraphBLAS) and GPU ranks
// (dist::GpuBackend against one GPU; every rank sharing the machine's first GPU, as the exchanges
// go through host memory), the latter skipped where no GPU is usable; and the graphs they share.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <utility>

#include "dist_test_support.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/dist/cpu_backend.hpp"
#if SPGRAPH_HAVE_GPU
#include "spgraph/dist/gpu_backend.hpp"
#endif
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::dist::test {

inline Csr<double> load(const std::string& rel) { return io::load_graph(spgraph::test::dataset(rel)).matrix; }

// A directed graph with dangling vertices and uneven degrees, the same on every rank.
inline Csr<double> random_directed(vid_t n, unsigned seed) {
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

}  // namespace spgraph::dist::test
