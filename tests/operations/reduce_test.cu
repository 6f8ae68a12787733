// reduce_rows, reduce_cols and reduce_scalar: known answers on both backends (the graphblas
// ones run without a GPU), int64 counts past 2^31, and the GPU against GraphBLAS (or a host
// sum where GraphBLAS has no such monoid) on random matrices and real graphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpu_vs_graphblas.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::test {
namespace {

constexpr std::int64_t kBig = 2000000000;  // 2e9: two of them pass 2^31, three pass 2^32

// ---- known answers
template <class B> using ReduceKnown = OnBothBackends<B>;
TYPED_TEST_SUITE(ReduceKnown, Backends);

// B: row 0 true false true; row 1 . true .; row 2 empty.
TYPED_TEST(ReduceKnown, BoolAsLogicAndAsInt64Counts) {
  using B = TypeParam;
  const auto M = on<B, bool>(3, 3, {{0, 0, true}, {0, 1, false}, {0, 2, true}, {1, 1, true}});
  typename B::template Vector<std::int64_t> counts;
  B::template reduce_rows<monoid::Plus>(counts, M);
  EXPECT_EQ(B::to_host(counts), (std::vector<std::int64_t>{2, 1, 0}));
  B::template reduce_cols<monoid::Plus>(counts, M);
  EXPECT_EQ(B::to_host(counts), (std::vector<std::int64_t>{1, 1, 1}));
  EXPECT_EQ((B::template reduce_scalar<monoid::Plus, std::int64_t>(M)), 3);
  typename B::template Vector<bool> y;
  B::template reduce_rows<monoid::Plus>(y, M);  // lor
  EXPECT_EQ(B::to_host(y), (std::vector<bool>{true, true, false}));
  B::template reduce_rows<monoid::Min>(y, M);  // land, identity true
  EXPECT_EQ(B::to_host(y), (std::vector<bool>{false, true, true}));
  EXPECT_TRUE(B::template reduce_scalar<monoid::Max>(M));
  EXPECT_FALSE(B::template reduce_scalar<monoid::Min>(M));
}

// I: row 0 2e9 2e9; row 1 -5; row 2 empty (int32).
TYPED_TEST(ReduceKnown, Int32CountsPast32Bits) {
  using B = TypeParam;
  const auto I = on<B, std::int32_t>(3, 2, {{0, 0, std::int32_t(kBig)}, {0, 1, std::int32_t(kBig)}, {1, 0, -5}});
  typename B::template Vector<std::int64_t> y;
  B::template reduce_rows<monoid::Plus>(y, I);
  EXPECT_EQ(B::to_host(y), (std::vector<std::int64_t>{2 * kBig, -5, 0}));
  B::template reduce_cols<monoid::Plus>(y, I);
  EXPECT_EQ(B::to_host(y), (std::vector<std::int64_t>{kBig - 5, kBig}));
  B::template reduce_rows<monoid::Min>(y, I);
  EXPECT_EQ(B::to_host(y), (std::vector<std::int64_t>{kBig, -5, std::numeric_limits<std::int64_t>::max()}));
  EXPECT_EQ((B::template reduce_scalar<monoid::Plus, std::int64_t>(I)), 2 * kBig - 5);
  EXPECT_EQ((B::template reduce_scalar<monoid::Max, std::int64_t>(I)), kBig);
}

TYPED_TEST(ReduceKnown, VectorsAndEmptyInputs) {
  using B = TypeParam;
  const auto x = B::from_host(std::vector<double>{1, -4, 2.5});
  EXPECT_EQ(B::template reduce_scalar<monoid::Plus>(x), -0.5);
  EXPECT_EQ(B::template reduce_scalar<monoid::Min>(x), -4);
  const auto c = B::from_host(std::vector<std::int32_t>{std::int32_t(kBig), std::int32_t(kBig), 7});
  EXPECT_EQ((B::template reduce_scalar<monoid::Plus, std::int64_t>(c)), 2 * kBig + 7);
  const auto E = on<B, double>(2, 3, {});
  EXPECT_EQ(B::template reduce_scalar<monoid::Max>(E), -std::numeric_limits<double>::infinity());
  typename B::template Vector<double> y;
  B::template reduce_cols<monoid::Min>(y, E);
  EXPECT_EQ(B::to_host(y), (std::vector<double>(3, std::numeric_limits<double>::infinity())));
}

// ---- the GPU
// Monoid M over each row of a (columns: of a'), as T, on the host.
template <class M, class T, class V>
std::vector<T> host_rows(const Csr<V>& a) {
  std::vector<T> y(std::size_t(a.nrows), M::template identity<T>());
  for (vid_t i = 0; i < a.nrows; ++i)
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) y[i] = M::template add<T>(y[i], a.is_pattern() ? T(1) : T(a.val[p]));
  return y;
}

