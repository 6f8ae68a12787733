// ewise_add, ewise_mult and apply on hand-computed cases. A is the 4 x 4 example;
// E = {(0,1)=10, (1,1)=20, (2,3)=30} overlaps A at (0,1) and (2,3). Then apply and scaling
// into the input itself, which the backend does in place, against the same operation into
// another matrix.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "matrix_support.hpp"
#include "small_matrices.hpp"

namespace spgraph::test {
namespace {

gb::Matrix<double> example_e() { return matrix<double>(4, 4, {{0, 1, 10}, {1, 1, 20}, {2, 3, 30}}); }

TEST(GraphblasEwise, AddIsTheUnionOfPatterns) {
  gb::Matrix<double> C;
  gb::ewise_add<monoid::Plus>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 12}, {0, 2, 3}, {1, 1, 20}, {1, 3, 4}, {2, 0, 1}, {2, 3, 35}}));
  gb::ewise_add<monoid::Min>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 2}, {0, 2, 3}, {1, 1, 20}, {1, 3, 4}, {2, 0, 1}, {2, 3, 5}}));
  gb::ewise_add<mult::Second>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 10}, {0, 2, 3}, {1, 1, 20}, {1, 3, 4}, {2, 0, 1}, {2, 3, 30}}));
}

TEST(GraphblasEwise, MultIsTheIntersection) {
  gb::Matrix<double> C;
  gb::ewise_mult<mult::Times>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 20}, {2, 3, 150}}));
  gb::ewise_mult<mult::First>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 2}, {2, 3, 5}}));
  gb::ewise_mult<mult::Pair>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 1}, {2, 3, 1}}));
  gb::ewise_mult<monoid::Max>(C, example_a<double>(), example_e());
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 10}, {2, 3, 30}}));
}

TEST(GraphblasEwise, BoolAndLogicalOperators) {
  const auto A = matrix<bool>(2, 2, {{0, 0, true}, {0, 1, false}, {1, 1, true}});
  const auto B = matrix<bool>(2, 2, {{0, 1, true}, {1, 0, true}, {1, 1, false}});
  gb::Matrix<bool> C;
  gb::ewise_mult<mult::Land>(C, A, B);
  EXPECT_TRUE(same_matrix<bool>(C, 2, 2, {{0, 1, false}, {1, 1, false}}));
  gb::ewise_add<monoid::Lor>(C, A, B);
  EXPECT_TRUE(same_matrix<bool>(C, 2, 2, {{0, 0, true}, {0, 1, true}, {1, 0, true}, {1, 1, true}}));
  // lor over numbers: 1 where either is nonzero
  const auto X = matrix<std::int32_t>(1, 3, {{0, 0, 0}, {0, 1, 5}, {0, 2, 0}});
  const auto Y = matrix<std::int32_t>(1, 3, {{0, 0, 0}, {0, 1, 0}, {0, 2, -2}});
  gb::Matrix<std::int32_t> Z;
  gb::ewise_mult<monoid::Lor>(Z, X, Y);
  EXPECT_TRUE(same_matrix<std::int32_t>(Z, 1, 3, {{0, 0, 0}, {0, 1, 1}, {0, 2, 1}}));
}

TEST(GraphblasEwise, EmptyAndRectangular) {
  gb::Matrix<float> C;
  gb::ewise_add<monoid::Plus>(C, gb::Matrix<float>(0, 0), gb::Matrix<float>(0, 0));
  EXPECT_TRUE(same_matrix<float>(C, 0, 0, {}));
  const auto R = matrix<float>(2, 3, {{0, 2, 1.5f}, {1, 0, 2}});
  gb::ewise_add<monoid::Plus>(C, R, gb::Matrix<float>(2, 3));
  EXPECT_TRUE(same_matrix<float>(C, 2, 3, {{0, 2, 1.5f}, {1, 0, 2}}));
  gb::ewise_mult<mult::Times>(C, R, gb::Matrix<float>(2, 3));
  EXPECT_TRUE(same_matrix<float>(C, 2, 3, {}));
  EXPECT_THROW(gb::ewise_add<monoid::Plus>(C, R, gb::Matrix<float>(3, 2)), Error);
}

