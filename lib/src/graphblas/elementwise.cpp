// Element-wise add and multiply, and apply.
#include <string>

#include "internal.hpp"

namespace spgraph::graphblas::detail {

using internal::require;

template <class V>
void ewise_add(Matrix<V>& C, const Matrix<V>& A, const Matrix<V>& B, OpId op) {
  require(A.handle(), "ewise_add", "A");
  require(B.handle(), "ewise_add", "B");
  GrB_BinaryOp f = internal::binary_op<V>(op, "ewise_add");
  internal::OutputMatrix<V> out(C, internal::nrows(A.handle()), internal::ncols(A.handle()));
  check(GrB_Matrix_eWiseAdd_BinaryOp(out.get(), nullptr, nullptr, f, A.handle(), B.handle(), nullptr),
        "GrB_Matrix_eWiseAdd_BinaryOp", out.get());
  out.commit();
}

template <class V>
void ewise_mult(Matrix<V>& C, const Matrix<V>& A, const Matrix<V>& B, OpId op) {
  require(A.handle(), "ewise_mult", "A");
  require(B.handle(), "ewise_mult", "B");
  GrB_BinaryOp f = internal::binary_op<V>(op, "ewise_mult");
  internal::OutputMatrix<V> out(C, internal::nrows(A.handle()), internal::ncols(A.handle()));
  check(GrB_Matrix_eWiseMult_BinaryOp(out.get(), nullptr, nullptr, f, A.handle(), B.handle(), nullptr),
        "GrB_Matrix_eWiseMult_BinaryOp", out.get());
  out.commit();
}

// Dense inputs: union and intersection are both every position, so the result is dense too.
template <class V>
void ewise_add(Vector<V>& z, const Vector<V>& x, const Vector<V>& y, OpId op) {
  require(x.handle(), "ewise_add", "x");
  require(y.handle(), "ewise_add", "y");
  GrB_BinaryOp f = internal::binary_op<V>(op, "ewise_add");
  internal::OutputVector<V> out(z, internal::size(x.handle()));
  check(GrB_Vector_eWiseAdd_BinaryOp(out.get(), nullptr, nullptr, f, x.handle(), y.handle(), nullptr),
        "GrB_Vector_eWiseAdd_BinaryOp", out.get());
  out.commit();
}

template <class V>
void ewise_mult(Vector<V>& z, const Vector<V>& x, const Vector<V>& y, OpId op) {
  require(x.handle(), "ewise_mult", "x");
  require(y.handle(), "ewise_mult", "y");
  GrB_BinaryOp f = internal::binary_op<V>(op, "ewise_mult");
  internal::OutputVector<V> out(z, internal::size(x.handle()));
  check(GrB_Vector_eWiseMult_BinaryOp(out.get(), nullptr, nullptr, f, x.handle(), y.handle(), nullptr),
        "GrB_Vector_eWiseMult_BinaryOp", out.get());
  out.commit();
}

namespace {

// unary_ops.hpp computes Scale, AddScalar and Pow as T(double(x) op s). The FP64 operator
// with the scalar bound as double does the same: GraphBLAS converts x to double, applies
// the operator, and converts the result to V (truncating, as a C++ conversion does).
GrB_BinaryOp bound_fp64_op(Unary kind) {
  switch (kind) {
    case Unary::Scale: return GrB_TIMES_FP64;
    case Unary::AddScalar: return GrB_PLUS_FP64;
    case Unary::Pow: return GxB_POW_FP64;
    default: return nullptr;
  }
}

}  // namespace

template <class V>
void apply(Matrix<V>& C, const Matrix<V>& A, UnaryId op) {
  require(A.handle(), "apply", "A");
  internal::OutputMatrix<V> out(C, internal::nrows(A.handle()), internal::ncols(A.handle()));
  if (GrB_BinaryOp f = bound_fp64_op(op.kind))
    check(GrB_Matrix_apply_BinaryOp2nd_FP64(out.get(), nullptr, nullptr, f, A.handle(), op.scalar, nullptr),
          "GrB_Matrix_apply_BinaryOp2nd_FP64", out.get());
  else
    check(GrB_Matrix_apply(out.get(), nullptr, nullptr, internal::unary_op<V>(op.kind, "apply"), A.handle(), nullptr),
          "GrB_Matrix_apply", out.get());
  out.commit();
}

template <class V>
void apply(Vector<V>& z, const Vector<V>& x, UnaryId op) {
  require(x.handle(), "apply", "x");
  internal::OutputVector<V> out(z, internal::size(x.handle()));
  if (GrB_BinaryOp f = bound_fp64_op(op.kind))
    check(GrB_Vector_apply_BinaryOp2nd_FP64(out.get(), nullptr, nullptr, f, x.handle(), op.scalar, nullptr),
          "GrB_Vector_apply_BinaryOp2nd_FP64", out.get());
  else
    check(GrB_Vector_apply(out.get(), nullptr, nullptr, internal::unary_op<V>(op.kind, "apply"), x.handle(), nullptr),
          "GrB_Vector_apply", out.get());
  out.commit();
}

#define SPGRAPH_INSTANTIATE(V)                                                             \
  template void ewise_add<V>(Matrix<V>&, const Matrix<V>&, const Matrix<V>&, OpId);        \
  template void ewise_mult<V>(Matrix<V>&, const Matrix<V>&, const Matrix<V>&, OpId);       \
  template void ewise_add<V>(Vector<V>&, const Vector<V>&, const Vector<V>&, OpId);        \
  template void ewise_mult<V>(Vector<V>&, const Vector<V>&, const Vector<V>&, OpId);       \
  template void apply<V>(Matrix<V>&, const Matrix<V>&, UnaryId);                           \
  template void apply<V>(Vector<V>&, const Vector<V>&, UnaryId);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::graphblas::detail
