// ewise_add, ewise_mult, apply, scale_rows and scale_cols: known answers on both backends
// (the graphblas ones run without a GPU), then the GPU against GraphBLAS on random matrices
// and real graphs, with every mask descriptor, several operators and every value type.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gpu_vs_graphblas.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::test {
namespace {


// An operator type without a run-time id: both backends must refuse it by name.
struct NoIdOp {
  static constexpr const char* name = "no_id_op";
};
struct NoIdUnary {
  template <class T> T operator()(T x) const { return x; }
};

// ---- known answers. A and E overlap at (0,0); the mask allows (0,0) and (1,2) when valued,
// also (0,1) when structural; the old C has (0,2), (1,0) and (1,2).
template <class V> std::vector<Entry<V>> a_entries() { return {{0, 0, 1}, {0, 2, 2}, {1, 1, 3}}; }
template <class V> std::vector<Entry<V>> e_entries() { return {{0, 0, 10}, {0, 1, 20}, {1, 2, 30}}; }
template <class V> std::vector<Entry<V>> mask_entries() { return {{0, 0, 1}, {0, 1, 0}, {1, 2, 5}}; }
template <class V> std::vector<Entry<V>> old_c_entries() { return {{0, 2, 7}, {1, 0, 8}, {1, 2, 9}}; }

template <class B> using EwiseKnown = OnBothBackends<B>;
TYPED_TEST_SUITE(EwiseKnown, Backends);

TYPED_TEST(EwiseKnown, AddAndMultWithoutMask) {
  using B = TypeParam;
  const auto A = on<B, double>(2, 3, a_entries<double>()), E = on<B, double>(2, 3, e_entries<double>());
  typename B::template Matrix<double> C;
  B::template ewise_add<monoid::Plus>(C, nullptr, A, E);
  EXPECT_TRUE((holds<B, double>(C, 2, 3, {{0, 0, 11}, {0, 1, 20}, {0, 2, 2}, {1, 1, 3}, {1, 2, 30}})));
  B::template ewise_add<mult::First>(C, nullptr, A, E);  // the one value where only one has an entry
  EXPECT_TRUE((holds<B, double>(C, 2, 3, {{0, 0, 1}, {0, 1, 20}, {0, 2, 2}, {1, 1, 3}, {1, 2, 30}})));
  B::template ewise_mult<mult::Times>(C, nullptr, A, E);
  EXPECT_TRUE((holds<B, double>(C, 2, 3, {{0, 0, 10}})));
  B::template ewise_mult<monoid::Min>(C, nullptr, A, E);
  EXPECT_TRUE((holds<B, double>(C, 2, 3, {{0, 0, 1}})));
  B::template ewise_mult<mult::Pair>(C, nullptr, A, E);
  EXPECT_TRUE((holds<B, double>(C, 2, 3, {{0, 0, 1}})));
}

TYPED_TEST(EwiseKnown, AddUnderEveryMaskDescriptor) {
  using B = TypeParam;
  using M = typename B::template Matrix<double>;
  const M A = on<B, double>(2, 3, a_entries<double>()), E = on<B, double>(2, 3, e_entries<double>());
  const M mask = on<B, double>(2, 3, mask_entries<double>());
  const auto run = [&](const M* m, Descriptor d) {
    M C = on<B, double>(2, 3, old_c_entries<double>());
    B::template ewise_add<monoid::Plus>(C, m, A, E, d);
    return C;
  };
  EXPECT_TRUE((holds<B, double>(run(&mask, {}), 2, 3, {{0, 0, 11}, {0, 2, 7}, {1, 0, 8}, {1, 2, 30}})));
  EXPECT_TRUE((holds<B, double>(run(&mask, {.replace = true}), 2, 3, {{0, 0, 11}, {1, 2, 30}})));
  EXPECT_TRUE((holds<B, double>(run(&mask, {.mask_structural = true}), 2, 3,
                                {{0, 0, 11}, {0, 1, 20}, {0, 2, 7}, {1, 0, 8}, {1, 2, 30}})));
  // Allowed positions without a result entry lose the old one: (1,0).
  EXPECT_TRUE((holds<B, double>(run(&mask, {.mask_complement = true}), 2, 3,
                                {{0, 1, 20}, {0, 2, 2}, {1, 1, 3}, {1, 2, 9}})));
  EXPECT_TRUE((holds<B, double>(run(&mask, {.mask_complement = true, .replace = true}), 2, 3,
                                {{0, 1, 20}, {0, 2, 2}, {1, 1, 3}})));
  EXPECT_TRUE((holds<B, double>(run(&mask, {.mask_structural = true, .mask_complement = true}), 2, 3,
                                {{0, 2, 2}, {1, 1, 3}, {1, 2, 9}})));
  // A complemented null mask allows nothing.
  EXPECT_TRUE((holds<B, double>(run(nullptr, {.mask_complement = true}), 2, 3, old_c_entries<double>())));
  EXPECT_TRUE((holds<B, double>(run(nullptr, {.mask_complement = true, .replace = true}), 2, 3, {})));
}

TYPED_TEST(EwiseKnown, MultUnderAMaskAndAnOldCOfAnotherShape) {
  using B = TypeParam;
  using M = typename B::template Matrix<std::int32_t>;
  const M A = on<B, std::int32_t>(2, 3, a_entries<std::int32_t>());
  const M E = on<B, std::int32_t>(2, 3, e_entries<std::int32_t>());
  const M mask = on<B, std::int32_t>(2, 3, mask_entries<std::int32_t>());
  M C = on<B, std::int32_t>(2, 3, old_c_entries<std::int32_t>());
  B::template ewise_mult<mult::Times>(C, &mask, A, E);
  EXPECT_TRUE((holds<B, std::int32_t>(C, 2, 3, {{0, 0, 10}, {0, 2, 7}, {1, 0, 8}})));
  // A C of another shape has no old entries to keep.
  M other = on<B, std::int32_t>(3, 3, {{2, 2, 4}, {0, 2, 1}});
  B::template ewise_add<monoid::Plus>(other, &mask, A, E);
  EXPECT_TRUE((holds<B, std::int32_t>(other, 2, 3, {{0, 0, 11}, {1, 2, 30}})));
}

TYPED_TEST(EwiseKnown, BoolOperatorsAreLogical) {
  using B = TypeParam;
  const auto X = on<B, bool>(1, 4, {{0, 0, true}, {0, 1, true}, {0, 2, false}});
  const auto Y = on<B, bool>(1, 4, {{0, 0, true}, {0, 1, false}, {0, 2, false}, {0, 3, true}});
  typename B::template Matrix<bool> C;
  B::template ewise_mult<monoid::Plus>(C, nullptr, X, Y);  // lor
  EXPECT_TRUE((holds<B, bool>(C, 1, 4, {{0, 0, true}, {0, 1, true}, {0, 2, false}})));
  B::template ewise_mult<mult::Times>(C, nullptr, X, Y);  // land
  EXPECT_TRUE((holds<B, bool>(C, 1, 4, {{0, 0, true}, {0, 1, false}, {0, 2, false}})));
  B::template ewise_mult<monoid::Min>(C, nullptr, X, Y);  // land
  EXPECT_TRUE((holds<B, bool>(C, 1, 4, {{0, 0, true}, {0, 1, false}, {0, 2, false}})));
  B::template ewise_add<monoid::Max>(C, nullptr, X, Y);  // lor
  EXPECT_TRUE((holds<B, bool>(C, 1, 4, {{0, 0, true}, {0, 1, true}, {0, 2, false}, {0, 3, true}})));
}

TYPED_TEST(EwiseKnown, ApplyUnaryOperators) {
  using B = TypeParam;
  const auto A = on<B, double>(1, 4, {{0, 0, 2}, {0, 1, -4}, {0, 3, 0.5}});
  typename B::template Matrix<double> C;
  B::apply(C, nullptr, A, unary::Inverse{});
  EXPECT_TRUE((holds<B, double>(C, 1, 4, {{0, 0, 0.5}, {0, 1, -0.25}, {0, 3, 2}})));
  B::apply(C, nullptr, A, unary::Pow{2});
  EXPECT_TRUE((holds<B, double>(C, 1, 4, {{0, 0, 4}, {0, 1, 16}, {0, 3, 0.25}})));
  B::apply(C, nullptr, A, unary::Pow{0});
  EXPECT_TRUE((holds<B, double>(C, 1, 4, {{0, 0, 1}, {0, 1, 1}, {0, 3, 1}})));
  B::apply(C, nullptr, A, unary::Scale{3});
  EXPECT_TRUE((holds<B, double>(C, 1, 4, {{0, 0, 6}, {0, 1, -12}, {0, 3, 1.5}})));
  B::apply(C, nullptr, A, unary::AddScalar{1});
  EXPECT_TRUE((holds<B, double>(C, 1, 4, {{0, 0, 3}, {0, 1, -3}, {0, 3, 1.5}})));
  B::apply(C, nullptr, A, unary::Abs{});
  EXPECT_TRUE((holds<B, double>(C, 1, 4, {{0, 0, 2}, {0, 1, 4}, {0, 3, 0.5}})));
  // Rounded to float precision (MCL's iterate), still a double.
  const auto third = on<B, double>(1, 2, {{0, 0, 1.0 / 3}, {0, 1, 0.5}});
  B::apply(C, nullptr, third, unary::ToFloat{});
  EXPECT_TRUE((holds<B, double>(C, 1, 2, {{0, 0, double(float(1.0 / 3))}, {0, 1, 0.5}})));
  // Over integers 1/x is exact for -1, 1; 0 gives the largest value, the rest 0 (GrB_MINV).
  const auto I = on<B, std::int32_t>(1, 5, {{0, 0, -1}, {0, 1, 0}, {0, 2, 1}, {0, 3, 2}, {0, 4, -7}});
  typename B::template Matrix<std::int32_t> Ci;
  B::apply(Ci, nullptr, I, unary::Inverse{});
  EXPECT_TRUE((holds<B, std::int32_t>(
      Ci, 1, 5, {{0, 0, -1}, {0, 1, std::numeric_limits<std::int32_t>::max()}, {0, 2, 1}, {0, 3, 0}, {0, 4, 0}})));
  // Scale computes in double and truncates: 3 * 2.5 = 7.5 -> 7, -7 * 2.5 = -17.5 -> -17.
  B::apply(Ci, nullptr, I, unary::Scale{2.5});
  EXPECT_TRUE((holds<B, std::int32_t>(Ci, 1, 5, {{0, 0, -2}, {0, 1, 0}, {0, 2, 2}, {0, 3, 5}, {0, 4, -17}})));
}

TYPED_TEST(EwiseKnown, ApplyUnderAMask) {
  using B = TypeParam;
  using M = typename B::template Matrix<std::int32_t>;
  const M A = on<B, std::int32_t>(2, 3, a_entries<std::int32_t>());
  const M mask = on<B, std::int32_t>(2, 3, mask_entries<std::int32_t>());
  M C = on<B, std::int32_t>(2, 3, old_c_entries<std::int32_t>());
  B::apply(C, &mask, A, unary::Negate{});
  EXPECT_TRUE((holds<B, std::int32_t>(C, 2, 3, {{0, 0, -1}, {0, 2, 7}, {1, 0, 8}})));
  C = on<B, std::int32_t>(2, 3, old_c_entries<std::int32_t>());
  B::apply(C, &mask, A, unary::Negate{}, Descriptor{.mask_complement = true, .replace = true});
  EXPECT_TRUE((holds<B, std::int32_t>(C, 2, 3, {{0, 2, -2}, {1, 1, -3}})));
  // transpose_a: apply to A'
  typename B::template Matrix<std::int32_t> T;
  B::apply(T, nullptr, A, unary::Identity{}, Descriptor{.transpose_a = true});
  EXPECT_TRUE((holds<B, std::int32_t>(T, 3, 2, {{0, 0, 1}, {1, 1, 3}, {2, 0, 2}})));
}

TYPED_TEST(EwiseKnown, Vectors) {
  using B = TypeParam;
  using Vd = std::vector<double>;
  const auto x = B::from_host(Vd{1, 2, 3, 4}), y = B::from_host(Vd{10, 20, 30, 40});
  const auto m = B::from_host(Vd{0, 1, 0, 5});
  const auto old = [] { return B::from_host(Vd{7, 7, 7, 7}); };
  const double inf = std::numeric_limits<double>::infinity();
  auto z = old();
  B::template ewise_add<monoid::Plus>(z, nullptr, x, y);
  EXPECT_EQ(B::to_host(z), (Vd{11, 22, 33, 44}));
  z = old();
  B::template ewise_add<monoid::Plus>(z, &m, x, y);
  EXPECT_EQ(B::to_host(z), (Vd{7, 22, 7, 44}));
  z = old();
  B::template ewise_mult<mult::Times>(z, &m, x, y, Descriptor{.mask_complement = true});
  EXPECT_EQ(B::to_host(z), (Vd{10, 7, 90, 7}));
  // Positions left without a value hold the operator's identity (0 for non-monoids).
  z = old();
  B::template ewise_add<monoid::Min>(z, &m, x, y, Descriptor{.replace = true});
  EXPECT_EQ(B::to_host(z), (Vd{inf, 2, inf, 4}));
  z = old();
  B::template ewise_mult<mult::Times>(z, &m, x, y, Descriptor{.replace = true});
  EXPECT_EQ(B::to_host(z), (Vd{0, 40, 0, 160}));
  typename B::template Vector<double> fresh;  // no old values: takes the inputs' length
  B::template ewise_add<monoid::Max>(fresh, &m, x, y);
  EXPECT_EQ(B::to_host(fresh), (Vd{-inf, 20, -inf, 40}));
  z = old();
  B::apply(z, &m, x, unary::Negate{});
  EXPECT_EQ(B::to_host(z), (Vd{7, -2, 7, -4}));
  z = old();
  B::apply(z, &m, x, unary::Negate{}, Descriptor{.mask_complement = true, .replace = true});
  EXPECT_EQ(B::to_host(z), (Vd{-1, 0, -3, 0}));
  z = old();
  B::apply(z, &m, x, unary::Negate{}, Descriptor{.mask_structural = true});  // dense: every position
  EXPECT_EQ(B::to_host(z), (Vd{-1, -2, -3, -4}));
  // In place: x = x + y.
  auto w = B::from_host(Vd{1, 2, 3, 4});
  B::template ewise_add<monoid::Plus>(w, nullptr, w, y);
  EXPECT_EQ(B::to_host(w), (Vd{11, 22, 33, 44}));
}

TYPED_TEST(EwiseKnown, ScaleRowsAndColumns) {
  using B = TypeParam;
  const auto A = on<B, double>(2, 3, a_entries<double>());
  typename B::template Matrix<double> C;
  B::scale_rows(C, B::from_host(std::vector<double>{2, 0}), A);  // a zero scale keeps the entry
  EXPECT_TRUE((holds<B, double>(C, 2, 3, {{0, 0, 2}, {0, 2, 4}, {1, 1, 0}})));
  B::scale_cols(C, A, B::from_host(std::vector<double>{1, 10, 100}));
  EXPECT_TRUE((holds<B, double>(C, 2, 3, {{0, 0, 1}, {0, 2, 200}, {1, 1, 30}})));
  const auto P = B::from_host(Csr<double>{2, 2, {0, 1, 2}, {1, 0}, {}});  // a pattern reads as 1
  B::scale_cols(C, P, B::from_host(std::vector<double>{3, 4}));
  EXPECT_TRUE((holds<B, double>(C, 2, 2, {{0, 1, 4}, {1, 0, 3}})));
}

TYPED_TEST(EwiseKnown, ErrorsNameTheOperationAndShapes) {
  using B = TypeParam;
  using M = typename B::template Matrix<double>;
  const M A = on<B, double>(2, 3, a_entries<double>()), W = on<B, double>(3, 2, {});
  M C;
  std::string e = error_of([&] { B::template ewise_add<monoid::Plus>(C, nullptr, A, W); });
  EXPECT_NE(e.find("ewise_add"), std::string::npos) << e;
  EXPECT_NE(e.find("2 x 3"), std::string::npos) << e;
  EXPECT_NE(e.find("3 x 2"), std::string::npos) << e;
  e = error_of([&] { B::template ewise_mult<mult::Times>(C, &W, A, A); });
  EXPECT_NE(e.find("mask"), std::string::npos) << e;
  e = error_of([&] { B::apply(C, &W, A, unary::One{}); });
  EXPECT_NE(e.find("apply"), std::string::npos) << e;
  e = error_of([&] { B::scale_rows(C, B::from_host(std::vector<double>{1, 2, 3}), A); });
  EXPECT_NE(e.find("scale_rows"), std::string::npos) << e;
  e = error_of([&] { B::scale_cols(C, A, B::from_host(std::vector<double>{1, 2})); });
  EXPECT_NE(e.find("scale_cols"), std::string::npos) << e;
  e = error_of([&] { B::template ewise_add<NoIdOp>(C, nullptr, A, A); });
  EXPECT_NE(e.find("no_id_op"), std::string::npos) << e;
  e = error_of([&] { B::template ewise_mult<mult::SecondI>(C, nullptr, A, A); });
  EXPECT_NE(e.find("secondi"), std::string::npos) << e;
  EXPECT_THROW(B::apply(C, nullptr, A, NoIdUnary{}), Error);
  auto z = B::from_host(std::vector<double>{1, 2});
  e = error_of([&] { B::template ewise_add<monoid::Plus>(z, nullptr, z, B::from_host(std::vector<double>{1})); });
  EXPECT_NE(e.find("length"), std::string::npos) << e;
}

// ---- the GPU against GraphBLAS
template <class V>
struct Case {
  Csr<V> a, b, mask, old_c;
};

template <class V>
std::vector<Case<V>> random_cases(unsigned seed) {
  const auto as = random_inputs<V>(seed), bs = random_inputs<V>(seed + 10);
  const auto ms = random_inputs<V>(seed + 20), cs = random_inputs<V>(seed + 30);
  std::vector<Case<V>> out;
  for (std::size_t i = 0; i < as.size(); ++i) out.push_back({as[i], bs[i], ms[i], cs[i]});
  // A and -A: the sum is all explicit zeros.
  if constexpr (!std::is_same_v<V, bool>) {
    Csr<V> neg = as[0];
    for (auto& v : neg.val) v = V(-v);
    out.push_back({as[0], neg, ms[0], cs[0]});
  }
  return out;
}

// C<M> = f(A, B) on backend Be from the case's old C; the result with explicit values.
template <class Be, class V, class F>
Csr<V> run_on(const Case<V>& c, bool with_mask, F f) {
  const auto A = Be::from_host(c.a), B = Be::from_host(c.b), M = Be::from_host(c.mask);
  auto C = Be::from_host(c.old_c);
  f(Be{}, C, with_mask ? &M : nullptr, A, B);
  return with_values(Be::to_host(C));
}

template <class V, class F>
::testing::AssertionResult backends_agree(const Case<V>& c, bool with_mask, F f) {
  return same_matrix(run_on<gpu::GpuBackend>(c, with_mask, f), run_on<graphblas::GraphBlasBackend>(c, with_mask, f));
}

// No mask, a complemented null mask (with and without replace), and every mask descriptor.
struct Masking {
  bool with_mask;
  Descriptor desc;
};
std::vector<Masking> maskings() {
  std::vector<Masking> out{{false, {}}, {false, {.mask_complement = true}},
                           {false, {.mask_complement = true, .replace = true}}};
  for (const Descriptor& d : mask_descriptors()) out.push_back({true, d});
  return out;
}

template <class Op, class V>
void expect_ewise_agrees(const Case<V>& c, const Masking& mk, const std::string& where) {
  for (const bool is_union : {true, false}) {
    const auto f = [&](auto be, auto& C, const auto* M, const auto& A, const auto& B) {
      using Be = decltype(be);
      if (is_union) Be::template ewise_add<Op>(C, M, A, B, mk.desc);
      else Be::template ewise_mult<Op>(C, M, A, B, mk.desc);
    };
    EXPECT_TRUE(backends_agree(c, mk.with_mask, f))
        << where << ": " << (is_union ? "ewise_add<" : "ewise_mult<") << Op::name << ">, "
        << (mk.with_mask ? describe(mk.desc) : mk.desc.mask_complement ? "complemented null mask" : "no mask")
        << (mk.desc.replace ? ", replace" : "");
  }
}

template <class V>
class EwiseGpu : public ::testing::Test {};
TYPED_TEST_SUITE(EwiseGpu, ValueTypes);

TYPED_TEST(EwiseGpu, EveryOperatorWithoutAMask) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const auto cases = random_cases<V>(11);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string where = "case " + std::to_string(i);
    const Masking none{false, {}};
    expect_ewise_agrees<monoid::Plus>(cases[i], none, where);
    expect_ewise_agrees<monoid::Min>(cases[i], none, where);
    expect_ewise_agrees<monoid::Max>(cases[i], none, where);
    expect_ewise_agrees<monoid::Lor>(cases[i], none, where);
    expect_ewise_agrees<mult::Times>(cases[i], none, where);
    expect_ewise_agrees<mult::First>(cases[i], none, where);
    expect_ewise_agrees<mult::Second>(cases[i], none, where);
    expect_ewise_agrees<mult::Pair>(cases[i], none, where);
    expect_ewise_agrees<mult::Land>(cases[i], none, where);
  }
}

