// select: value thresholds on GraphBLAS's index-unary operators, and top-k per row (no
// GraphBLAS built-in) on the matrix's own CSR arrays.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "internal.hpp"

namespace spgraph::graphblas {
namespace {

using Kind = SelectSpec::Kind;

#define SPGRAPH_VALUE_OP(T)                     \
  switch (kind) {                               \
    case Kind::GreaterEqual: return GrB_VALUEGE_##T; \
    case Kind::Greater: return GrB_VALUEGT_##T; \
    case Kind::LessEqual: return GrB_VALUELE_##T; \
    case Kind::NotEqualZero: return GrB_VALUENE_##T; \
    default: return nullptr;                    \
  }
template <class V> GrB_IndexUnaryOp value_op(Kind kind);
template <> GrB_IndexUnaryOp value_op<float>(Kind kind) { SPGRAPH_VALUE_OP(FP32) }
template <> GrB_IndexUnaryOp value_op<double>(Kind kind) { SPGRAPH_VALUE_OP(FP64) }
template <> GrB_IndexUnaryOp value_op<std::int32_t>(Kind kind) { SPGRAPH_VALUE_OP(INT32) }
template <> GrB_IndexUnaryOp value_op<std::int64_t>(Kind kind) { SPGRAPH_VALUE_OP(INT64) }
template <> GrB_IndexUnaryOp value_op<bool>(Kind kind) { SPGRAPH_VALUE_OP(BOOL) }
#undef SPGRAPH_VALUE_OP

GrB_Info select_values(GrB_Matrix C, GrB_IndexUnaryOp op, GrB_Matrix A, float y) { return GrB_Matrix_select_FP32(C, nullptr, nullptr, op, A, y, nullptr); }
GrB_Info select_values(GrB_Matrix C, GrB_IndexUnaryOp op, GrB_Matrix A, double y) { return GrB_Matrix_select_FP64(C, nullptr, nullptr, op, A, y, nullptr); }
GrB_Info select_values(GrB_Matrix C, GrB_IndexUnaryOp op, GrB_Matrix A, std::int32_t y) { return GrB_Matrix_select_INT32(C, nullptr, nullptr, op, A, y, nullptr); }
GrB_Info select_values(GrB_Matrix C, GrB_IndexUnaryOp op, GrB_Matrix A, std::int64_t y) { return GrB_Matrix_select_INT64(C, nullptr, nullptr, op, A, y, nullptr); }
GrB_Info select_values(GrB_Matrix C, GrB_IndexUnaryOp op, GrB_Matrix A, bool y) { return GrB_Matrix_select_BOOL(C, nullptr, nullptr, op, A, y, nullptr); }

// t as a V when comparing in V gives the same answer as comparing double(x) with t, i.e. t
// is exactly representable in V. Then the operator for V's own type applies; otherwise the
// FP64 one, through GraphBLAS's (slower) typecasting path.
template <class V>
std::optional<V> exactly(double t) {
  if constexpr (std::is_same_v<V, bool>) {
    if (t == 0 || t == 1) return t == 1;
    return std::nullopt;
  } else if constexpr (std::is_floating_point_v<V>) {
    if (static_cast<double>(static_cast<V>(t)) == t) return static_cast<V>(t);
    return std::nullopt;
  } else {
    const double lo = static_cast<double>(std::numeric_limits<V>::lowest());  // -2^31 or -2^63, exact
    if (t >= lo && t < -lo && std::trunc(t) == t) return static_cast<V>(t);
    return std::nullopt;
  }
}

template <class V>
void select_by_value(GrB_Matrix C, GrB_Matrix A, const SelectSpec& spec) {
  const double t = spec.kind == Kind::NotEqualZero ? 0.0 : spec.threshold;
  if (auto native = exactly<V>(t))
    check(select_values(C, value_op<V>(spec.kind), A, *native), "GrB_Matrix_select", C);
  else
    check(select_values(C, value_op<double>(spec.kind), A, t), "GrB_Matrix_select_FP64", C);
}

// Larger value first, then smaller column; NaN after every number.
template <class V>
bool ranks_before(const internal::PackedCsr<V>& m, GrB_Index p, GrB_Index q) {
  const V a = m.value(p), b = m.value(q);
  if constexpr (std::is_floating_point_v<V>) {
    const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
    if (a_nan != b_nan) return b_nan;
    if (!a_nan && a != b) return a > b;
  } else {
    if (a != b) return a > b;
  }
  return m.aj[p] < m.aj[q];
}

template <class V>
void top_k_per_row(Matrix<V>& C, const Matrix<V>& A, std::int64_t k) {
  if (k < 0) throw Error("graphblas: select: TopKPerRow needs k >= 0, got " + std::to_string(k));
  Matrix<V> work = A.clone();
  internal::PackedCsr<V> m;
  m.unpack(work.handle());
  const auto keep = static_cast<GrB_Index>(k);
  std::vector<GrB_Index> order;
  // Compacts in place: kept entries move to lower positions only, in increasing order, so no
  // entry is overwritten before it has been read.
  GrB_Index out = 0;
  for (GrB_Index i = 0; i < m.nrows; ++i) {
    const GrB_Index begin = m.ap[i], end = m.ap[i + 1];
    m.ap[i] = out;
    order.resize(end - begin);
    std::iota(order.begin(), order.end(), begin);
    if (order.size() > keep) {
      auto before = [&m](GrB_Index p, GrB_Index q) { return ranks_before(m, p, q); };
      std::nth_element(order.begin(), order.begin() + keep, order.end(), before);
      order.resize(keep);
      std::sort(order.begin(), order.end());  // positions ascending = columns ascending
    }
    for (GrB_Index p : order) {
      m.aj[out] = m.aj[p];
      if (!m.iso) m.ax[out] = m.ax[p];
      ++out;
    }
  }
  m.ap[m.nrows] = out;
  m.pack(work.handle());
  C = std::move(work);
}

}  // namespace

template <class V>
void select(Matrix<V>& C, const Matrix<V>& A, const SelectSpec& spec) {
  internal::require(A.handle(), "select", "A");
  if (spec.kind == Kind::TopKPerRow) {
    top_k_per_row(C, A, spec.k);
    return;
  }
  internal::OutputMatrix<V> out(C, internal::nrows(A.handle()), internal::ncols(A.handle()));
  select_by_value<V>(out.get(), A.handle(), spec);
  out.commit();
}

template void select<float>(Matrix<float>&, const Matrix<float>&, const SelectSpec&);
template void select<double>(Matrix<double>&, const Matrix<double>&, const SelectSpec&);
template void select<std::int32_t>(Matrix<std::int32_t>&, const Matrix<std::int32_t>&, const SelectSpec&);
template void select<std::int64_t>(Matrix<std::int64_t>&, const Matrix<std::int64_t>&, const SelectSpec&);
template void select<bool>(Matrix<bool>&, const Matrix<bool>&, const SelectSpec&);

}  // namespace spgraph::graphblas
