// assign, extract_rows and permute: known answers on both backends (the graphblas ones run
// without a GPU), then the GPU against GraphBLAS on random matrices and real graphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gpu_vs_graphblas.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::test {
namespace {


// ---- known answers
template <class B> using AssignKnown = OnBothBackends<B>;
TYPED_TEST_SUITE(AssignKnown, Backends);

TYPED_TEST(AssignKnown, VectorUnderAMask) {
  using B = TypeParam;
  using Vec = typename B::template Vector<std::int32_t>;
  const Vec m = B::from_host(std::vector<std::int32_t>{0, 1, 0, 5});
  const auto start = [] { return B::from_host(std::vector<std::int32_t>{1, 2, 3, 4}); };
  Vec w = start();
  B::assign(w, &m, 9);
  EXPECT_EQ(B::to_host(w), (std::vector<std::int32_t>{1, 9, 3, 9}));
  w = start();
  B::assign(w, &m, 9, Descriptor{.replace = true});
  EXPECT_EQ(B::to_host(w), (std::vector<std::int32_t>{0, 9, 0, 9}));
  w = start();
  B::assign(w, &m, 9, Descriptor{.mask_complement = true});
  EXPECT_EQ(B::to_host(w), (std::vector<std::int32_t>{9, 2, 9, 4}));
  w = start();
  B::assign(w, &m, 9, Descriptor{.mask_structural = true});  // a dense mask allows every position
  EXPECT_EQ(B::to_host(w), (std::vector<std::int32_t>(4, 9)));
  w = start();
  B::assign(w, nullptr, 7);
  EXPECT_EQ(B::to_host(w), (std::vector<std::int32_t>(4, 7)));
  Vec fresh;  // takes the mask's length
  B::assign(fresh, &m, 9);
  EXPECT_EQ(B::to_host(fresh), (std::vector<std::int32_t>{0, 9, 0, 9}));
  Vec longer = B::from_host(std::vector<std::int32_t>(5, 1));
  EXPECT_THROW(B::assign(longer, &m, 9), Error);
}

// C = {(0,0) 1, (1,1) 2, (2,0) 3}; M = {(0,1) 1, (1,1) 0, (2,2) 4}.
TYPED_TEST(AssignKnown, MatrixUnderAMask) {
  using B = TypeParam;
  const auto M = on<B, double>(3, 3, {{0, 1, 1}, {1, 1, 0}, {2, 2, 4}});
  const auto start = [] { return on<B, double>(3, 3, {{0, 0, 1}, {1, 1, 2}, {2, 0, 3}}); };
  auto C = start();
  B::assign(C, &M, 7);
  EXPECT_TRUE((holds<B, double>(C, 3, 3, {{0, 0, 1}, {0, 1, 7}, {1, 1, 2}, {2, 0, 3}, {2, 2, 7}})));
  C = start();
  B::assign(C, &M, 7, Descriptor{.mask_structural = true});
  EXPECT_TRUE((holds<B, double>(C, 3, 3, {{0, 0, 1}, {0, 1, 7}, {1, 1, 7}, {2, 0, 3}, {2, 2, 7}})));
  C = start();
  B::assign(C, &M, 7, Descriptor{.replace = true});
  EXPECT_TRUE((holds<B, double>(C, 3, 3, {{0, 1, 7}, {2, 2, 7}})));
  typename B::template Matrix<double> fresh;  // another shape: nothing old to keep
  B::assign(fresh, &M, 7);
  EXPECT_TRUE((holds<B, double>(fresh, 3, 3, {{0, 1, 7}, {2, 2, 7}})));
  EXPECT_THROW(B::assign(C, nullptr, 7), Error);
  EXPECT_THROW(B::assign(C, &M, 7, Descriptor{.mask_complement = true}), Error);
}

// A: row 0 (0,1) 2 (0,2) 3; row 1 (1,3) 4; row 2 (2,0) 1 (2,3) 5; row 3 empty.
TYPED_TEST(AssignKnown, ExtractRows) {
  using B = TypeParam;
  const auto A = on<B, double>(4, 4, {{0, 1, 2}, {0, 2, 3}, {1, 3, 4}, {2, 0, 1}, {2, 3, 5}});
  typename B::template Matrix<double> C;
  B::extract_rows(C, A, {2, 0, 3, 2});
  EXPECT_TRUE((holds<B, double>(C, 4, 4, {{0, 0, 1}, {0, 3, 5}, {1, 1, 2}, {1, 2, 3}, {3, 0, 1}, {3, 3, 5}})));
  B::extract_rows(C, A, {});
  EXPECT_TRUE((holds<B, double>(C, 0, 4, {})));
  const std::string bad = error_of([&] { B::extract_rows(C, A, {1, 4}); });
  EXPECT_NE(bad.find("rows[1] = 4"), std::string::npos) << bad;
  EXPECT_THROW(B::extract_rows(C, A, {-1}), Error);
}

// C(i,j) = A(p[i], p[j]) with p = {2, 0, 3, 1}: A(r,c) moves to (q[r], q[c]), q = {1, 3, 0, 2}.
TYPED_TEST(AssignKnown, Permute) {
  using B = TypeParam;
  const auto A = on<B, double>(4, 4, {{0, 1, 2}, {0, 2, 3}, {1, 3, 4}, {2, 0, 1}, {2, 3, 5}});
  typename B::template Matrix<double> C;
  B::permute(C, A, {2, 0, 3, 1});
  EXPECT_TRUE((holds<B, double>(C, 4, 4, {{0, 1, 1}, {0, 2, 5}, {1, 0, 3}, {1, 3, 2}, {3, 2, 4}})));
  const std::string repeat = error_of([&] { B::permute(C, A, {0, 1, 1, 2}); });
  EXPECT_NE(repeat.find("p[2] = 1 repeats p[1]"), std::string::npos) << repeat;
  const std::string outside = error_of([&] { B::permute(C, A, {0, 1, 2, 4}); });
  EXPECT_NE(outside.find("p[3] = 4"), std::string::npos) << outside;
  EXPECT_THROW(B::permute(C, A, {0, 1, 2}), Error);
  EXPECT_THROW(B::permute(C, on<B, double>(2, 3, {}), std::vector<vid_t>{0, 1}), Error);
}

// ---- the GPU against GraphBLAS
template <class V> class AssignGpu : public ::testing::Test {};
TYPED_TEST_SUITE(AssignGpu, ValueTypes);

template <class V>
std::vector<V> random_dense(std::size_t n, unsigned seed, int lo, int hi) {
  std::mt19937_64 rng(seed);
  std::vector<V> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int v = std::uniform_int_distribution<int>(lo, hi)(rng);
    if constexpr (std::is_same_v<V, bool>) x[i] = v > 0;
    else x[i] = V(v);
  }
  return x;
}