TYPED_TEST(EwiseGpu, EveryMaskDescriptor) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const auto cases = random_cases<V>(23);
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (const Masking& mk : maskings()) {
      expect_ewise_agrees<monoid::Plus>(cases[i], mk, "case " + std::to_string(i));
      expect_ewise_agrees<mult::Times>(cases[i], mk, "case " + std::to_string(i));
    }
}

TYPED_TEST(EwiseGpu, CancellingValuesStayAsExplicitZeros) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  if constexpr (!std::is_same_v<V, bool>) {
    const Case<V> c = random_cases<V>(5).back();  // A and -A
    const auto sum = run_on<gpu::GpuBackend>(c, false, [](auto be, auto& C, const auto* M, const auto& A, const auto& B) {
      decltype(be)::template ewise_add<monoid::Plus>(C, M, A, B);
    });
    EXPECT_EQ(sum.nnz(), c.a.nnz());
    for (const V v : sum.val) EXPECT_EQ(v, V(0));
  }
}

TYPED_TEST(EwiseGpu, TransposedInputs) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const Case<V> c = random_cases<V>(31)[0];  // square
  for (const Descriptor d : {Descriptor{.transpose_a = true}, Descriptor{.transpose_b = true},
                             Descriptor{.mask_structural = true, .transpose_a = true, .transpose_b = true}}) {
    const auto f = [&](auto be, auto& C, const auto* M, const auto& A, const auto& B) {
      decltype(be)::template ewise_add<monoid::Plus>(C, M, A, B, d);
    };
    EXPECT_TRUE(backends_agree(c, true, f)) << describe(d);
    const auto g = [&](auto be, auto& C, const auto* M, const auto& A, const auto&) {
      decltype(be)::apply(C, M, A, unary::Identity{}, d);
    };
    EXPECT_TRUE(backends_agree(c, true, g)) << "apply, " << describe(d);
  }
}