// magnitude[i]: the sum of |terms| behind want[i], which bounds a sum's rounding error whatever
// the order (values that cancel, as bcsstk13's do); 64 where not given.
template <class T>
void expect_vectors_match(const std::vector<T>& got, const std::vector<T>& want, const std::string& what,
                          const std::vector<double>& magnitude = {}) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_TRUE(values_match<T>(got[i], want[i], magnitude.empty() ? 64.0 : std::max(64.0, magnitude[i])))
        << what << " [" << i << "]";
}

// For a plus over floating values: the sum of |a| over each row of a.
template <class M, class V>
std::vector<double> row_magnitudes(const Csr<V>& a) {
  if constexpr (std::is_same_v<M, monoid::Plus> && std::is_floating_point_v<V>) {
    Csr<double> abs_a = convert_values<double>(a);
    for (double& v : abs_a.val) v = std::fabs(v);
    return host_rows<monoid::Plus, double>(abs_a);
  } else {
    return {};
  }
}

// M over rows, columns and all of a on the GPU, against GraphBLAS.
template <class M, class T, class V>
void expect_same_reduce(const Csr<V>& a, const std::string& what) {
  const auto ga = gpu::Matrix<V>::from_host(a);
  const auto ba = gb::from_host(a);
  gpu::Vector<T> gy;
  gb::Vector<T> by;
  gpu::reduce_rows<M>(gy, ga);
  gb::reduce_rows<M>(by, ba);
  const std::vector<double> rows = row_magnitudes<M>(a), cols = row_magnitudes<M>(transpose(a));
  expect_vectors_match<T>(gy.download(), gb::to_host(by), what + " rows", rows);
  gpu::reduce_cols<M>(gy, ga);
  gb::reduce_cols<M>(by, ba);
  expect_vectors_match<T>(gy.download(), gb::to_host(by), what + " columns", cols);
  double total = 1e4;
  for (double m : rows) total += m;
  EXPECT_TRUE(values_match<T>(gpu::reduce_scalar<M, T>(ga), gb::reduce_scalar<M, T>(ba), total)) << what << " scalar";
}

template <class V> class ReduceGpu : public ::testing::Test {};
TYPED_TEST_SUITE(ReduceGpu, ValueTypes);

TYPED_TEST(ReduceGpu, MonoidsMatchGraphBlas) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  for (const auto& a : random_inputs<V>(401)) {
    expect_same_reduce<monoid::Plus, V>(a, "plus");
    expect_same_reduce<monoid::Min, V>(a, "min");
    expect_same_reduce<monoid::Max, V>(a, "max");
    if constexpr (std::is_same_v<V, bool>) expect_same_reduce<monoid::Lor, V>(a, "lor");
    if constexpr (std::is_same_v<V, bool> || std::is_same_v<V, std::int32_t>) {
      expect_same_reduce<monoid::Plus, std::int64_t>(a, "plus as int64");
      expect_same_reduce<monoid::Max, std::int64_t>(a, "max as int64");
    }
  }
}

