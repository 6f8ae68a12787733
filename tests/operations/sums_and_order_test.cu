// mxm_reduce_rows (the masked product's row sums, never formed on the GPU), extract, sort_order,
// permute by a permutation on the backend and diag: known answers on both backends (the graphblas
// ones run without a GPU), then the GPU against GraphBLAS on random matrices and real graphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gpu_vs_graphblas.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::test {
namespace {

template <class B> using SumsKnown = OnBothBackends<B>;
TYPED_TEST_SUITE(SumsKnown, Backends);

// A = [1 2 0; 0 3 4; 5 0 6] (row-major), B = A. A*B = [1 8 8; 20 9 36; 35 10 36].
// Mask M: (0,1) 1, (1,0) 0, (1,2) 1, (2,0) 1, (2,2) 1.
TYPED_TEST(SumsKnown, RowSumsOfTheMaskedProduct) {
  using B = TypeParam;
  const auto A = on<B, std::int64_t>(3, 3, {{0, 0, 1}, {0, 1, 2}, {1, 1, 3}, {1, 2, 4}, {2, 0, 5}, {2, 2, 6}});
  const auto M = on<B, std::int64_t>(3, 3, {{0, 1, 1}, {1, 0, 0}, {1, 2, 1}, {2, 0, 1}, {2, 2, 1}});
  typename B::template Vector<std::int64_t> y;
  B::mxm_reduce_rows(y, M, A, A, PlusTimes{}, Descriptor{.mask_structural = true});
  EXPECT_EQ(B::to_host(y), (std::vector<std::int64_t>{8, 20 + 36, 35 + 36}));
  B::mxm_reduce_rows(y, M, A, A, PlusTimes{});  // valued: M(1,0) = 0 allows nothing
  EXPECT_EQ(B::to_host(y), (std::vector<std::int64_t>{8, 36, 35 + 36}));
  // plus-pair counts the k where both A(i,k) and A(k,j) exist.
  B::mxm_reduce_rows(y, M, A, A, PlusPair{}, Descriptor{.mask_structural = true});
  EXPECT_EQ(B::to_host(y), (std::vector<std::int64_t>{2, 1 + 2, 2 + 1}));
  // A * A': (A A')(i,j) = row i . row j; A A' = [5 6 5; 6 25 24; 5 24 61].
  B::mxm_reduce_rows(y, M, A, A, PlusTimes{}, Descriptor{.mask_structural = true, .transpose_b = true});
  EXPECT_EQ(B::to_host(y), (std::vector<std::int64_t>{6, 6 + 24, 5 + 61}));
  const auto empty_mask = on<B, std::int64_t>(3, 3, {});
  B::mxm_reduce_rows(y, empty_mask, A, A, PlusTimes{});
  EXPECT_EQ(B::to_host(y), (std::vector<std::int64_t>(3, 0)));
  EXPECT_THROW(B::mxm_reduce_rows(y, M, A, A, PlusTimes{}, Descriptor{.mask_complement = true}), Error);
  const auto wide = on<B, std::int64_t>(3, 4, {});
  EXPECT_THROW(B::mxm_reduce_rows(y, wide, A, A, PlusTimes{}), Error);
  EXPECT_THROW(B::mxm_reduce_rows(y, M, wide, A, PlusTimes{}), Error);
}

TYPED_TEST(SumsKnown, ExtractAndSortOrder) {
  using B = TypeParam;
  const auto x = B::from_host(std::vector<vid_t>{4, 1, 4, 0, 1, 9});
  typename B::template Vector<vid_t> w, p;
  B::extract(w, x, {5, 0, 0, 3});
  EXPECT_EQ(B::to_host(w), (std::vector<vid_t>{9, 4, 4, 0}));
  B::extract(w, x, {});
  EXPECT_TRUE(B::to_host(w).empty());
  const std::string bad = error_of([&] { B::extract(w, x, {1, 6}); });
  EXPECT_NE(bad.find("ids[1] = 6"), std::string::npos) << bad;
  // Ties keep ascending positions in both directions.
  B::sort_order(p, x, true);
  EXPECT_EQ(B::to_host(p), (std::vector<vid_t>{3, 1, 4, 0, 2, 5}));
  B::sort_order(p, x, false);
  EXPECT_EQ(B::to_host(p), (std::vector<vid_t>{5, 0, 2, 1, 4, 3}));
  // Keys spanning more than a counting sort takes, negative ones among them.
  const auto spread = B::from_host(std::vector<vid_t>{2000000000, -5, 7, -5, 2000000000});
  B::sort_order(p, spread, true);
  EXPECT_EQ(B::to_host(p), (std::vector<vid_t>{1, 3, 2, 0, 4}));
  B::sort_order(p, B::from_host(std::vector<vid_t>{}), true);
  EXPECT_TRUE(B::to_host(p).empty());
}

// C(i,j) = A(p[i], p[j]) with p on the backend, as with p on the host (assign_test.cu).
TYPED_TEST(SumsKnown, PermuteByABackendVector) {
  using B = TypeParam;
  const auto A = on<B, double>(4, 4, {{0, 1, 2}, {0, 2, 3}, {1, 3, 4}, {2, 0, 1}, {2, 3, 5}});
  typename B::template Matrix<double> C;
  B::permute(C, A, B::from_host(std::vector<vid_t>{2, 0, 3, 1}));
  EXPECT_TRUE((holds<B, double>(C, 4, 4, {{0, 1, 1}, {0, 2, 5}, {1, 0, 3}, {1, 3, 2}, {3, 2, 4}})));
  const std::string repeat = error_of([&] { B::permute(C, A, B::from_host(std::vector<vid_t>{0, 1, 1, 2})); });
  EXPECT_NE(repeat.find("p[2] = 1"), std::string::npos) << repeat;
  const std::string outside = error_of([&] { B::permute(C, A, B::from_host(std::vector<vid_t>{0, 1, 2, 4})); });
  EXPECT_NE(outside.find("p[3] = 4"), std::string::npos) << outside;
  EXPECT_THROW(B::permute(C, A, B::from_host(std::vector<vid_t>{0, 1, 2})), Error);
}

// C = diag(v): every position of v on the diagonal, zeros included; an empty v gives 0 x 0.
TYPED_TEST(SumsKnown, DiagonalFromAVector) {
  using B = TypeParam;
  typename B::template Matrix<double> C;
  B::diag(C, B::from_host(std::vector<double>{2, 0, -1.5}));
  EXPECT_TRUE((holds<B, double>(C, 3, 3, {{0, 0, 2}, {1, 1, 0}, {2, 2, -1.5}})));
  typename B::template Matrix<std::int32_t> E;
  B::diag(E, B::from_host(std::vector<std::int32_t>{}));
  EXPECT_EQ(B::to_host(E).nrows, 0);
}

// ---- the GPU against GraphBLAS
template <class V> class SumsGpu : public ::testing::Test {};
using SumTypes = ::testing::Types<std::int32_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(SumsGpu, SumTypes);

template <class SR, class V>
void expect_same_row_sums(const Csr<V>& m, const Csr<V>& a, const Csr<V>& b, const Descriptor& desc) {
  gpu::Vector<sum_type_t<V>> gy;
  gb::Vector<sum_type_t<V>> by;
  gpu::mxm_reduce_rows(gy, gpu::Matrix<V>::from_host(m), gpu::Matrix<V>::from_host(a), gpu::Matrix<V>::from_host(b),
                       SR{}, desc);
  graphblas::GraphBlasBackend::mxm_reduce_rows(by, gb::from_host(m), gb::from_host(a), gb::from_host(b), SR{}, desc);
  // Integer values: every sum is exact in each type, whatever order the GPU adds in.
  EXPECT_EQ(gy.download(), gb::to_host(by)) << SR::multiply_op::name << " structural " << desc.mask_structural
                                             << " transpose_b " << desc.transpose_b;
}

TYPED_TEST(SumsGpu, RandomMatricesEveryForm) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const vid_t n = 300;
  // A has a dense row (a long row against short ones: the binary-search path) and empty rows.
  const auto a = random_csr<V>({.nrows = n, .ncols = n, .density = 0.03, .seed = 611, .empty_row_every = 9, .dense_row = 7});
  const auto b = random_csr<V>({.nrows = n, .ncols = n, .density = 0.05, .seed = 612, .dense_row = 11});
  const auto m = random_csr<V>({.nrows = n, .ncols = n, .density = 0.2, .seed = 613, .min_value = 0, .max_value = 2});
  for (bool structural : {true, false})
    for (bool tb : {false, true}) {
      const Descriptor d{.mask_structural = structural, .transpose_b = tb};
      expect_same_row_sums<PlusTimes>(m, a, b, d);
      expect_same_row_sums<PlusPair>(m, a, b, d);
    }
  // Rectangular: (40 x 70) * (70 x 90), masked by a 40 x 90 mask; and A' * B.
  const auto ra = random_csr<V>({.nrows = 40, .ncols = 70, .density = 0.2, .seed = 614});
  const auto rb = random_csr<V>({.nrows = 70, .ncols = 90, .density = 0.2, .seed = 615});
  const auto rm = random_csr<V>({.nrows = 40, .ncols = 90, .density = 0.3, .seed = 616, .pattern = true});
  expect_same_row_sums<PlusTimes>(rm, ra, rb, Descriptor{.mask_structural = true});
  const auto rat = random_csr<V>({.nrows = 70, .ncols = 40, .density = 0.2, .seed = 617});
  expect_same_row_sums<PlusTimes>(rm, rat, rb, Descriptor{.mask_structural = true, .transpose_a = true});
}