template <class U, class V>
void expect_apply_agrees(const Case<V>& c, U op, const std::string& what) {
  for (const Masking& mk : maskings()) {
    const auto f = [&](auto be, auto& C, const auto* M, const auto& A, const auto&) {
      decltype(be)::apply(C, M, A, op, mk.desc);
    };
    EXPECT_TRUE(backends_agree(c, mk.with_mask, f))
        << what << ", " << (mk.with_mask ? describe(mk.desc) : "no mask or a null one");
  }
}

TYPED_TEST(EwiseGpu, ApplyEveryUnaryOperator) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const auto cases = random_cases<V>(41);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string where = "case " + std::to_string(i);
    expect_apply_agrees(cases[i], unary::Identity{}, where + " identity");
    expect_apply_agrees(cases[i], unary::Abs{}, where + " abs");
    expect_apply_agrees(cases[i], unary::Negate{}, where + " negate");
    expect_apply_agrees(cases[i], unary::One{}, where + " one");
    expect_apply_agrees(cases[i], unary::Inverse{}, where + " inverse");
    expect_apply_agrees(cases[i], unary::Scale{-2.5}, where + " scale");
    expect_apply_agrees(cases[i], unary::AddScalar{1.5}, where + " add_scalar");
    expect_apply_agrees(cases[i], unary::Pow{2}, where + " pow 2");
    expect_apply_agrees(cases[i], unary::Pow{3}, where + " pow 3");
    expect_apply_agrees(cases[i], unary::Pow{0}, where + " pow 0");
    if constexpr (std::is_floating_point_v<V>) {
      expect_apply_agrees(cases[i], unary::Pow{0.5}, where + " pow 0.5");
      expect_apply_agrees(cases[i], unary::ToFloat{}, where + " to_float");
    }
  }
}