// lor over numbers (GraphBLAS has it over bool only) and any (any present value is right).
TYPED_TEST(ReduceGpu, LorAndAnyAgainstTheHost) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  for (const auto& a : random_inputs<V>(411)) {
    const auto ga = gpu::Matrix<V>::from_host(a);
    gpu::Vector<V> y;
    gpu::reduce_rows<monoid::Lor>(y, ga);
    EXPECT_EQ(y.download(), (host_rows<monoid::Lor, V>(a)));
    gpu::reduce_cols<monoid::Lor>(y, ga);
    EXPECT_EQ(y.download(), (host_rows<monoid::Lor, V>(transpose(a))));
    gpu::reduce_rows<monoid::Any>(y, ga);
    const std::vector<V> any = y.download();
    for (vid_t i = 0; i < a.nrows; ++i) {
      bool found = a.row_length(i) == 0 && any[i] == monoid::Any::identity<V>();  // no value: the marker
      for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) found = found || any[i] == (a.is_pattern() ? V(1) : a.val[p]);
      EXPECT_TRUE(found) << "any of row " << i << " gave " << +any[i] << ", not a value of the row";
    }
  }
}

TEST(ReduceGpuErrors, UnknownMonoidIsNamed) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = gpu::Matrix<double>::from_host(random_inputs<double>(421)[0]);
  gpu::Vector<double> y;
  try {
    gpu::reduce_rows<mult::Times>(y, a);
    FAIL() << "times is not a monoid of reduce";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("times"), std::string::npos) << e.what();
  }
}

// Sums past 2^31 in int64: int32 values near 2^30 over many entries, and a dense int32 row.
TEST(ReduceGpuCounts, Int32SumsPast32Bits) {
  SPGRAPH_REQUIRE_GPU();
  auto a = random_csr<std::int32_t>({.nrows = 300, .ncols = 2000, .density = 0.2, .seed = 431, .dense_row = 7});
  for (auto& v : a.val) v = v >= 0 ? (1 << 30) + v : -(1 << 29) + v;
  std::int64_t want = 0;
  for (auto v : a.val) want += v;
  ASSERT_GT(want, std::int64_t(1) << 33);
  const auto ga = gpu::Matrix<std::int32_t>::from_host(a);
  EXPECT_EQ((gpu::reduce_scalar<monoid::Plus, std::int64_t>(ga)), want);
  gpu::Vector<std::int64_t> rows;
  gpu::reduce_rows<monoid::Plus>(rows, ga);
  EXPECT_EQ(rows.download(), (host_rows<monoid::Plus, std::int64_t>(a)));
  gpu::reduce_cols<monoid::Plus>(rows, ga);
  EXPECT_EQ(rows.download(), (host_rows<monoid::Plus, std::int64_t>(transpose(a))));
  gpu::Vector<std::int32_t> x;
  x.upload(a.val);
  EXPECT_EQ((gpu::reduce_scalar<monoid::Plus, std::int64_t>(x)), want);
}

class ReduceRealGraphs : public ::testing::TestWithParam<const char*> {};

// Row and column sums of the weighted graph, and degrees as int64 counts of its bool pattern.
TEST_P(ReduceRealGraphs, SumsAndDegrees) {
  SPGRAPH_REQUIRE_GPU();
  const Csr<double> a = with_values(io::load_graph(dataset(std::string("small/") + GetParam())).matrix);
  expect_same_reduce<monoid::Plus, double>(a, "plus");
  expect_same_reduce<monoid::Max, double>(a, "max");
  const Csr<bool> p = drop_values(convert_values<bool>(a));
  const auto gp = gpu::Matrix<bool>::from_host(p);
  gpu::Vector<std::int64_t> degrees;
  gpu::reduce_rows<monoid::Plus>(degrees, gp);
  const auto out = out_degrees(p);
  EXPECT_EQ(degrees.download(), (std::vector<std::int64_t>(out.begin(), out.end())));
  gpu::reduce_cols<monoid::Plus>(degrees, gp);
  const auto in = in_degrees(p);
  EXPECT_EQ(degrees.download(), (std::vector<std::int64_t>(in.begin(), in.end())));
  EXPECT_EQ((gpu::reduce_scalar<monoid::Plus, std::int64_t>(gp)), p.nnz());
}

INSTANTIATE_TEST_SUITE_P(Datasets, ReduceRealGraphs,
                         ::testing::Values("karate.mtx", "west0067.mtx", "bcsstk13.mtx", "hep-th.mtx"),
                         GraphFileTestName{});

}  // namespace
}  // namespace spgraph::test