TEST(GraphblasEwise, Vectors) {
  using Vi = std::vector<std::int64_t>;
  const auto x = gb::from_host(Vi{1, 2, 3, 4}), y = gb::from_host(Vi{4, 3, 2, 1});
  gb::Vector<std::int64_t> z;
  gb::ewise_add<monoid::Plus>(z, x, y);
  EXPECT_EQ(gb::to_host(z), (Vi{5, 5, 5, 5}));
  gb::ewise_add<monoid::Max>(z, x, y);
  EXPECT_EQ(gb::to_host(z), (Vi{4, 3, 3, 4}));
  gb::ewise_mult<mult::Times>(z, x, y);
  EXPECT_EQ(gb::to_host(z), (Vi{4, 6, 6, 4}));
}

TEST(GraphblasEwise, PositionalOperatorIsNotABinaryOperator) {
  gb::Matrix<std::int32_t> C;
  EXPECT_THROW(gb::ewise_mult<mult::SecondI>(C, example_a<std::int32_t>(), example_a<std::int32_t>()), Error);
}

TEST(GraphblasApply, BuiltInUnaryOperators) {
  const auto S = matrix<double>(2, 3, {{0, 0, -1.5}, {0, 2, 2}, {1, 1, 0}});
  gb::Matrix<double> C;
  gb::apply(C, S, unary::Abs{});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, 1.5}, {0, 2, 2}, {1, 1, 0}}));
  gb::apply(C, S, unary::Negate{});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, 1.5}, {0, 2, -2}, {1, 1, -0.0}}));
  gb::apply(C, S, unary::One{});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, 1}, {0, 2, 1}, {1, 1, 1}}));
  gb::apply(C, S, unary::Identity{});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, -1.5}, {0, 2, 2}, {1, 1, 0}}));
  gb::apply(C, S, unary::Scale{4});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, -6}, {0, 2, 8}, {1, 1, 0}}));
  gb::apply(C, S, unary::AddScalar{0.5});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, -1}, {0, 2, 2.5}, {1, 1, 0.5}}));
  gb::apply(C, S, unary::Pow{2});
  EXPECT_TRUE(same_matrix(C, 2, 3, {{0, 0, 2.25}, {0, 2, 4}, {1, 1, 0}}));
}

TEST(GraphblasApply, ScalarsComputeInDoubleThenConvert) {
  // unary_ops.hpp: T(x * s) with s a double, so int 3 * 0.5 = 1.5 truncates to 1; an entry
  // whose value becomes 0 stays an entry.
  const auto A = matrix<std::int32_t>(1, 4, {{0, 0, 3}, {0, 1, 1}, {0, 2, -3}, {0, 3, 8}});
  gb::Matrix<std::int32_t> C;
  gb::apply(C, A, unary::Scale{0.5});
  EXPECT_TRUE(same_matrix<std::int32_t>(C, 1, 4, {{0, 0, 1}, {0, 1, 0}, {0, 2, -1}, {0, 3, 4}}));
  gb::apply(C, A, unary::AddScalar{0.75});
  EXPECT_TRUE(same_matrix<std::int32_t>(C, 1, 4, {{0, 0, 3}, {0, 1, 1}, {0, 2, -2}, {0, 3, 8}}));
  gb::apply(C, A, unary::Pow{0.5});  // sqrt(8) = 2.83 -> 2
  EXPECT_EQ(entries(gb::to_host(C))[3].val, 2);
  // float: the product is formed in double, then rounded once to float
  const auto F = matrix<float>(1, 1, {{0, 0, 0.1f}});
  gb::Matrix<float> G;
  gb::apply(G, F, unary::Scale{3});
  EXPECT_EQ(entries(gb::to_host(G))[0].val, static_cast<float>(double(0.1f) * 3.0));
}

TEST(GraphblasApply, VectorsAndPatternInputs) {
  auto v = gb::from_host(std::vector<float>{1, -2, 3});
  gb::apply(v, v, unary::Scale{-2});
  EXPECT_EQ(gb::to_host(v), (std::vector<float>{-2, 4, -6}));
  Csr<double> p = gb::to_host(example_a<double>());
  p.val.clear();
  gb::Matrix<double> C;
  gb::apply(C, gb::from_host(p), unary::AddScalar{1});
  EXPECT_TRUE(same_matrix(C, 4, 4, {{0, 1, 2}, {0, 2, 2}, {1, 3, 2}, {2, 0, 2}, {2, 3, 2}}));
}

struct Square {
  template <class T> T operator()(T x) const { return x * x; }
};

TEST(GraphblasApply, UserDefinedOperatorThrows) {
  gb::Matrix<double> C;
  EXPECT_THROW(gb::apply(C, example_a<double>(), Square{}), Error);
  gb::Matrix<double> A = example_a<double>();
  EXPECT_THROW(gb::apply(A, nullptr, A, Square{}), Error);  // into itself too, A left as it was
  EXPECT_TRUE(same_matrix(A, 4, 4, {{0, 1, 2}, {0, 2, 3}, {1, 3, 4}, {2, 0, 1}, {2, 3, 5}}));
}

