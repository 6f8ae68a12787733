// select: value thresholds and positions on GraphBLAS's index-unary operators; top-k per row
// (no GraphBLAS built-in) on the matrix's own CSR arrays, per column on the transpose.
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
    case Kind::Less: return GrB_VALUELT_##T;    \
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

// C<M> = select(op, A, y) with the descriptor d.
GrB_Info select_values(GrB_Matrix C, GrB_Matrix M, GrB_IndexUnaryOp op, GrB_Matrix A, float y, GrB_Descriptor d) { return GrB_Matrix_select_FP32(C, M, nullptr, op, A, y, d); }
GrB_Info select_values(GrB_Matrix C, GrB_Matrix M, GrB_IndexUnaryOp op, GrB_Matrix A, double y, GrB_Descriptor d) { return GrB_Matrix_select_FP64(C, M, nullptr, op, A, y, d); }
GrB_Info select_values(GrB_Matrix C, GrB_Matrix M, GrB_IndexUnaryOp op, GrB_Matrix A, std::int32_t y, GrB_Descriptor d) { return GrB_Matrix_select_INT32(C, M, nullptr, op, A, y, d); }
GrB_Info select_values(GrB_Matrix C, GrB_Matrix M, GrB_IndexUnaryOp op, GrB_Matrix A, std::int64_t y, GrB_Descriptor d) { return GrB_Matrix_select_INT64(C, M, nullptr, op, A, y, d); }
GrB_Info select_values(GrB_Matrix C, GrB_Matrix M, GrB_IndexUnaryOp op, GrB_Matrix A, bool y, GrB_Descriptor d) { return GrB_Matrix_select_BOOL(C, M, nullptr, op, A, y, d); }

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
void select_by_value(GrB_Matrix C, GrB_Matrix M, GrB_Matrix A, const SelectSpec& spec, GrB_Descriptor d) {
  const double t = spec.kind == Kind::NotEqualZero ? 0.0 : spec.threshold;
  if (auto native = exactly<V>(t))
    check(select_values(C, M, value_op<V>(spec.kind), A, *native, d), "GrB_Matrix_select", C);
  else
    check(select_values(C, M, value_op<double>(spec.kind), A, t, d), "GrB_Matrix_select_FP64", C);
}

// GraphBLAS's TRIL, TRIU, DIAG and OFFDIAG compare j - i with the offset exactly as SelectSpec does.
GrB_IndexUnaryOp position_op(Kind kind) {
  switch (kind) {
    case Kind::Lower: return GrB_TRIL;
    case Kind::Upper: return GrB_TRIU;
    case Kind::Diagonal: return GrB_DIAG;
    default: return GrB_OFFDIAG;
  }
}

bool is_position(Kind kind) {
  return kind == Kind::Lower || kind == Kind::Upper || kind == Kind::Diagonal || kind == Kind::OffDiagonal;
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

// Keeps the k entries of each row of `work` that rank first, in place.
template <class V>
void top_k_per_row(Matrix<V>& work, GrB_Index keep) {
  internal::PackedCsr<V> m;
  m.unpack(work.handle());
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
}

// The unmasked top-k result of A (or A' with transpose_a). Per column is per row of the
// transpose: ties there go to the smaller column of A', the smaller row of A.
template <class V>
Matrix<V> top_k(const Matrix<V>& A, const SelectSpec& spec, bool transpose_a) {
  const char* name = spec.kind == Kind::TopKPerRow ? "TopKPerRow" : "TopKPerCol";
  if (spec.k < 0) throw Error(std::string("graphblas: select: ") + name + " needs k >= 0, got " + std::to_string(spec.k));
  // Rows of `work` are the rows (per row) or columns (per column) of the input after transpose_a.
  const bool transposed = transpose_a != (spec.kind == Kind::TopKPerCol);
  Matrix<V> work;
  if (transposed) transpose(work, A);
  else work = A.clone();
  top_k_per_row(work, static_cast<GrB_Index>(spec.k));
  if (spec.kind == Kind::TopKPerRow) return work;
  Matrix<V> back;
  transpose(back, work);
  return back;
}

}  // namespace

template <class V>
void select(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const SelectSpec& spec,
            const Descriptor& d) {
  internal::require(A.handle(), "select", "A");
  if (mask) internal::require(mask->handle(), "select", "the mask");
  if (d.transpose_b) throw Error("graphblas: select: transpose_b is set but select has one input; use transpose_a");
  GrB_Matrix m = mask ? mask->handle() : nullptr;
  if (spec.kind == Kind::TopKPerRow || spec.kind == Kind::TopKPerCol) {
    Matrix<V> T = top_k(A, spec, d.transpose_a);
    if (!mask && !d.mask_complement) {
      C = std::move(T);
      return;
    }
    // C<M> = T through the identity operator, with GraphBLAS's mask and replace.
    internal::OutputMatrix<V> out(C, internal::nrows(T.handle()), internal::ncols(T.handle()));
    internal::GrbDescriptor desc(d, false, false);
    check(GrB_Matrix_apply(out.get(), m, nullptr, internal::unary_op<V>(detail::Unary::Identity, "select"),
                           T.handle(), desc.get()),
          "GrB_Matrix_apply (select's mask)", out.get());
    out.commit();
    return;
  }
  const GrB_Index nrows = internal::nrows(A.handle()), ncols = internal::ncols(A.handle());
  internal::OutputMatrix<V> out(C, d.transpose_a ? ncols : nrows, d.transpose_a ? nrows : ncols);
  internal::GrbDescriptor desc(d, d.transpose_a, false);
  if (is_position(spec.kind))
    check(GrB_Matrix_select_INT64(out.get(), m, nullptr, position_op(spec.kind), A.handle(), spec.offset, desc.get()),
          "GrB_Matrix_select_INT64 (by position)", out.get());
  else
    select_by_value<V>(out.get(), m, A.handle(), spec, desc.get());
  out.commit();
}

#define SPGRAPH_INSTANTIATE(V)                                                                               \
  template void select<V>(Matrix<V>&, const Matrix<V>*, const Matrix<V>&, const SelectSpec&, const Descriptor&);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::graphblas