// Rows of every length against each other, one mask entry per warp lane and rows spanning warps:
// L = tril(A, -1) of a real graph, the triangle-counting product sum((L * U') .* L).
TEST(SumsGpuRealGraphs, TriangleFormMatchesGraphBlas) {
  SPGRAPH_REQUIRE_GPU();
  for (const char* name : {"karate.mtx", "bcsstk13.mtx", "hep-th.mtx"}) {
    const Csr<double> h = io::load_graph(dataset(std::string("small/") + name)).matrix;
    auto g = gpu::GpuBackend::pattern_from_host<std::int32_t>(h);
    auto c = graphblas::GraphBlasBackend::pattern_from_host<std::int32_t>(h);
    gpu::Matrix<std::int32_t> gl, gu;
    gb::Matrix<std::int32_t> bl, bu;
    gpu::GpuBackend::select(gl, nullptr, g, SelectSpec::position(SelectSpec::Kind::Lower, -1));
    gpu::GpuBackend::select(gu, nullptr, g, SelectSpec::position(SelectSpec::Kind::Upper, 1));
    graphblas::GraphBlasBackend::select(bl, nullptr, c, SelectSpec::position(SelectSpec::Kind::Lower, -1));
    graphblas::GraphBlasBackend::select(bu, nullptr, c, SelectSpec::position(SelectSpec::Kind::Upper, 1));
    gpu::Vector<std::int64_t> gy;
    gb::Vector<std::int64_t> by;
    const Descriptor d{.mask_structural = true, .transpose_b = true};
    gpu::mxm_reduce_rows(gy, gl, gl, gu, PlusPair{}, d);
    graphblas::GraphBlasBackend::mxm_reduce_rows(by, bl, bl, bu, PlusPair{}, d);
    EXPECT_EQ(gy.download(), gb::to_host(by)) << name;
  }
}