TYPED_TEST(AssignGpu, VectorEveryMaskDescriptor) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const auto w0 = random_dense<V>(1000, 501, -3, 3);
  const auto m = random_dense<V>(1000, 502, -1, 1);
  const gpu::Vector<V> gm = gpu::GpuBackend::from_host(m);
  const gb::Vector<V> bm = gb::from_host(m);
  for (const Descriptor& d : mask_descriptors()) {
    gpu::Vector<V> gw = gpu::GpuBackend::from_host(w0);
    gb::Vector<V> bw = gb::from_host(w0);
    gpu::assign(gw, &gm, V(1), d);
    gb::assign(bw, &bm, V(1), d);
    EXPECT_EQ(gw.download(), gb::to_host(bw)) << describe(d);
  }
}

TYPED_TEST(AssignGpu, MatrixEveryMaskDescriptor) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  for (const auto& mask : random_inputs<V>(511)) {
    const auto old_c = random_csr<V>({.nrows = mask.nrows, .ncols = mask.ncols, .density = 0.1, .seed = 512});
    const auto gm = gpu::Matrix<V>::from_host(mask);
    const auto bm = gb::from_host(mask);
    for (const Descriptor& d : mask_descriptors()) {
      if (d.mask_complement) continue;
      for (bool over_old : {false, true}) {
        gpu::Matrix<V> gc = over_old ? gpu::Matrix<V>::from_host(old_c) : gpu::Matrix<V>();
        gb::Matrix<V> bc = over_old ? gb::from_host(old_c) : gb::Matrix<V>();
        gpu::assign(gc, &gm, V(1), d);
        gb::assign(bc, &bm, V(1), d);
        EXPECT_TRUE(same_matrix(gpu_result(gc), gb::to_host(bc))) << describe(d) << (over_old ? ", over C" : "");
      }
    }
  }
}