template <class V>
std::vector<V> random_vector(std::size_t n, unsigned seed, int lo = -3, int hi = 3) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> value(lo, hi);
  std::vector<V> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = std::is_same_v<V, bool> ? V(value(rng) > 0) : V(value(rng));
  return out;
}

TYPED_TEST(EwiseGpu, ScaleRowsAndColumns) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  for (const Case<V>& c : random_cases<V>(53)) {
    const auto rows = random_vector<V>(std::size_t(c.a.nrows), 7), cols = random_vector<V>(std::size_t(c.a.ncols), 8);
    const auto f = [&](auto be, auto& C, const auto*, const auto& A, const auto&) {
      using Be = decltype(be);
      Be::scale_rows(C, Be::from_host(rows), A);
    };
    EXPECT_TRUE(backends_agree(c, false, f)) << "scale_rows " << c.a.nrows << " x " << c.a.ncols;
    const auto g = [&](auto be, auto& C, const auto*, const auto& A, const auto&) {
      using Be = decltype(be);
      Be::scale_cols(C, A, Be::from_host(cols));
    };
    EXPECT_TRUE(backends_agree(c, false, g)) << "scale_cols " << c.a.nrows << " x " << c.a.ncols;
  }
}

template <class V>
::testing::AssertionResult same_vector(const std::vector<V>& got, const std::vector<V>& want) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << "length " << got.size() << ", want " << want.size();
  for (std::size_t i = 0; i < got.size(); ++i)
    if (auto r = values_match<V>(got[i], want[i]); !r) return r << " at " << i;
  return ::testing::AssertionSuccess();
}

