// gpu::MxvLoop, the iterations of a product and a pass in one kernel, against the same
// iterations computed on the host, with results known exactly: Bellman-Ford relaxation
// (min-plus, stopped on the device when nothing changes) and a chain whose every iteration
// reads the previous one's sums.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "map_reduce_cases.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/gpu/backend.hpp"
#include "gpu/fused/mxv_loop_impl.cuh"
#include "test_support.hpp"
#include "gpu/spmv/spmv_formats.hpp"

namespace spgraph::test {
namespace {

using gpu::GpuBackend;
constexpr double kInf = std::numeric_limits<double>::infinity();

// d_k(i) = min(d_{k-1}(i), min_j A(i,j) + d_{k-1}(j)); sums: the entries that changed, the
// finite distances' total.
struct Relax {
  SPGRAPH_HD void operator()(std::size_t i, double w, double (&acc)[2], const double (&)[2], double* next,
                             const double* cur) const {
    const double d = cur[i] < w ? cur[i] : w;
    next[i] = d;
    acc[0] += d != cur[i] ? 1.0 : 0.0;
    acc[1] += d < kInf ? d : 0.0;
  }
};
struct NothingChanged {
  SPGRAPH_HD bool operator()(int, const double (&sums)[2]) const { return sums[0] == 0; }
};

// x_k(i) = (A x_{k-1})(i) + (prev[1] mod 16) * z(i), prev the sums of iteration k-1: (sum of
// the product, sum of x_k). The remainder keeps every value an integer below 2^53.
struct ProductPlusPrevSum {
  SPGRAPH_HD void operator()(std::size_t i, double w, double (&acc)[2], const double (&prev)[2], double* next,
                             const double*, const double* z) const {
    next[i] = w + ::fmod(prev[1], 16.0) * z[i];
    acc[0] += w;
    acc[1] += next[i];
  }
};
struct Never {
  SPGRAPH_HD bool operator()(int, const double (&)[2]) const { return false; }
};

// Square cases: one long row among empty ones, one row cut over ten blocks' chunks and one over
// most, thousands of blocks' rows, and a graph of chains long enough for dozens of
// iterations.
std::vector<MxvReduceCase> square_cases() {
  std::mt19937_64 rng(11);
  auto lengths = [&](std::size_t n, int max_len) { return random_row_lengths(rng, n, max_len); };
  std::vector<eid_t> long_row = lengths(3000, 3);
  for (std::size_t i = 0; i < long_row.size(); i += 5) long_row[i] = 0;
  long_row[17] = 2900;
  std::vector<MxvReduceCase> cases{mxv_reduce_case("empty rows, one long row", 3000, long_row, true, 1),
                                   mxv_reduce_case("many blocks", 300'000, lengths(300'000, 3), true, 3)};
  std::vector<eid_t> split_row = lengths(40'000, 3);
  split_row[20'000] = 20'000;
  cases.push_back(mxv_reduce_case("a row over many chunks", 40'000, split_row, true, 4));
  // Over most blocks' slices: the block where it ends polls more pieces than a warp has lanes.
  std::vector<eid_t> wide_row = lengths(200'000, 1);
  wide_row[120'000] = 400'000;  // drawn with repeats: about 173k columns
  cases.push_back(mxv_reduce_case("a row over more slices than a warp has lanes", 200'000, wide_row, true, 6));
  MxvReduceCase path = mxv_reduce_case("a path of 60 vertices beside random links", 5000, lengths(5000, 1), true, 5);
  Coo<double> coo = csr_to_coo(path.a);
  for (vid_t v = 1; v < 60; ++v) {  // v -> v-1 costs 1
    coo.row.push_back(v);
    coo.col.push_back(v - 1);
    coo.val.push_back(1.0);
  }
  path.a = coo_to_csr(std::move(coo), Duplicates::First);
  cases.push_back(std::move(path));
  return cases;
}

std::vector<double> relax_on_host(const Csr<double>& a, const std::vector<double>& d) {
  std::vector<double> next(d);
  for (vid_t i = 0; i < a.nrows; ++i)
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) next[i] = std::min(next[i], a.val[p] + d[a.col[p]]);
  return next;
}

TEST(MxvLoopGpu, BellmanFordStopsWhereTheHostRelaxationDoes) {
  SPGRAPH_REQUIRE_GPU();
  for (const auto& c : square_cases()) {
    SCOPED_TRACE(c.name);
    const std::size_t n = static_cast<std::size_t>(c.a.nrows);
    std::vector<double> d0(n, kInf);  // sources every 997 vertices
    for (std::size_t i = 0; i < n; i += 997) d0[i] = 0;
    // The host's iterations up to the first without a change.
    std::vector<std::vector<double>> d{d0};
    std::vector<std::array<double, 2>> sums;
    do {
      d.push_back(relax_on_host(c.a, d.back()));
      std::array<double, 2> s{};
      for (std::size_t i = 0; i < n; ++i) {
        s[0] += d.back()[i] != d[d.size() - 2][i];
        s[1] += d.back()[i] < kInf ? d.back()[i] : 0;
      }
      sums.push_back(s);
    } while (sums.back()[0] != 0);
    const int iterations = int(sums.size());
    ASSERT_GE(iterations, 3);

    auto A = GpuBackend::from_host(c.a);
    if (c.name.find("than a warp has lanes") != std::string::npos) {
      const auto& slices = gpu::detail::spmv_loop_slices(A).plan.slices;
      int most_pieces = 0;
      for (std::size_t b = 0; b < slices.size(); ++b)
        if (slices[b].head_from >= 0) most_pieces = std::max(most_pieces, int(b) - slices[b].head_from);
      EXPECT_GT(most_pieces, 32);
    }
    auto x0 = GpuBackend::from_host(d0);
    auto x1 = GpuBackend::from_host(std::vector<double>(n, -1.0));
    gpu::MxvLoop<double, 2> loop;
    const auto run = loop.run(Relax{}, NothingChanged{}, A, x0, x1, MinPlus{}, 1000, {7.0, 8.0});
    EXPECT_EQ(run.iterations, iterations);
    EXPECT_EQ(run.sums, sums.back());
    EXPECT_EQ(run.previous, sums[sums.size() - 2]);
    const auto& x_last = iterations % 2 ? x1 : x0;
    const auto& x_before = iterations % 2 ? x0 : x1;
    EXPECT_EQ(GpuBackend::to_host(x_last), d[iterations]);
    EXPECT_EQ(GpuBackend::to_host(x_before), d[iterations - 1]);

    // Run again, stopped by max_iterations first: the scratch came back to the identity.
    x0 = GpuBackend::from_host(d0);
    const auto two = loop.run(Relax{}, NothingChanged{}, A, x0, x1, MinPlus{}, 2, {7.0, 8.0});
    EXPECT_EQ(two.iterations, 2);
    EXPECT_EQ(two.sums, sums[1]);
    EXPECT_EQ(two.previous, sums[0]);
    EXPECT_EQ(GpuBackend::to_host(x0), d[2]);
  }
}

TEST(MxvLoopGpu, EachIterationSeesThePreviousSums) {
  SPGRAPH_REQUIRE_GPU();
  for (const auto& c : square_cases()) {
    SCOPED_TRACE(c.name);
    const std::size_t n = static_cast<std::size_t>(c.a.nrows);
    std::vector<double> x = c.x;  // integers 0..3; values 1..3, z in {0, 1}
    const std::vector<double>& z = c.z;
    std::array<double, 2> prev{0.0, 5.0}, before{};
    constexpr int kIterations = 3;
    for (int k = 0; k < kIterations; ++k) {
      std::vector<double> next(n);
      std::array<double, 2> s{};
      for (std::size_t i = 0; i < n; ++i) {
        double w = 0;
        for (eid_t p = c.a.rowptr[i]; p < c.a.rowptr[i + 1]; ++p) w += c.a.val[p] * x[c.a.col[p]];
        next[i] = w + std::fmod(prev[1], 16.0) * z[i];
        s[0] += w;
        s[1] += next[i];
      }
      ASSERT_LT(s[1], 0x1p53);
      x = next;
      before = prev;
      prev = s;
    }
    auto A = GpuBackend::from_host(c.a);
    auto x0 = GpuBackend::from_host(c.x);
    auto x1 = GpuBackend::from_host(std::vector<double>(n, -1.0));
    auto dz = GpuBackend::from_host(z);
    gpu::MxvLoop<double, 2> loop;
    const auto run = loop.run(ProductPlusPrevSum{}, Never{}, A, x0, x1, PlusTimes{}, kIterations, {0.0, 5.0}, dz);
    EXPECT_EQ(run.iterations, kIterations);
    EXPECT_EQ(run.sums, prev);
    EXPECT_EQ(run.previous, before);
    EXPECT_EQ(GpuBackend::to_host(x1), x);  // x_3
  }
}

TEST(MxvLoopGpu, MisuseIsReported) {
  SPGRAPH_REQUIRE_GPU();
  const MxvReduceCase rect = mxv_reduce_case("rectangular", 30, std::vector<eid_t>(20, 3), true, 9);
  const MxvReduceCase square = mxv_reduce_case("square", 20, std::vector<eid_t>(20, 3), true, 9);
  auto R = GpuBackend::from_host(rect.a);
  auto A = GpuBackend::from_host(square.a);
  auto x20 = GpuBackend::from_host(std::vector<double>(20, 0.0));
  auto y20 = GpuBackend::from_host(std::vector<double>(20, 0.0));
  auto x30 = GpuBackend::from_host(std::vector<double>(30, 0.0));
  auto y19 = GpuBackend::from_host(std::vector<double>(19, 0.0));
  gpu::MxvLoop<double, 2> loop;
  expect_error([&] { loop.run(Relax{}, NothingChanged{}, R, x30, x30, MinPlus{}, 5, {}); }, "20 x 30");
  expect_error([&] { loop.run(Relax{}, NothingChanged{}, A, x20, y19, MinPlus{}, 5, {}); }, "19");
  expect_error([&] { loop.run(Relax{}, NothingChanged{}, A, x30, y20, MinPlus{}, 5, {}); }, "30 entries");
  expect_error([&] { loop.run(Relax{}, NothingChanged{}, A, x20, y20, MinPlus{}, 0, {}); }, "at least 1");
  EXPECT_FALSE((gpu::MxvLoop<double, 2>::suits<MinPlus>(R)));
  EXPECT_TRUE((gpu::MxvLoop<double, 2>::suits<MinPlus>(A)));

  // 8M nonzeros: a block's slice on any GPU of today is far past its shared memory.
  const vid_t n = 200'000;
  const MxvReduceCase big = mxv_reduce_case("too big", n, std::vector<eid_t>(std::size_t(n), 40), true, 9);
  auto B = GpuBackend::from_host(big.a);
  EXPECT_FALSE((gpu::MxvLoop<double, 2>::suits<MinPlus>(B)));
  auto xn = GpuBackend::from_host(std::vector<double>(std::size_t(n), 0.0));
  auto yn = GpuBackend::from_host(std::vector<double>(std::size_t(n), 0.0));
  expect_error([&] { loop.run(Relax{}, NothingChanged{}, B, xn, yn, MinPlus{}, 5, {}); }, "shared memory");
}

}  // namespace
}  // namespace spgraph::test
