// select: known answers on both backends (the graphblas ones run without a GPU), then the GPU
// against GraphBLAS on random matrices and real graphs, with every mask descriptor.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gpu_vs_graphblas.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::test {
namespace {

using Kind = SelectSpec::Kind;

std::string name(const SelectSpec& s) {
  static const char* names[] = {"GreaterEqual", "Greater", "LessEqual", "Less", "NotEqualZero", "Lower",
                                "Upper", "Diagonal", "OffDiagonal", "TopKPerRow", "TopKPerCol"};
  return std::string(names[int(s.kind)]) + " threshold " + std::to_string(s.threshold) + " offset " +
         std::to_string(s.offset) + " k " + std::to_string(s.k);
}

// ---- known answers
// S: row 0 0.5 -1 2 2; row 1 3 . 0 .; row 2 . 1 . 1
template <class B>
auto example_s() {
  return on<B, double>(3, 4, {{0, 0, 0.5}, {0, 1, -1}, {0, 2, 2}, {0, 3, 2}, {1, 0, 3}, {1, 2, 0}, {2, 1, 1},
                              {2, 3, 1}});
}

template <class B> using SelectKnown = OnBothBackends<B>;
TYPED_TEST_SUITE(SelectKnown, Backends);

TYPED_TEST(SelectKnown, ByPositionWithOffsets) {
  using B = TypeParam;
  const auto S = example_s<B>();
  typename B::template Matrix<double> C;
  B::select(C, nullptr, S, SelectSpec::position(Kind::Lower, 0));
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{0, 0, 0.5}, {1, 0, 3}, {2, 1, 1}})));
  B::select(C, nullptr, S, SelectSpec::position(Kind::Lower, -1));
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{1, 0, 3}, {2, 1, 1}})));
  B::select(C, nullptr, S, SelectSpec::position(Kind::Upper, 1));
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{0, 1, -1}, {0, 2, 2}, {0, 3, 2}, {1, 2, 0}, {2, 3, 1}})));
  B::select(C, nullptr, S, SelectSpec::position(Kind::Diagonal, 0));
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{0, 0, 0.5}})));
  B::select(C, nullptr, S, SelectSpec::position(Kind::Diagonal, 1));
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{0, 1, -1}, {1, 2, 0}, {2, 3, 1}})));
  B::select(C, nullptr, S, SelectSpec::position(Kind::OffDiagonal, 0));
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{0, 1, -1}, {0, 2, 2}, {0, 3, 2}, {1, 0, 3}, {1, 2, 0}, {2, 1, 1},
                                          {2, 3, 1}})));
}

TYPED_TEST(SelectKnown, LessAndTransposedInput) {
  using B = TypeParam;
  const auto S = example_s<B>();
  typename B::template Matrix<double> C;
  B::select(C, nullptr, S, SelectSpec::value(Kind::Less, 1));
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{0, 0, 0.5}, {0, 1, -1}, {1, 2, 0}})));
  Descriptor t;
  t.transpose_a = true;  // Lower of S' (4 x 3)
  B::select(C, nullptr, S, SelectSpec::position(Kind::Lower, 0), t);
  EXPECT_TRUE((holds<B, double>(C, 4, 3, {{0, 0, 0.5}, {1, 0, -1}, {2, 0, 2}, {2, 1, 0}, {3, 0, 2}, {3, 2, 1}})));
  Descriptor bad;
  bad.transpose_b = true;
  EXPECT_THROW(B::select(C, nullptr, S, SelectSpec::position(Kind::Lower, 0), bad), Error);
}