// Rows longer than the segmented sort takes (gpu permute sorts them apart) beside short ones,
// with and without values.
TEST(PermuteGpu, LongRowsMatchGraphBlas) {
  SPGRAPH_REQUIRE_GPU();
  const vid_t n = 60000;
  auto a = random_csr<double>({.nrows = n, .ncols = n, .density = 0.0002, .seed = 631, .dense_row = 3});
  std::vector<vid_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), std::mt19937_64(632));
  for (bool pattern : {false, true}) {
    if (pattern) a.val.clear();
    gpu::Matrix<double> gc;
    gb::Matrix<double> bc;
    gpu::permute(gc, gpu::Matrix<double>::from_host(a), gpu::GpuBackend::from_host(p));
    gb::permute(bc, gb::from_host(a), p);
    EXPECT_TRUE(same_matrix(gpu_result(gc), gb::to_host(bc))) << (pattern ? "pattern" : "values");
  }
}

TEST(SortOrderGpu, MatchesGraphBlasOnRandomKeys) {
  SPGRAPH_REQUIRE_GPU();
  std::mt19937_64 rng(621);
  for (int range : {5, 1000, 1 << 30}) {
    std::vector<vid_t> keys(100000);
    for (vid_t& k : keys) k = vid_t(std::uniform_int_distribution<int>(-range / 2, range)(rng));
    for (bool ascending : {true, false}) {
      gpu::Vector<vid_t> gp;
      gb::Vector<vid_t> bp;
      gpu::sort_order(gp, gpu::GpuBackend::from_host(keys), ascending);
      gb::sort_order(bp, gb::from_host(keys), ascending);
      EXPECT_EQ(gp.download(), gb::to_host(bp)) << "range " << range << " ascending " << ascending;
    }
  }
}

}  // namespace
}  // namespace spgraph::test
