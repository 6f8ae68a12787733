// Element-wise add and multiply, apply, and scaling rows or columns by a vector. Masks and
// replace are GraphBLAS's own (GrB_eWiseAdd etc. take the mask and descriptor); dense vectors
// get absent_value (operator_ids.hpp) where the mask leaves a position without a value.
#include <string>

#include "internal.hpp"

namespace spgraph::graphblas::detail {

using internal::require;

namespace {

std::string shape(GrB_Index rows, GrB_Index cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

// Rows and columns of A as the operation reads it.
struct Shape {
  GrB_Index rows, cols;
};
Shape shape_of(GrB_Matrix A, bool transposed) {
  const GrB_Index r = internal::nrows(A), c = internal::ncols(A);
  return transposed ? Shape{c, r} : Shape{r, c};
}

template <class V>
void require_mask_shape(const char* what, const Matrix<V>* mask, Shape s) {
  if (!mask) return;
  require(mask->handle(), what, "the mask");
  const GrB_Index r = internal::nrows(mask->handle()), c = internal::ncols(mask->handle());
  if (r != s.rows || c != s.cols)
    throw Error(std::string("graphblas: ") + what + ": the mask is " + shape(r, c) + " but the result is " +
                shape(s.rows, s.cols));
}

template <class V>
void require_mask_length(const char* what, const Vector<V>* mask, GrB_Index n) {
  if (!mask) return;
  require(mask->handle(), what, "the mask");
  if (internal::size(mask->handle()) != n)
    throw Error(std::string("graphblas: ") + what + ": the mask has length " +
                std::to_string(internal::size(mask->handle())) + " but the result has length " + std::to_string(n));
}

// A dense result z of length n: a z of another length has no old values to keep, so it starts
// as all absent. Called after the inputs are checked (z may be one of them).
template <class V>
void prepare_dense_output(Vector<V>& z, GrB_Index n, V absent) {
  if (!z || internal::size(z.handle()) != n) z = Vector<V>(static_cast<std::size_t>(n), absent);
}

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
void ewise(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, const Matrix<V>& B, OpId op, bool is_union,
           const Descriptor& d) {
  const char* what = is_union ? "ewise_add" : "ewise_mult";
  require(A.handle(), what, "A");
  require(B.handle(), what, "B");
  const Shape a = shape_of(A.handle(), d.transpose_a), b = shape_of(B.handle(), d.transpose_b);
  if (a.rows != b.rows || a.cols != b.cols)
    throw Error(std::string("graphblas: ") + what + ": A is " + shape(a.rows, a.cols) + " but B is " +
                shape(b.rows, b.cols) + (d.transpose_a || d.transpose_b ? " (after transposing)" : "") +
                "; both must have the same shape");
  require_mask_shape(what, mask, a);
  GrB_BinaryOp f = internal::binary_op<V>(op, what);
  internal::OutputMatrix<V> out(C, a.rows, a.cols);
  internal::GrbDescriptor desc(d, d.transpose_a, d.transpose_b);
  GrB_Matrix m = mask ? mask->handle() : nullptr;
  if (is_union)
    check(GrB_Matrix_eWiseAdd_BinaryOp(out.get(), m, nullptr, f, A.handle(), B.handle(), desc.get()),
          "GrB_Matrix_eWiseAdd_BinaryOp", out.get());
  else
    check(GrB_Matrix_eWiseMult_BinaryOp(out.get(), m, nullptr, f, A.handle(), B.handle(), desc.get()),
          "GrB_Matrix_eWiseMult_BinaryOp", out.get());
  out.commit();
}

// Dense inputs: union and intersection are both every position.
template <class V>
void ewise(Vector<V>& z, const Vector<V>* mask, const Vector<V>& x, const Vector<V>& y, OpId op, bool is_union,
           const Descriptor& d) {
  const char* what = is_union ? "ewise_add" : "ewise_mult";
  require(x.handle(), what, "x");
  require(y.handle(), what, "y");
  const GrB_Index n = internal::size(x.handle());
  if (internal::size(y.handle()) != n)
    throw Error(std::string("graphblas: ") + what + ": x has length " + std::to_string(n) + " but y has length " +
                std::to_string(internal::size(y.handle())) + "; both must have the same length");
  require_mask_length(what, mask, n);
  GrB_BinaryOp f = internal::binary_op<V>(op, what);
  const V absent = spgraph::detail::absent_value<V>(op.op);
  prepare_dense_output(z, n, absent);
  internal::GrbDescriptor desc(d, false, false);
  GrB_Vector m = mask ? mask->handle() : nullptr;
  if (is_union)
    check(GrB_Vector_eWiseAdd_BinaryOp(z.handle(), m, nullptr, f, x.handle(), y.handle(), desc.get()),
          "GrB_Vector_eWiseAdd_BinaryOp", z.handle());
  else
    check(GrB_Vector_eWiseMult_BinaryOp(z.handle(), m, nullptr, f, x.handle(), y.handle(), desc.get()),
          "GrB_Vector_eWiseMult_BinaryOp", z.handle());
  internal::fill_absent(z.handle(), absent);
}

template <class V>
void apply(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, UnaryId op, const Descriptor& d) {
  require(A.handle(), "apply", "A");
  const Shape a = shape_of(A.handle(), d.transpose_a);
  require_mask_shape("apply", mask, a);
  GrB_BinaryOp bound = bound_fp64_op(op.kind);
  GrB_UnaryOp f = bound ? nullptr : internal::unary_op<V>(op.kind, "apply");
  internal::OutputMatrix<V> out(C, a.rows, a.cols);
  internal::GrbDescriptor desc(d, d.transpose_a, false);
  GrB_Matrix m = mask ? mask->handle() : nullptr;
  if (bound)
    check(GrB_Matrix_apply_BinaryOp2nd_FP64(out.get(), m, nullptr, bound, A.handle(), op.scalar, desc.get()),
          "GrB_Matrix_apply_BinaryOp2nd_FP64", out.get());
  else
    check(GrB_Matrix_apply(out.get(), m, nullptr, f, A.handle(), desc.get()), "GrB_Matrix_apply", out.get());
  out.commit();
}

template <class V>
void apply(Vector<V>& z, const Vector<V>* mask, const Vector<V>& x, UnaryId op, const Descriptor& d) {
  require(x.handle(), "apply", "x");
  const GrB_Index n = internal::size(x.handle());
  require_mask_length("apply", mask, n);
  GrB_BinaryOp bound = bound_fp64_op(op.kind);
  GrB_UnaryOp f = bound ? nullptr : internal::unary_op<V>(op.kind, "apply");
  prepare_dense_output(z, n, V(0));
  internal::GrbDescriptor desc(d, false, false);
  GrB_Vector m = mask ? mask->handle() : nullptr;
  if (bound)
    check(GrB_Vector_apply_BinaryOp2nd_FP64(z.handle(), m, nullptr, bound, x.handle(), op.scalar, desc.get()),
          "GrB_Vector_apply_BinaryOp2nd_FP64", z.handle());
  else
    check(GrB_Vector_apply(z.handle(), m, nullptr, f, x.handle(), desc.get()), "GrB_Vector_apply", z.handle());
  internal::fill_absent(z.handle(), V(0));
}

// diag(d) A or A diag(d) as a product with the diagonal matrix of d: d is dense, so the
// diagonal is full and the product has exactly A's pattern (zeros of d stay as entries).
template <class V>
void scale(Matrix<V>& C, const Matrix<V>& A, const Vector<V>& d, bool rows) {
  const char* what = rows ? "scale_rows" : "scale_cols";
  require(A.handle(), what, "A");
  require(d.handle(), what, "d");
  const GrB_Index m = internal::nrows(A.handle()), n = internal::ncols(A.handle());
  const GrB_Index len = internal::size(d.handle());
  if (len != (rows ? m : n))
    throw Error(std::string("graphblas: ") + what + ": d has length " + std::to_string(len) + " but A is " +
                shape(m, n) + "; d needs one value per " + (rows ? "row" : "column"));
  GrB_Matrix diagonal = nullptr;
  check(GrB_Matrix_diag(&diagonal, d.handle(), 0), "GrB_Matrix_diag");
  const Matrix<V> D(diagonal);  // owns it from here
  GrB_Semiring times = internal::semiring<V>(semiring_id<PlusTimes>(), what);
  internal::OutputMatrix<V> out(C, m, n);
  if (rows)
    check(GrB_mxm(out.get(), nullptr, nullptr, times, D.handle(), A.handle(), nullptr), "GrB_mxm", out.get());
  else
    check(GrB_mxm(out.get(), nullptr, nullptr, times, A.handle(), D.handle(), nullptr), "GrB_mxm", out.get());
  out.commit();
}

#define SPGRAPH_INSTANTIATE(V)                                                                                    \
  template void ewise<V>(Matrix<V>&, const Matrix<V>*, const Matrix<V>&, const Matrix<V>&, OpId, bool,            \
                         const Descriptor&);                                                                      \
  template void ewise<V>(Vector<V>&, const Vector<V>*, const Vector<V>&, const Vector<V>&, OpId, bool,            \
                         const Descriptor&);                                                                      \
  template void apply<V>(Matrix<V>&, const Matrix<V>*, const Matrix<V>&, UnaryId, const Descriptor&);             \
  template void apply<V>(Vector<V>&, const Vector<V>*, const Vector<V>&, UnaryId, const Descriptor&);             \
  template void scale<V>(Matrix<V>&, const Matrix<V>&, const Vector<V>&, bool);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::graphblas::detail
