#include <algorithm>
#include <cmath>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#include "map_reduce_cases.hpp"
#include "spgraph/gpu/backend.hpp"
#include "gpu/fused/mxv_reduce_impl.cuh"
#include "gpu/spmv/spmv_formats.hpp"
#include "test_support.hpp"

namespace spgraph::test {
namespace {

using gpu::GpuBackend;

TEST(MapReduceGpu, UpdatesEveryElementAndSumsExactly) {
  SPGRAPH_REQUIRE_GPU();
  // 1 and 7: one partly idle block; 1'000'003: more indices than resident threads, so the
  // grid-stride loop and the per-block partials are all exercised.
  for (std::size_t n : {1u, 7u, 1'000'003u, 50'000'017u}) check_axpy_and_sums<GpuBackend>(n);
}

TEST(MapReduceGpu, EmptyVectorsSumToZero) {
  SPGRAPH_REQUIRE_GPU();
  gpu::Vector<double> x, y;
  const auto sums = GpuBackend::map_reduce<3>(AxpyAndSums{}, x, y);
  EXPECT_EQ(sums[0], 0);
  EXPECT_EQ(sums[2], 0);
}

TEST(MapReduceGpu, RepeatedPassesThroughOneReducer) {
  SPGRAPH_REQUIRE_GPU();
  for (std::size_t n : {7u, 1'000'003u}) check_repeated_passes<GpuBackend>(n);
}

TEST(MapReduceGpu, SumsAreTheSameEveryPass) {
  SPGRAPH_REQUIRE_GPU();
  check_sums_are_deterministic<GpuBackend>(10'000'019);
}

TEST(MapReduceGpu, ReducerCallOrderIsEnforced) {
  SPGRAPH_REQUIRE_GPU();
  check_reducer_call_order_enforced<GpuBackend>();
}

// start() only queues the pass: work queued after it, before finish(), runs after the pass,
// so the sums are the pass's and the vectors end as that later work leaves them.
TEST(MapReduceGpu, WorkQueuedBeforeFinishRunsAfterThePass) {
  SPGRAPH_REQUIRE_GPU();
  static_assert(GpuBackend::MapReducer<3>::deferred);
  const std::size_t n = 3'000'017;
  auto x = GpuBackend::from_host(std::vector<double>(n, 2.0));
  auto y = GpuBackend::from_host(std::vector<double>(n, 1.0));
  GpuBackend::MapReducer<3> pass;
  pass.start(AxpyAndSums{}, x, y);
  y.fill_zero();  // same stream, after the pass
  const auto sums = pass.finish();
  EXPECT_EQ(sums[0], 5.0 * double(n));
  EXPECT_EQ(sums[1], 4.0 * double(n));
  EXPECT_EQ(sums[2], double(n));
  EXPECT_EQ(GpuBackend::to_host(y), std::vector<double>(n, 0.0));
}

TEST(MapReduceGpu, VectorsOfDifferentLengthsThrow) {
  SPGRAPH_REQUIRE_GPU();
  check_length_mismatch_throws<GpuBackend>();
}

// The pass must see each kernel's product (options.kernel reaches mxv). COO runs with its
// pass in one kernel up to gpu::kFusedChainMaxNnz nonzeros and as two kernels above ("many
// blocks"), the pass putting the product back to the identity either way.
TEST(MxvReducerGpu, ChainedPassesAreExactWithEveryPath) {
  SPGRAPH_REQUIRE_GPU();
  const auto cases = mxv_reduce_cases();
  ASSERT_TRUE(std::any_of(cases.begin(), cases.end(),
                          [](const MxvReduceCase& c) { return c.a.nnz() > gpu::kFusedChainMaxNnz; }));
  for (const auto& c : cases)
    for (SpmvKernel k : {SpmvKernel::Auto, SpmvKernel::CsrStream, SpmvKernel::CooLoadBalanced, SpmvKernel::CsrVector}) {
      SCOPED_TRACE(c.name + ", " + gpu::spmv_kernel_name(k));
      check_chained_passes<GpuBackend>(c, k);
      // A kernel other than COO runs as mxv, then the pass: mxv ran the kernel asked for.
      if (c.a.nrows > 0 && (k == SpmvKernel::CsrStream || k == SpmvKernel::CsrVector))
        EXPECT_EQ(gpu::last_spmv_kernel(), k);
    }
}

// The pass's views (const vectors read evict-first, written ones for reuse, 1-byte ones plain) read
// and write every element width right, on every kernel path.
TEST(MxvReducerGpu, ViewsOfEveryWidthReadAndWriteExactly) {
  SPGRAPH_REQUIRE_GPU();
  for (const auto& c : mxv_reduce_cases())
    for (SpmvKernel k : {SpmvKernel::Auto, SpmvKernel::CsrStream, SpmvKernel::CooLoadBalanced}) {
      SCOPED_TRACE(c.name + ", " + gpu::spmv_kernel_name(k));
      check_views_of_every_width<GpuBackend>(c, k);
    }
}

// y = the row's min-plus product (the identity, +inf, for a row without entries); sums: the
// finite rows' values and their count.
struct MinRowAndCount {
  SPGRAPH_HD void operator()(std::size_t i, double w, double (&acc)[2], const double (&)[2], double* y) const {
    y[i] = w;
    const bool finite = w < std::numeric_limits<double>::infinity();
    acc[0] += finite ? w : 0.0;
    acc[1] += finite ? 1.0 : 0.0;
  }
};

// One reducer, passes alternating plus-times and min-plus: the single-kernel COO chain leaves
// its scratch at one semiring's identity, which the next product must not take for the
// other's. Every kernel path, against sums and rows computed here.
TEST(MxvReducerGpu, AlternatingSemiringsKeepEachIdentity) {
  SPGRAPH_REQUIRE_GPU();
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (const auto& c : mxv_reduce_cases())
    for (SpmvKernel k : {SpmvKernel::Auto, SpmvKernel::CooLoadBalanced, SpmvKernel::CsrVector}) {
      SCOPED_TRACE(c.name + ", " + gpu::spmv_kernel_name(k));
      const std::size_t n = static_cast<std::size_t>(c.a.nrows);
      std::vector<double> plus(n, 0.0), min(n, inf);
      std::array<double, 2> plus_sums{}, min_sums{};
      for (std::size_t i = 0; i < n; ++i) {
        for (eid_t p = c.a.rowptr[i]; p < c.a.rowptr[i + 1]; ++p) {
          const double a = c.a.is_pattern() ? 1.0 : c.a.val[p];
          plus[i] += a * c.x[c.a.col[p]];
          min[i] = std::min(min[i], a + c.x[c.a.col[p]]);
        }
        plus_sums[0] += plus[i];
        plus_sums[1] += 1.0;
        if (min[i] < inf) {
          min_sums[0] += min[i];
          min_sums[1] += 1.0;
        }
      }
      auto A = GpuBackend::from_host(c.a);
      auto x = GpuBackend::from_host(c.x);
      auto y = GpuBackend::from_host(std::vector<double>(n, -1.0));
      GpuBackend::MxvReducer<double, 2> pass;
      for (int round = 0; round < 2; ++round) {
        pass.start(MinRowAndCount{}, A, x, PlusTimes{}, SpmvOptions{k}, y);
        EXPECT_EQ(pass.finish(), plus_sums) << "plus-times, round " << round;
        EXPECT_EQ(GpuBackend::to_host(y), plus) << "plus-times, round " << round;
        pass.start(MinRowAndCount{}, A, x, MinPlus{}, SpmvOptions{k}, y);
        EXPECT_EQ(pass.finish(), min_sums) << "min-plus, round " << round;
        EXPECT_EQ(GpuBackend::to_host(y), min) << "min-plus, round " << round;
      }
    }
}

// y_i = (w_i + i mod 1000) mod 1000003, integers that change every round, so a product that
// read any element of x before this pass wrote it gives other rows; sums: y's total and its
// count (exact in any order). The first 256 rows, which the pass's block 0 takes first, are
// written 20 us late, so blocks of the next product that did not wait for this pass would read
// them before they are written.
struct ScrambleLateFirstRows {
  SPGRAPH_HD void operator()(std::size_t i, double w, double (&acc)[2], const double (&)[2], double* y) const {
#ifdef __CUDA_ARCH__
    if (i < 256) {
      unsigned long long start, now;
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
      do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
      while (now - start < 20'000);
    }
#endif
    y[i] = std::fmod(w + double(i % 1000), 1000003.0);
    acc[0] += y[i];
    acc[1] += 1.0;
  }
};

// Each product of a CSR-stream chain reads the vector the pass before it wrote, as PageRank's
// do: from the second start() on the same matrix, the product starts while that pass finishes
// (device/dependent_launch.hpp) and must wait for it before reading x. Rounds queued one ahead
// of the host, on a graph of many waves of blocks, against the rounds computed here.
TEST(MxvReducerGpu, EachProductReadsWhatThePassBeforeItWrote) {
  SPGRAPH_REQUIRE_GPU();
  const vid_t n = 400'000;
  std::mt19937_64 rng(7);
  Csr<double> a;
  a.nrows = a.ncols = n;
  for (vid_t i = 0; i < n; ++i) {
    std::vector<vid_t> cols;
    for (int e = int(rng() % 9); e > 0; --e) cols.push_back(vid_t(rng() % n));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    a.col.insert(a.col.end(), cols.begin(), cols.end());
    a.rowptr.push_back(eid_t(a.col.size()));
  }
  constexpr int kRounds = 6;
  std::vector<std::vector<double>> expected{std::vector<double>(n)};
  for (vid_t i = 0; i < n; ++i) expected[0][i] = double(i % 7);
  std::vector<std::array<double, 2>> sums_expected;
  for (int k = 0; k < kRounds; ++k) {
    const auto& x = expected.back();
    std::vector<double> y(n);
    std::array<double, 2> sums{};
    for (vid_t i = 0; i < n; ++i) {
      double w = 0;
      for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) w += x[a.col[p]];
      y[i] = std::fmod(w + double(i % 1000), 1000003.0);
      sums = {sums[0] + y[i], sums[1] + 1.0};
    }
    expected.push_back(y);
    sums_expected.push_back(sums);
  }