TYPED_TEST(SelectKnown, TopKPerColumnTiesToTheSmallerRow) {
  using B = TypeParam;
  typename B::template Matrix<double> C;
  B::select(C, nullptr, example_s<B>(), SelectSpec::top_k(Kind::TopKPerCol, 1));
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{1, 0, 3}, {2, 1, 1}, {0, 2, 2}, {0, 3, 2}})));
  // Column 0 holds 4, 4, 4 in rows 0, 2, 3; column 1 holds 1 and 7.
  const auto T = on<B, double>(4, 2, {{0, 0, 4}, {2, 0, 4}, {3, 0, 4}, {1, 1, 1}, {3, 1, 7}});
  B::select(C, nullptr, T, SelectSpec::top_k(Kind::TopKPerCol, 2));
  EXPECT_TRUE((holds<B, double>(C, 4, 2, {{0, 0, 4}, {2, 0, 4}, {1, 1, 1}, {3, 1, 7}})));
  EXPECT_THROW(B::select(C, nullptr, T, SelectSpec::top_k(Kind::TopKPerCol, -1)), Error);
  EXPECT_THROW(B::select(C, nullptr, T, SelectSpec::top_k(Kind::TopKPerRow, -2)), Error);
}

TYPED_TEST(SelectKnown, TopKRanksNanBelowEveryNumberAndZeroTiesNegativeZero) {
  using B = TypeParam;
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const auto R = on<B, double>(2, 4, {{0, 0, nan}, {0, 1, -inf}, {0, 2, 5}, {0, 3, 5}, {1, 0, -0.0}, {1, 1, 0.0}});
  typename B::template Matrix<double> C;
  B::select(C, nullptr, R, SelectSpec::top_k(Kind::TopKPerRow, 1));
  EXPECT_TRUE((holds<B, double>(C, 2, 4, {{0, 2, 5}, {1, 0, -0.0}})));
  B::select(C, nullptr, R, SelectSpec::top_k(Kind::TopKPerRow, 3));
  EXPECT_TRUE((holds<B, double>(C, 2, 4, {{0, 1, -inf}, {0, 2, 5}, {0, 3, 5}, {1, 0, -0.0}, {1, 1, 0.0}})));
  const Csr<double> h = with_values(B::to_host(C));
  EXPECT_TRUE(std::signbit(h.val[3])) << "row 1 keeps its -0 at column 0";
  B::select(C, nullptr, R, SelectSpec::value(Kind::NotEqualZero, 0));  // NaN != 0
  EXPECT_EQ(B::to_host(C).nnz(), 4);
}

// C<M> = select(S, > 0) = {(0,0) .5, (0,2) 2, (0,3) 2, (1,0) 3, (2,1) 1, (2,3) 1} over an old
// C {(0,0) 9, (0,2) 9, (2,2) 9}, with M = {(0,2) 1, (1,0) 0, (1,1) 1, (2,1) 1}.
TYPED_TEST(SelectKnown, MaskedEveryWay) {
  using B = TypeParam;
  const auto S = example_s<B>();
  const auto M = on<B, double>(3, 4, {{0, 2, 1}, {1, 0, 0}, {1, 1, 1}, {2, 1, 1}});
  const auto old_c = [] { return on<B, double>(3, 4, {{0, 0, 9}, {0, 2, 9}, {2, 2, 9}}); };
  const SelectSpec positive = SelectSpec::value(Kind::Greater, 0);
  Descriptor d;
  d.mask_structural = true;
  auto C = old_c();
  B::select(C, &M, S, positive, d);
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{0, 0, 9}, {0, 2, 2}, {1, 0, 3}, {2, 1, 1}, {2, 2, 9}})));
  d.replace = true;
  C = old_c();
  B::select(C, &M, S, positive, d);
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{0, 2, 2}, {1, 0, 3}, {2, 1, 1}})));
  d = {};  // valued: M(1,0) = 0 does not allow (1,0)
  d.replace = true;
  B::select(C, &M, S, positive, d);
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{0, 2, 2}, {2, 1, 1}})));
  d = {};
  d.mask_structural = d.mask_complement = true;
  C = old_c();
  B::select(C, &M, S, positive, d);
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{0, 0, 0.5}, {0, 2, 9}, {0, 3, 2}, {2, 3, 1}})));
  d = {};
  d.mask_structural = d.replace = true;
  B::select(C, &M, S, SelectSpec::top_k(Kind::TopKPerRow, 1), d);  // top-1: (0,2) 2, (1,0) 3, (2,1) 1
  EXPECT_TRUE((holds<B, double>(C, 3, 4, {{0, 2, 2}, {1, 0, 3}, {2, 1, 1}})));
}

