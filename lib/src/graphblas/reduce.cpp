// Reductions to a dense vector (per row or column) and to a scalar.
#include "internal.hpp"

namespace spgraph::graphblas::detail {
namespace {

GrB_Info reduce(float* c, GrB_Monoid m, GrB_Matrix A) { return GrB_Matrix_reduce_FP32(c, nullptr, m, A, nullptr); }
GrB_Info reduce(double* c, GrB_Monoid m, GrB_Matrix A) { return GrB_Matrix_reduce_FP64(c, nullptr, m, A, nullptr); }
GrB_Info reduce(std::int32_t* c, GrB_Monoid m, GrB_Matrix A) { return GrB_Matrix_reduce_INT32(c, nullptr, m, A, nullptr); }
GrB_Info reduce(std::int64_t* c, GrB_Monoid m, GrB_Matrix A) { return GrB_Matrix_reduce_INT64(c, nullptr, m, A, nullptr); }
GrB_Info reduce(bool* c, GrB_Monoid m, GrB_Matrix A) { return GrB_Matrix_reduce_BOOL(c, nullptr, m, A, nullptr); }
GrB_Info reduce(float* c, GrB_Monoid m, GrB_Vector u) { return GrB_Vector_reduce_FP32(c, nullptr, m, u, nullptr); }
GrB_Info reduce(double* c, GrB_Monoid m, GrB_Vector u) { return GrB_Vector_reduce_FP64(c, nullptr, m, u, nullptr); }
GrB_Info reduce(std::int32_t* c, GrB_Monoid m, GrB_Vector u) { return GrB_Vector_reduce_INT32(c, nullptr, m, u, nullptr); }
GrB_Info reduce(std::int64_t* c, GrB_Monoid m, GrB_Vector u) { return GrB_Vector_reduce_INT64(c, nullptr, m, u, nullptr); }
GrB_Info reduce(bool* c, GrB_Monoid m, GrB_Vector u) { return GrB_Vector_reduce_BOOL(c, nullptr, m, u, nullptr); }

}  // namespace

template <class V>
void reduce_vector(Vector<V>& y, const Matrix<V>& A, bool rows, OpId op, V identity) {
  const char* name = rows ? "reduce_rows" : "reduce_cols";
  internal::require(A.handle(), name, "A");
  GrB_Monoid m = internal::monoid<V>(op, name);
  internal::OutputVector<V> out(y, rows ? internal::nrows(A.handle()) : internal::ncols(A.handle()));
  check(GrB_Matrix_reduce_Monoid(out.get(), nullptr, nullptr, m, A.handle(), rows ? nullptr : GrB_DESC_T0),
        "GrB_Matrix_reduce_Monoid", out.get());
  internal::fill_absent(out.get(), identity);  // empty rows (columns)
  out.commit();
}

// With no entries the result is spgraph's identity, which for any is 0 by definition.
template <class V>
V reduce_scalar(const Matrix<V>& A, OpId op, V identity) {
  internal::require(A.handle(), "reduce_scalar", "A");
  GrB_Monoid m = internal::monoid<V>(op, "reduce_scalar");
  if (A.nnz() == 0) return identity;
  V c = identity;
  check(reduce(&c, m, A.handle()), "GrB_Matrix_reduce (to scalar)");
  return c;
}

template <class V>
V reduce_scalar(const Vector<V>& x, OpId op, V identity) {
  internal::require(x.handle(), "reduce_scalar", "x");
  GrB_Monoid m = internal::monoid<V>(op, "reduce_scalar");
  if (internal::nvals(x.handle()) == 0) return identity;
  V c = identity;
  check(reduce(&c, m, x.handle()), "GrB_Vector_reduce (to scalar)");
  return c;
}

#define SPGRAPH_INSTANTIATE(V)                                                    \
  template void reduce_vector<V>(Vector<V>&, const Matrix<V>&, bool, OpId, V);   \
  template V reduce_scalar<V>(const Matrix<V>&, OpId, V);                         \
  template V reduce_scalar<V>(const Vector<V>&, OpId, V);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::graphblas::detail