// ---- into itself (in place) against into another matrix (GraphBLAS's own operation) ----------

// Values of every kind an operator treats apart: signed zeros, infinities, NaN,
// subnormals, values past float's range and below its precision, negatives, and ordinary
// values of every magnitude.
template <class V>
V awkward_value(std::mt19937_64& rng) {
  using L = std::numeric_limits<V>;
  const V special[] = {V(0), -V(0), L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN(),
                       L::denorm_min(), -L::min() / 3, L::max(), V(1), V(-1), V(0.1), V(1e-30), V(3e38)};
  std::uniform_int_distribution<int> pick(0, 3 * int(std::size(special)) - 1);
  const int k = pick(rng);
  if (k < int(std::size(special))) return special[k];
  std::uniform_real_distribution<double> mantissa(-1, 1);
  std::uniform_int_distribution<int> exponent(-60, 60);
  return V(std::ldexp(mantissa(rng), exponent(rng)));
}

// A random nrows x ncols pattern (empty rows, a dense row) holding awkward values.
template <class V>
Csr<V> awkward_matrix(vid_t nrows, vid_t ncols, double density, unsigned seed) {
  Csr<V> h = random_csr<V>({.nrows = nrows, .ncols = ncols, .density = density, .seed = seed,
                            .empty_row_every = 7, .dense_row = nrows / 2});
  std::mt19937_64 rng(seed);
  for (auto& v : h.val) v = awkward_value<V>(rng);
  return h;
}

// The same dimensions, pattern and value bits, where NaN matches any NaN: of a product of two
// NaNs GraphBLAS gives one or the other, as the matrix goes (its scaling of rows gave d's NaN
// on a matrix of one entry a row and a's on another), so their sign and payload are no answer.
template <class V>
::testing::AssertionResult same_bits(const gb::Matrix<V>& got, const gb::Matrix<V>& want) {
  const Csr<V> g = gb::to_host(got), w = gb::to_host(want);
  if (g.nrows != w.nrows || g.ncols != w.ncols || g.rowptr != w.rowptr || g.col != w.col)
    return ::testing::AssertionFailure() << "dimensions or pattern differ";
  for (std::size_t p = 0; p < w.val.size(); ++p)
    if (std::memcmp(&g.val[p], &w.val[p], sizeof(V)) != 0 && !(std::isnan(double(g.val[p])) && std::isnan(double(w.val[p]))))
      return ::testing::AssertionFailure() << "entry " << p << ": " << g.val[p] << " in place, " << w.val[p];
  return ::testing::AssertionSuccess();
}

template <class V>
class GraphblasInPlace : public ::testing::Test {};
using InPlaceTypes = ::testing::Types<float, double, std::int32_t>;  // int32_t: GraphBLAS's own path
TYPED_TEST_SUITE(GraphblasInPlace, InPlaceTypes);

// Every operator, with the scalars that take GxB_POW_FP64's special cases (0, NaN) and
// conversions to float that round, overflow and underflow.
template <class V, class F>
void for_each_operator(F&& check) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  check(unary::Identity{});
  check(unary::Abs{});
  check(unary::Negate{});
  check(unary::One{});
  if constexpr (!std::is_integral_v<V>) check(unary::Inverse{});  // integer 1/0 is GraphBLAS's to define
  for (double s : {3.7, -0.1, 0.0, 1e300, nan}) check(unary::Scale{s});
  for (double s : {0.25, -1e-300, nan}) check(unary::AddScalar{s});
  for (double e : {2.0, 0.5, 1.1, -1.5, 0.0, -0.0, 3.0, nan}) check(unary::Pow{e});
  if constexpr (!std::is_same_v<V, std::int32_t>) check(unary::ToFloat{});  // no built-in over int32_t
}

template <class V>
Csr<V> in_place_input(vid_t nrows, vid_t ncols, double density, unsigned seed) {
  if constexpr (std::is_integral_v<V>)
    return random_csr<V>({.nrows = nrows, .ncols = ncols, .density = density, .seed = seed, .min_value = -9, .max_value = 9});
  else
    return awkward_matrix<V>(nrows, ncols, density, seed);
}