// ---- the GPU against GraphBLAS
std::vector<SelectSpec> all_specs() {
  std::vector<SelectSpec> s;
  for (Kind k : {Kind::GreaterEqual, Kind::Greater, Kind::LessEqual, Kind::Less})
    for (double t : {-1.0, 0.0, 0.5, 2.0}) s.push_back(SelectSpec::value(k, t));
  s.push_back(SelectSpec::value(Kind::NotEqualZero, 0));
  for (Kind k : {Kind::Lower, Kind::Upper, Kind::Diagonal, Kind::OffDiagonal})
    for (std::int64_t off : {-3, -1, 0, 1, 4}) s.push_back(SelectSpec::position(k, off));
  for (Kind k : {Kind::TopKPerRow, Kind::TopKPerCol})
    for (std::int64_t k_ : {0, 1, 2, 5, 1000}) s.push_back(SelectSpec::top_k(k, k_));
  return s;
}

template <class V>
void expect_same_select(const Csr<V>& a, const SelectSpec& spec, const Descriptor& d = {},
                        const Csr<V>* mask = nullptr, const Csr<V>* old_c = nullptr) {
  gpu::Matrix<V> gc = old_c ? gpu::Matrix<V>::from_host(*old_c) : gpu::Matrix<V>();
  gb::Matrix<V> bc = old_c ? gb::from_host(*old_c) : gb::Matrix<V>();
  std::optional<gpu::Matrix<V>> gm;
  std::optional<gb::Matrix<V>> bm;
  if (mask) {
    gm.emplace(gpu::Matrix<V>::from_host(*mask));
    bm.emplace(gb::from_host(*mask));
  }
  gpu::select(gc, gm ? &*gm : nullptr, gpu::Matrix<V>::from_host(a), spec, d);
  gb::select(bc, bm ? &*bm : nullptr, gb::from_host(a), spec, d);
  EXPECT_TRUE(same_matrix(gpu_result(gc), gb::to_host(bc)))
      << name(spec) << ", " << describe(d) << (old_c ? ", over an old C" : "");
}

template <class V> class SelectGpu : public ::testing::Test {};
TYPED_TEST_SUITE(SelectGpu, ValueTypes);

TYPED_TEST(SelectGpu, EverySpecMatchesGraphBlas) {
  SPGRAPH_REQUIRE_GPU();
  for (const auto& a : random_inputs<TypeParam>(301))
    for (const SelectSpec& spec : all_specs()) expect_same_select(a, spec);
}

TYPED_TEST(SelectGpu, TransposedInput) {
  SPGRAPH_REQUIRE_GPU();
  Descriptor d;
  d.transpose_a = true;
  for (const auto& a : random_inputs<TypeParam>(311))
    for (const SelectSpec& spec : {SelectSpec::value(Kind::Greater, 0), SelectSpec::position(Kind::Lower, -1),
                                   SelectSpec::top_k(Kind::TopKPerRow, 2), SelectSpec::top_k(Kind::TopKPerCol, 3)})
      expect_same_select(a, spec, d);
}

TYPED_TEST(SelectGpu, EveryMaskDescriptor) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const auto a = random_inputs<V>(321)[0];
  // Values in {-1, 0, 1}: a valued mask drops a third of its entries.
  const auto mask = random_csr<V>({.nrows = 120, .ncols = 120, .density = 0.2, .seed = 322, .empty_row_every = 5,
                                   .dense_row = 5, .min_value = -1, .max_value = 1});
  const auto old_c = random_csr<V>({.nrows = 120, .ncols = 120, .density = 0.1, .seed = 323});
  for (const Descriptor& d : mask_descriptors())
    for (const SelectSpec& spec : {SelectSpec::value(Kind::GreaterEqual, 1), SelectSpec::position(Kind::Upper, 2),
                                   SelectSpec::top_k(Kind::TopKPerRow, 2), SelectSpec::top_k(Kind::TopKPerCol, 1)}) {
      expect_same_select(a, spec, d, &mask);
      expect_same_select(a, spec, d, &mask, &old_c);
      expect_same_select<V>(a, spec, d, nullptr, &old_c);  // no mask: all, or nothing when complemented
    }
}