// z<m> = f(x, y) on backend Be from old (empty: a fresh z).
template <class Be, class V, class F>
std::vector<V> run_vectors_on(const std::vector<V>& x, const std::vector<V>& y, const std::vector<V>& m,
                              const std::vector<V>& old, bool with_mask, F f) {
  const auto X = Be::from_host(x), Y = Be::from_host(y), M = Be::from_host(m);
  auto Z = Be::from_host(old);
  f(Be{}, Z, with_mask ? &M : nullptr, X, Y);
  return Be::to_host(Z);
}

TYPED_TEST(EwiseGpu, Vectors) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const std::size_t n = 1000;
  const auto x = random_vector<V>(n, 1), y = random_vector<V>(n, 2), m = random_vector<V>(n, 3, -1, 1);
  for (const std::vector<V>& old : {random_vector<V>(n, 4), std::vector<V>{}})
    for (const Masking& mk : maskings()) {
      const std::string what = std::string(old.empty() ? "fresh z, " : "old z, ") +
                               (mk.with_mask ? describe(mk.desc) : "no mask or a null one");
      const auto check = [&](auto f, const char* op) {
        EXPECT_TRUE(same_vector(run_vectors_on<gpu::GpuBackend>(x, y, m, old, mk.with_mask, f),
                                run_vectors_on<graphblas::GraphBlasBackend>(x, y, m, old, mk.with_mask, f)))
            << op << ", " << what;
      };
      check([&](auto be, auto& Z, const auto* M, const auto& X, const auto& Y) {
        decltype(be)::template ewise_add<monoid::Plus>(Z, M, X, Y, mk.desc);
      }, "ewise_add<plus>");
      check([&](auto be, auto& Z, const auto* M, const auto& X, const auto& Y) {
        decltype(be)::template ewise_add<monoid::Min>(Z, M, X, Y, mk.desc);
      }, "ewise_add<min>");
      check([&](auto be, auto& Z, const auto* M, const auto& X, const auto& Y) {
        decltype(be)::template ewise_mult<mult::Times>(Z, M, X, Y, mk.desc);
      }, "ewise_mult<times>");
      check([&](auto be, auto& Z, const auto* M, const auto& X, const auto&) {
        decltype(be)::apply(Z, M, X, unary::Scale{3}, mk.desc);
      }, "apply<scale>");
    }
}