  const SpmvOptions stream{SpmvKernel::CsrStream};
  auto A = GpuBackend::from_host(a);
  std::vector<gpu::Vector<double>> x;
  x.push_back(GpuBackend::from_host(expected[0]));
  for (int b = 1; b < 3; ++b) x.push_back(GpuBackend::from_host(std::vector<double>(n, -1.0)));
  GpuBackend::MxvReducer<double, 2> pass;
  pass.prepare(A, stream);
  auto round = [&](int k) { pass.start(ScrambleLateFirstRows{}, A, x[k % 3], PlusSecond{}, stream, x[(k + 1) % 3]); };
  round(0);
  for (int k = 0; k < kRounds; ++k) {
    if (k + 1 < kRounds) round(k + 1);
    EXPECT_EQ(pass.finish(), sums_expected[k]) << "round " << k + 1;
  }
  const std::vector<double> got = GpuBackend::to_host(x[kRounds % 3]);
  for (vid_t i = 0; i < n; ++i)
    if (got[i] != expected[kRounds][i])
      FAIL() << "x[" << i << "] = " << got[i] << ", expected " << expected[kRounds][i];
}

TEST(MxvReducerGpu, MisuseIsReported) {
  SPGRAPH_REQUIRE_GPU();
  check_mxv_reducer_misuse<GpuBackend>();
}

// The SpMV formats cache is the SpMV family's alone: a const matrix hands out nothing mutable.
template <class M>
concept HandsOutSpmvCache = requires(const M& m) { m.spmv_cache(); };
static_assert(!HandsOutSpmvCache<gpu::Matrix<double>>);

// Matrix::id() is what tells matrices apart: a matrix built where a freed one was gets a new
// one, and so does a moved-from matrix. (Empty matrices: no device needed.)
TEST(GpuMatrix, IdsAreNotReusedWithTheAddress) {
  std::optional<gpu::Matrix<double>> slot;
  slot.emplace();
  const void* address = &*slot;
  const std::uint64_t first = slot->id();
  slot.reset();
  slot.emplace();
  ASSERT_EQ(static_cast<const void*>(&*slot), address);
  EXPECT_NE(slot->id(), first);
  const std::uint64_t second = slot->id();
  gpu::Matrix<double> moved = std::move(*slot);
  EXPECT_EQ(moved.id(), second);
  EXPECT_NE(slot->id(), second);
  EXPECT_NE(slot->id(), first);
}

// The reducer's product on the matrix of the previous start() skips building its formats and
// starts while the pass before it finishes: a matrix built where that one was freed is another
// matrix, whose product must be its own.
TEST(MxvReducerGpu, AMatrixBuiltWhereAFreedOneWasIsAnotherMatrix) {
  SPGRAPH_REQUIRE_GPU();
  const MxvReduceCase first = mxv_reduce_cases().front();
  std::mt19937_64 rng(21);
  const MxvReduceCase second = mxv_reduce_case("another matrix of the same shape", first.a.ncols,
                                               random_row_lengths(rng, std::size_t(first.a.nrows), 40), true, 9);
  const std::size_t n = static_cast<std::size_t>(second.a.nrows);
  std::vector<double> w(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (eid_t p = second.a.rowptr[i]; p < second.a.rowptr[i + 1]; ++p)
      w[i] += second.a.val[p] * first.x[second.a.col[p]];

  const auto x = GpuBackend::from_host(first.x);
  auto z = GpuBackend::from_host(first.z);  // the pass takes its vectors by non-const reference
  auto y = GpuBackend::from_host(std::vector<double>(n, -1.0));
  const SpmvOptions options{SpmvKernel::CsrStream};  // mxv, then the pass
  gpu::MxvReducer<double, 2> pass;
  std::optional<gpu::Matrix<double>> slot;
  slot.emplace(gpu::Matrix<double>::from_host(first.a));
  const void* address = &*slot;
  pass.start(ProductPlusPrev{}, *slot, x, PlusTimes{}, options, y, z);
  pass.finish();
  slot.reset();
  slot.emplace(gpu::Matrix<double>::from_host(second.a));
  ASSERT_EQ(static_cast<const void*>(&*slot), address);
  pass.seed({0.0, 0.0});  // y = w + 0 * z
  pass.start(ProductPlusPrev{}, *slot, x, PlusTimes{}, options, y, z);
  const auto sums = pass.finish();
  EXPECT_EQ(GpuBackend::to_host(y), w);
  double total = 0;
  for (double v : w) total += v;
  EXPECT_EQ(sums[0], total);
}

}  // namespace
}  // namespace spgraph::test