// Many ties (values 0..2), NaN and infinities: the ranking rules of SelectSpec.
template <class V>
Csr<V> ties_and_nan(unsigned seed) {
  auto a = random_csr<V>({.nrows = 70, .ncols = 60, .density = 0.15, .seed = seed, .empty_row_every = 9,
                          .dense_row = 3, .min_value = 0, .max_value = 2});
  std::mt19937_64 rng(seed);
  for (V& v : a.val) {
    const int r = int(rng() % 10);
    if (r == 0) v = std::numeric_limits<V>::quiet_NaN();
    else if (r == 1) v = -std::numeric_limits<V>::infinity();
    else if (r == 2) v = -V(0);
  }
  return a;
}

TEST(SelectGpuTopK, TiesNanAndInfinities) {
  SPGRAPH_REQUIRE_GPU();
  for (std::int64_t k : {0, 1, 2, 3, 7, 100}) {
    for (Kind kind : {Kind::TopKPerRow, Kind::TopKPerCol}) {
      expect_same_select(ties_and_nan<float>(331), SelectSpec::top_k(kind, k));
      expect_same_select(ties_and_nan<double>(332), SelectSpec::top_k(kind, k));
    }
  }
  expect_same_select(ties_and_nan<double>(333), SelectSpec::value(Kind::NotEqualZero, 0));
  expect_same_select(ties_and_nan<double>(333), SelectSpec::value(Kind::Less, 1));
}

TEST(SelectGpuTopK, NegativeKThrows) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = gpu::Matrix<double>::from_host(random_inputs<double>(341)[0]);
  gpu::Matrix<double> C;
  EXPECT_THROW(gpu::select(C, nullptr, a, SelectSpec::top_k(Kind::TopKPerRow, -1)), Error);
  EXPECT_THROW(gpu::select(C, nullptr, a, SelectSpec::top_k(Kind::TopKPerCol, -1)), Error);
}

TEST(SelectGpuInPlace, OutputIsTheInput) {
  SPGRAPH_REQUIRE_GPU();
  const auto h = random_inputs<double>(351)[0];
  auto A = gpu::Matrix<double>::from_host(h);
  gpu::select(A, &A, A, SelectSpec::top_k(Kind::TopKPerRow, 2), Descriptor{.mask_structural = true});
  gb::Matrix<double> want;
  gb::select(want, nullptr, gb::from_host(h), SelectSpec::top_k(Kind::TopKPerRow, 2));
  EXPECT_TRUE(same_matrix(gpu_result(A), gb::to_host(want)));
}

class SelectRealGraphs : public ::testing::TestWithParam<const char*> {};

TEST_P(SelectRealGraphs, MatchesGraphBlas) {
  SPGRAPH_REQUIRE_GPU();
  const Csr<double> a = io::load_graph(dataset(std::string("small/") + GetParam())).matrix;
  const Csr<double> w = with_values(a);
  for (const SelectSpec& spec : {SelectSpec::position(Kind::Lower, -1), SelectSpec::position(Kind::Upper, 1),
                                 SelectSpec::value(Kind::Greater, 0), SelectSpec::top_k(Kind::TopKPerRow, 3),
                                 SelectSpec::top_k(Kind::TopKPerCol, 2)}) {
    expect_same_select(a, spec);
    expect_same_select(w, spec, Descriptor{.mask_structural = true, .mask_complement = true}, &a, &w);
  }
}

INSTANTIATE_TEST_SUITE_P(Datasets, SelectRealGraphs,
                         ::testing::Values("karate.mtx", "west0067.mtx", "bcsstk13.mtx", "hep-th.mtx"),
                         GraphFileTestName{});

}  // namespace
}  // namespace spgraph::test
