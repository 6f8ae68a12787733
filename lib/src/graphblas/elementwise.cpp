// Element-wise add and multiply, apply, and scaling rows or columns by a vector. Masks and
// replace are GraphBLAS's own (GrB_eWiseAdd etc. take the mask and descriptor); dense vectors
// get absent_value (operator_ids.hpp) where the mask leaves a position without a value.
//
// In place: a float or double matrix applied or scaled into itself (apply(E, nullptr, E, op),
// scale_rows(E, d, E): MCL's inflation, normalisation and rounding) is rewritten in its own
// arrays, unpacked from GraphBLAS and packed back, instead of being built again beside itself
// as GraphBLAS does: each value is what GraphBLAS's operator gives, to the bit, but for which
// NaN a NaN is where two meet, which GraphBLAS's own kernels do not agree on either
// (tests/graphblas/elementwise_test.cpp compares the two paths).
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

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

// The matrices rewritten in place: float and double, the types whose operators below are
// GraphBLAS's exactly (the others take GraphBLAS's own path).
template <class V>
constexpr bool kInPlaceValues = std::is_same_v<V, float> || std::is_same_v<V, double>;

// A matrix's whole stored pattern written into itself: no mask (nor a complement), A as stored.
template <class V>
bool writes_itself(const Matrix<V>& C, const void* mask, const Matrix<V>& A, const Descriptor& d) {
  return kInPlaceValues<V> && &C == &A && !mask && !d.mask_complement && !d.transpose_a;
}

// GxB_POW_FP64: NaN where x or y is, 1 where y is zero, else pow(x, y).
double grb_pow(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
  if (y == 0) return 1;
  return std::pow(x, y);
}

template <class V, class F>
void rewrite_values(V* x, std::int64_t n, F f) {
#pragma omp parallel for schedule(static) if (n > internal::kParallelEntries)
  for (std::int64_t p = 0; p < n; ++p) x[p] = f(x[p]);
}

// x = op(x) over n values as GraphBLAS applies op to V: its unary built-ins in V, the bound FP64
// operators in double with x converted to double and the result back to V; false for an
// operator GraphBLAS has no built-in for (its own path then says so).
template <class V>
bool apply_to_values(V* x, std::int64_t n, UnaryId op) {
  const double s = op.scalar;
  switch (op.kind) {
    case Unary::Identity: return true;
    case Unary::Abs: rewrite_values(x, n, [](V v) { return std::fabs(v); }); return true;
    case Unary::Negate: rewrite_values(x, n, [](V v) { return -v; }); return true;
    case Unary::One: rewrite_values(x, n, [](V) { return V(1); }); return true;
    case Unary::Inverse: rewrite_values(x, n, [](V v) { return V(1) / v; }); return true;
    case Unary::Scale: rewrite_values(x, n, [s](V v) { return V(double(v) * s); }); return true;
    case Unary::AddScalar: rewrite_values(x, n, [s](V v) { return V(double(v) + s); }); return true;
    case Unary::Pow: rewrite_values(x, n, [s](V v) { return V(grb_pow(double(v), s)); }); return true;
    case Unary::ToFloat: rewrite_values(x, n, [](V v) { return V(float(v)); }); return true;
    default: return false;
  }
}

// A = op(A) in A's own arrays; false (A untouched) where apply_to_values has no rule for op.
template <class V>
bool apply_in_place(Matrix<V>& A, UnaryId op) {
  if (op.kind == Unary::Unknown) return false;
  internal::UnpackedCsr<V> a(A.handle());
  const bool done = apply_to_values(a.csr.ax, a.csr.iso ? 1 : std::int64_t(a.csr.nnz()), op);
  a.give_back();
  return done;
}

// A = diag(d) A or A diag(d) in A's own arrays, each value d * a or a * d as GraphBLAS's
// product with the diagonal gives it; false (A untouched) where A is iso (one value for all
// entries, which scaling makes many: GraphBLAS's product builds them).
template <class V>
bool scale_in_place(Matrix<V>& A, const Vector<V>& d, bool rows) {
  bool iso = false;
  check(GxB_Matrix_iso(&iso, A.handle()), "GxB_Matrix_iso");
  if (iso) return false;
  internal::UnpackedCsr<V> a(A.handle());
  const internal::PackedCsr<V>& csr = a.csr;
  with_dense(d, [&](const V* dv, std::size_t) {
    const std::int64_t nrows = std::int64_t(csr.nrows), nnz = std::int64_t(csr.nnz());
    const GrB_Index* ap = csr.ap;
    const GrB_Index* aj = csr.aj;
    V* ax = csr.ax;
    if (rows) {
#pragma omp parallel for schedule(dynamic, 256) if (nnz > internal::kParallelEntries)
      for (std::int64_t i = 0; i < nrows; ++i)
        for (GrB_Index p = ap[i]; p < ap[i + 1]; ++p) ax[p] = dv[i] * ax[p];
    } else {
#pragma omp parallel for schedule(static) if (nnz > internal::kParallelEntries)
      for (std::int64_t p = 0; p < nnz; ++p) ax[p] = ax[p] * dv[aj[p]];
    }
  });
  a.give_back();
  return true;
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
  if (writes_itself(C, mask, A, d) && apply_in_place(C, op)) return;
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
// diagonal is full and the product has exactly A's pattern (zeros of d stay as entries). Into
// A itself, in place (above).
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
  if (writes_itself(C, nullptr, A, Descriptor{}) && scale_in_place(C, d, rows)) return;
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