// Real graphs: A + A' and A .* A' under A's pattern, A^2 element-wise under A', and MCL's
// column normalisation A diag(1 / column sums).
template <class V>
void expect_real_graph_agrees(const std::string& file) {
  const Csr<V> a = convert_values<V>(io::load_graph(dataset(file)).matrix);
  const Case<V> c{a, a, transpose(a), a};
  for (const Masking& mk : {Masking{false, {}}, Masking{true, {.mask_structural = true}},
                            Masking{true, {.mask_structural = true, .mask_complement = true}},
                            Masking{true, {.mask_complement = true, .replace = true}}}) {
    Descriptor d = mk.desc;
    d.transpose_b = true;
    const auto add = [&](auto be, auto& C, const auto* M, const auto& A, const auto& B) {
      decltype(be)::template ewise_add<monoid::Plus>(C, M, A, B, d);
    };
    EXPECT_TRUE(backends_agree(c, mk.with_mask, add)) << file << " A + A', " << describe(mk.desc);
    const auto mult = [&](auto be, auto& C, const auto* M, const auto& A, const auto& B) {
      decltype(be)::template ewise_mult<mult::Times>(C, M, A, B, d);
    };
    EXPECT_TRUE(backends_agree(c, mk.with_mask, mult)) << file << " A .* A', " << describe(mk.desc);
    const auto pow = [&](auto be, auto& C, const auto* M, const auto& A, const auto&) {
      decltype(be)::apply(C, M, A, unary::Pow{2}, mk.desc);
    };
    EXPECT_TRUE(backends_agree(c, mk.with_mask, pow)) << file << " A.^2, " << describe(mk.desc);
  }
  if constexpr (std::is_floating_point_v<V>) {
    std::vector<V> inverse_sums(std::size_t(a.ncols), V(0));
    for (eid_t p = 0; p < a.nnz(); ++p) inverse_sums[a.col[p]] += a.is_pattern() ? V(1) : a.val[p];
    for (V& s : inverse_sums) s = s == V(0) ? V(0) : V(1) / s;
    const auto normalise = [&](auto be, auto& C, const auto*, const auto& A, const auto&) {
      using Be = decltype(be);
      Be::scale_cols(C, A, Be::from_host(inverse_sums));
    };
    EXPECT_TRUE(backends_agree(c, false, normalise)) << file << " column normalisation";
  }
}

TYPED_TEST(EwiseGpu, RealGraphs) {
  SPGRAPH_REQUIRE_GPU();
  expect_real_graph_agrees<TypeParam>("small/west0067.mtx");
  expect_real_graph_agrees<TypeParam>("small/karate.mtx");  // no values: entries read as 1
}

}  // namespace
}  // namespace spgraph::test
