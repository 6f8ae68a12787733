// inflate_rows (MCL's inflation): known answers on both backends (the graphblas ones, the
// contract's steps, run without a GPU), then the GPU's fused pass against them on random
// matrices with long rows and on real graphs, in place and not, for each power and rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpu_vs_graphblas.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::test {
namespace {

template <class B> using InflateKnown = OnBothBackends<B>;
TYPED_TEST_SUITE(InflateKnown, Backends);

// Row 0 holds 1 and 3, row 1 a single 2, row 2 nothing.
TYPED_TEST(InflateKnown, EachRowRaisedAndScaledToOne) {
  using B = TypeParam;
  const auto A = on<B, double>(3, 3, {{0, 0, 1}, {0, 2, 3}, {1, 1, 2}});
  typename B::template Matrix<double> C;
  B::inflate_rows(C, A, InflateSpec{.power = 2});
  const double tenth = 1.0 / 10;  // the row's powers sum to 10; each is scaled by its inverse
  EXPECT_TRUE((holds<B, double>(C, 3, 3, {{0, 0, 1 * tenth}, {0, 2, 9 * tenth}, {1, 1, 1}})));
  EXPECT_TRUE((holds<B, double>(A, 3, 3, {{0, 0, 1}, {0, 2, 3}, {1, 1, 2}})));  // A is untouched
  B::inflate_rows(C, A, InflateSpec{.power = 1, .float_values = true});
  const double quarter = 1.0 / 4;
  EXPECT_TRUE((holds<B, double>(C, 3, 3, {{0, 0, quarter}, {0, 2, 3 * quarter}, {1, 1, 1}})));
}

TYPED_TEST(InflateKnown, InPlaceAndRoundedToFloat) {
  using B = TypeParam;
  auto A = on<B, double>(2, 4, {{0, 1, 1}, {0, 3, 2}, {1, 0, 5}, {1, 2, 5}});
  B::inflate_rows(A, A, InflateSpec{.power = 1, .float_values = true});
  const double third = 1.0 / 3;  // thirds have no float: each value is its nearest float
  EXPECT_TRUE((holds<B, double>(A, 2, 4, {{0, 1, double(float(third))}, {0, 3, double(float(2 * third))},
                                          {1, 0, 0.5}, {1, 2, 0.5}})));
  B::inflate_rows(A, A, InflateSpec{.power = 0.5});
  for (double v : B::to_host(A).val) EXPECT_TRUE(std::isfinite(v) && v > 0 && v < 1) << v;
}

TYPED_TEST(InflateKnown, PatternAndEmptyMatrices) {
  using B = TypeParam;
  const auto P = B::template pattern_from_host<double>(csr<double>(2, 5, {{0, 0, 7}, {0, 1, 7}, {0, 4, 7}, {0, 3, 7}}));
  typename B::template Matrix<double> C;
  B::inflate_rows(C, P, InflateSpec{.power = 3});  // every entry 1: each row's become 1 / its length
  const double quarter = 1.0 / 4;
  EXPECT_TRUE((holds<B, double>(C, 2, 5, {{0, 0, quarter}, {0, 1, quarter}, {0, 3, quarter}, {0, 4, quarter}})));
  auto E = on<B, float>(3, 2, {});
  B::inflate_rows(E, E, InflateSpec{.power = 2});
  EXPECT_TRUE((holds<B, float>(E, 3, 2, {})));
}

// The GPU against graphblas: the same pattern, values within the sums' order (and, rounded to
// float, within one float step of each other), every nonempty row summing to 1.
template <class V>
void expect_gpu_agrees(const Csr<V>& a, const std::string& where) {
  for (double power : {1.0, 2.0, 1.5, 3.0})
    for (bool float_values : {false, true}) {
      const InflateSpec spec{.power = power, .float_values = float_values};
      const std::string what = where + " power " + std::to_string(power) + (float_values ? " float" : "");
      gb::Matrix<V> want_m;
      graphblas::GraphBlasBackend::inflate_rows(want_m, graphblas::GraphBlasBackend::from_host(a), spec);
      const Csr<V> want = with_values(graphblas::GraphBlasBackend::to_host(want_m));
      gpu::Matrix<V> got_m;
      const gpu::Matrix<V> A = gpu::GpuBackend::from_host(a);
      gpu::GpuBackend::inflate_rows(got_m, A, spec);
      const Csr<V> got = gpu_result(got_m);
      ASSERT_TRUE(same_matrix(got, want, false)) << what;
      // float sums in float on graphblas; a double rounded to float may land one float step apart
      const double tolerance = std::is_same_v<V, float> ? kRelativeTolerance<float> : float_values ? 2.5e-7 : 1e-14;
      for (eid_t p = 0; p < got.nnz(); ++p) {
        const double w = double(want.val[p]);
        ASSERT_TRUE(within_tolerance(double(got.val[p]), w, tolerance * std::fabs(w))) << what << " at " << p;
      }
      for (vid_t i = 0; i < got.nrows; ++i) {
        double sum = 0;
        for (eid_t p = got.rowptr[i]; p < got.rowptr[i + 1]; ++p) sum += double(got.val[p]);
        if (got.rowptr[i + 1] > got.rowptr[i]) ASSERT_NEAR(sum, 1.0, 1e-5) << what << " row " << i;
      }
      gpu::Matrix<V> same = gpu::GpuBackend::from_host(a);
      gpu::GpuBackend::inflate_rows(same, same, spec);
      ASSERT_EQ(gpu_result(same).val, got.val) << what << ": in place differs";  // bit for bit
    }
}

template <class V>
class InflateGpu : public ::testing::Test {};
using FloatingTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(InflateGpu, FloatingTypes);

// Positive values, rows empty, short, and past a warp's 32 lanes many times over.
TYPED_TEST(InflateGpu, RandomMatricesMatchTheSteps) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  for (unsigned seed : {1u, 2u}) {
    const auto a = random_csr<V>({.nrows = 300, .ncols = 1000, .density = 0.05, .seed = seed, .empty_row_every = 9,
                                  .dense_row = 17, .min_value = 1, .max_value = 9});
    expect_gpu_agrees(a, "random " + std::to_string(seed));
  }
  expect_gpu_agrees(random_csr<V>({.nrows = 50, .ncols = 50, .density = 0.1, .seed = 3, .pattern = true}), "pattern");
}

TYPED_TEST(InflateGpu, RealGraphsMatchTheSteps) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  Csr<V> west = convert_values<V>(io::load_graph(dataset("small/west0067.mtx")).matrix);
  for (V& v : west.val) v = std::fabs(v);  // MCL's weights are not negative
  expect_gpu_agrees(west, "west0067");
  expect_gpu_agrees(convert_values<V>(io::load_graph(dataset("small/karate.mtx")).matrix), "karate");
}

}  // namespace
}  // namespace spgraph::test