// A random permutation of 0..n-1, and the order by decreasing degree (ties by id).
std::vector<vid_t> shuffled(vid_t n, unsigned seed) {
  std::vector<vid_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), std::mt19937_64(seed));
  return p;
}

template <class V>
std::vector<vid_t> by_degree(const Csr<V>& a) {
  std::vector<vid_t> p(static_cast<std::size_t>(a.nrows));
  std::iota(p.begin(), p.end(), 0);
  std::stable_sort(p.begin(), p.end(), [&](vid_t x, vid_t y) { return a.row_length(x) > a.row_length(y); });
  return p;
}

template <class V>
void expect_same_permute(const Csr<V>& a, const std::vector<vid_t>& p) {
  gpu::Matrix<V> gc;
  gb::Matrix<V> bc;
  gpu::permute(gc, gpu::Matrix<V>::from_host(a), p);
  gb::permute(bc, gb::from_host(a), p);
  EXPECT_TRUE(same_matrix(gpu_result(gc), gb::to_host(bc)));
}

TYPED_TEST(AssignGpu, ExtractRowsAndPermute) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  for (const auto& a : random_inputs<V>(521)) {
    std::vector<vid_t> rows = shuffled(a.nrows, 522);
    rows.resize(rows.size() / 2);
    rows.insert(rows.end(), {5, 5, 0, vid_t(a.nrows - 1)});  // repeats, the dense row, the last row
    gpu::Matrix<V> gc;
    gb::Matrix<V> bc;
    gpu::extract_rows(gc, gpu::Matrix<V>::from_host(a), rows);
    gb::extract_rows(bc, gb::from_host(a), rows);
    EXPECT_TRUE(same_matrix(gpu_result(gc), gb::to_host(bc)));
    if (a.nrows == a.ncols) {
      expect_same_permute(a, shuffled(a.nrows, 523));
      expect_same_permute(a, by_degree(a));
    }
  }
  const auto A = gpu::Matrix<V>::from_host(random_inputs<V>(524)[0]);
  gpu::Matrix<V> C;
  EXPECT_THROW(gpu::permute(C, A, std::vector<vid_t>(120, 0)), Error);
  EXPECT_THROW(gpu::extract_rows(C, A, {120}), Error);
}

TEST(AssignGpuInPlace, OutputIsTheInput) {
  SPGRAPH_REQUIRE_GPU();
  const auto h = random_inputs<double>(531)[0];
  auto A = gpu::Matrix<double>::from_host(h);
  const auto p = shuffled(h.nrows, 532);
  gpu::permute(A, A, p);
  gb::Matrix<double> want;
  gb::permute(want, gb::from_host(h), p);
  EXPECT_TRUE(same_matrix(gpu_result(A), gb::to_host(want)));
  gpu::assign(A, &A, 2.0, Descriptor{.mask_structural = true});
  EXPECT_EQ(gpu_result(A).val, std::vector<double>(std::size_t(h.nnz()), 2.0));
}

class PermuteRealGraphs : public ::testing::TestWithParam<const char*> {};

// Degree-ordered relabeling, as triangle counting does it, and the rows of the top half.
TEST_P(PermuteRealGraphs, DegreeOrderMatchesGraphBlas) {
  SPGRAPH_REQUIRE_GPU();
  const Csr<double> a = io::load_graph(dataset(std::string("small/") + GetParam())).matrix;
  if (a.nrows != a.ncols) GTEST_SKIP() << "not square";
  expect_same_permute(a, by_degree(a));
  expect_same_permute(with_values(a), shuffled(a.nrows, 541));
  std::vector<vid_t> rows = by_degree(a);
  rows.resize(rows.size() / 2);
  gpu::Matrix<double> gc;
  gb::Matrix<double> bc;
  gpu::extract_rows(gc, gpu::Matrix<double>::from_host(a), rows);
  gb::extract_rows(bc, gb::from_host(a), rows);
  EXPECT_TRUE(same_matrix(gpu_result(gc), gb::to_host(bc)));
}

INSTANTIATE_TEST_SUITE_P(Datasets, PermuteRealGraphs,
                         ::testing::Values("karate.mtx", "west0067.mtx", "bcsstk13.mtx", "hep-th.mtx"),
                         GraphFileTestName{});

}  // namespace
}  // namespace spgraph::test