template <class V>
std::vector<V> in_place_scales(vid_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<V> d(n);
  for (V& v : d) {
    if constexpr (std::is_integral_v<V>) v = V(std::uniform_int_distribution<int>(-9, 9)(rng));
    else v = awkward_value<V>(rng);
  }
  return d;
}

TYPED_TEST(GraphblasInPlace, ApplyIntoItselfIsApplyIntoAnother) {
  using V = TypeParam;
  // Small (one thread) and over 2^18 entries (the parallel loop).
  for (const auto& [n, density] : {std::pair{60, 0.2}, std::pair{700, 0.6}}) {
    const gb::Matrix<V> A = gb::from_host(in_place_input<V>(n, n + 13, density, unsigned(n)));
    for_each_operator<V>([&](auto op) {
      gb::Matrix<V> want, got = A.clone();
      gb::apply(want, nullptr, A, op);
      gb::apply(got, nullptr, got, op);
      EXPECT_TRUE(same_bits(got, want)) << n << " rows, operator " << int(spgraph::detail::unary_id(op).kind)
                                        << " scalar " << spgraph::detail::unary_id(op).scalar;
    });
  }
}

TYPED_TEST(GraphblasInPlace, ApplyIntoItselfOfOneValueForAll) {
  using V = TypeParam;
  Csr<V> pattern = in_place_input<V>(40, 30, 0.3, 3);
  pattern.val.clear();
  const gb::Matrix<V> A = gb::from_host(pattern);  // iso: every entry 1
  for_each_operator<V>([&](auto op) {
    gb::Matrix<V> want, got = A.clone();
    gb::apply(want, nullptr, A, op);
    gb::apply(got, nullptr, got, op);
    EXPECT_TRUE(same_bits(got, want)) << "operator " << int(spgraph::detail::unary_id(op).kind);
  });
}

// A mask, its complement or a transpose: the whole operation, into itself as into another.
TYPED_TEST(GraphblasInPlace, ApplyIntoItselfWithAMaskOrTransposed) {
  using V = TypeParam;
  const gb::Matrix<V> A = gb::from_host(in_place_input<V>(50, 50, 0.3, 5));
  const gb::Matrix<V> M = gb::from_host(in_place_input<V>(50, 50, 0.3, 6));
  for (const Descriptor& d : {Descriptor{.mask_structural = true}, Descriptor{.mask_complement = true},
                              Descriptor{.mask_structural = true, .mask_complement = true, .replace = true},
                              Descriptor{.transpose_a = true}}) {
    for (const gb::Matrix<V>* mask : {&M, static_cast<const gb::Matrix<V>*>(nullptr)}) {
      gb::Matrix<V> want = A.clone(), got = A.clone();
      gb::apply(want, mask, A, unary::Scale{3}, d);
      gb::apply(got, mask, got, unary::Scale{3}, d);
      EXPECT_TRUE(same_bits(got, want)) << "mask " << (mask != nullptr) << " complement " << d.mask_complement
                                        << " transpose " << d.transpose_a;
    }
  }
}

TYPED_TEST(GraphblasInPlace, ScaleIntoItselfIsScaleIntoAnother) {
  using V = TypeParam;
  for (const auto& [n, density] : {std::pair{60, 0.2}, std::pair{700, 0.6}}) {
    const vid_t m = n + 13;
    const gb::Matrix<V> A = gb::from_host(in_place_input<V>(n, m, density, unsigned(n) + 1));
    const auto rows = gb::from_host(in_place_scales<V>(n, unsigned(n) + 2));
    const auto cols = gb::from_host(in_place_scales<V>(m, unsigned(n) + 3));
    gb::Matrix<V> want, got = A.clone();
    gb::scale_rows(want, rows, A);
    gb::scale_rows(got, rows, got);
    EXPECT_TRUE(same_bits(got, want)) << n << " rows, scale_rows";
    got = A.clone();
    gb::scale_cols(want, A, cols);
    gb::scale_cols(got, got, cols);
    EXPECT_TRUE(same_bits(got, want)) << n << " rows, scale_cols";
  }
  // One value for all entries: scaled into itself as into another.
  Csr<V> pattern = in_place_input<V>(30, 20, 0.3, 4);
  pattern.val.clear();
  const gb::Matrix<V> P = gb::from_host(pattern);
  const auto d = gb::from_host(std::vector<V>(30, V(3)));
  gb::Matrix<V> want, got = P.clone();
  gb::scale_rows(want, d, P);
  gb::scale_rows(got, d, got);
  EXPECT_TRUE(same_bits(got, want)) << "iso";
}

}  // namespace
}  // namespace spgraph::test
