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

// spgraph's identity of the monoid over T (absent entries of a dense vector). Over bool,
// monoid::Min is land (identity true) and Plus and Max are lor, as semiring.hpp computes them.
template <class T>
T identity(OpId op) {
  switch (op.op) {
    case Op::Min: return monoid::Min::identity<T>();
    case Op::Max: return monoid::Max::identity<T>();
    default: return T(0);  // plus, lor, any; other operators have no monoid (internal::monoid throws)
  }
}

}  // namespace

// An input whose type differs from T (int32 or bool counted in int64) is typecast to T by
// GraphBLAS, as the monoid's domain is T.
template <class T, class V>
void reduce_vector(Vector<T>& y, const Matrix<V>& A, bool rows, OpId op) {
  const char* name = rows ? "reduce_rows" : "reduce_cols";
  internal::require(A.handle(), name, "A");
  GrB_Monoid m = internal::monoid<T>(op, name);
  internal::OutputVector<T> out(y, rows ? internal::nrows(A.handle()) : internal::ncols(A.handle()));
  check(GrB_Matrix_reduce_Monoid(out.get(), nullptr, nullptr, m, A.handle(), rows ? nullptr : GrB_DESC_T0),
        "GrB_Matrix_reduce_Monoid", out.get());
  internal::fill_absent(out.get(), identity<T>(op));  // empty rows (columns)
  out.commit();
}

// With no entries the result is spgraph's identity, which for any is 0 by definition.
template <class T, class V>
T reduce_scalar(const Matrix<V>& A, OpId op) {
  internal::require(A.handle(), "reduce_scalar", "A");
  GrB_Monoid m = internal::monoid<T>(op, "reduce_scalar");
  T c = identity<T>(op);
  if (A.nnz() == 0) return c;
  check(reduce(&c, m, A.handle()), "GrB_Matrix_reduce (to scalar)");
  return c;
}

template <class T, class V>
T reduce_scalar(const Vector<V>& x, OpId op) {
  internal::require(x.handle(), "reduce_scalar", "x");
  GrB_Monoid m = internal::monoid<T>(op, "reduce_scalar");
  T c = identity<T>(op);
  if (internal::nvals(x.handle()) == 0) return c;
  check(reduce(&c, m, x.handle()), "GrB_Vector_reduce (to scalar)");
  return c;
}

#define SPGRAPH_INSTANTIATE_AS(T, V)                                          \
  template void reduce_vector<T, V>(Vector<T>&, const Matrix<V>&, bool, OpId); \
  template T reduce_scalar<T, V>(const Matrix<V>&, OpId);                       \
  template T reduce_scalar<T, V>(const Vector<V>&, OpId);
#define SPGRAPH_INSTANTIATE(V) SPGRAPH_INSTANTIATE_AS(V, V)
#define SPGRAPH_INSTANTIATE_COUNT(V) SPGRAPH_INSTANTIATE_AS(std::int64_t, V)
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
SPGRAPH_FOR_EACH_COUNT_TYPE(SPGRAPH_INSTANTIATE_COUNT)
#undef SPGRAPH_INSTANTIATE_COUNT
#undef SPGRAPH_INSTANTIATE
#undef SPGRAPH_INSTANTIATE_AS

}  // namespace spgraph::graphblas::detail
