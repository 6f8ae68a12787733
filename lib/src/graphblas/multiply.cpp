// mxm, mxv and vxm on GraphBLAS's built-in semirings.
#include <string>

#include "internal.hpp"

namespace spgraph::graphblas::detail {

using internal::require;

template <class V>
void mxm(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, const Matrix<V>& B, SemiringId sr,
         const Descriptor& d) {
  require(A.handle(), "mxm", "A");
  require(B.handle(), "mxm", "B");
  if (mask) require(mask->handle(), "mxm", "the mask");
  GrB_Semiring semiring = internal::semiring<V>(sr, "mxm");
  const GrB_Index m = d.transpose_a ? internal::ncols(A.handle()) : internal::nrows(A.handle());
  const GrB_Index n = d.transpose_b ? internal::nrows(B.handle()) : internal::ncols(B.handle());
  // Without replace, positions the mask does not allow keep C's entries (with no mask but a
  // complement, that is every position), so those entries must be in a C of the right shape.
  const bool keeps_old_entries = (mask || d.mask_complement) && !d.replace;
  const bool shape_matches = C && internal::nrows(C.handle()) == m && internal::ncols(C.handle()) == n;
  if (!shape_matches && keeps_old_entries && C.nnz() > 0)
    throw Error("graphblas: mxm: C is " + std::to_string(C.nrows()) + " x " + std::to_string(C.ncols()) +
                " but the product is " + std::to_string(m) + " x " + std::to_string(n) +
                "; with a mask and no replace C keeps entries, so it must already have the product's shape");
  internal::OutputMatrix<V> out(C, m, n);
  internal::GrbDescriptor desc(d, d.transpose_a, d.transpose_b);
  check(GrB_mxm(out.get(), mask ? mask->handle() : nullptr, nullptr, semiring, A.handle(), B.handle(), desc.get()),
        "GrB_mxm", out.get());
  out.commit();
}

template <class V>
void spmv(Vector<V>& y, const Vector<V>* mask, const Matrix<V>& A, const Vector<V>& x, bool matrix_first,
          SemiringId sr, V identity, const Descriptor& d) {
  const std::string name = matrix_first ? "mxv" : "vxm";
  require(A.handle(), name.c_str(), "A");
  require(x.handle(), name.c_str(), "x");
  if (mask) require(mask->handle(), name.c_str(), "the mask");
  // GraphBLAS's operand order: the matrix is the first input of mxv and the second of vxm.
  const bool transpose_matrix = matrix_first ? d.transpose_a : d.transpose_b;
  if (matrix_first ? d.transpose_b : d.transpose_a)
    throw Error("graphblas: " + name + ": cannot transpose the vector x; " +
                (matrix_first ? "transpose_a" : "transpose_b") + " transposes A");
  GrB_Semiring semiring = internal::semiring<V>(sr, name.c_str());
  const bool length_is_rows = matrix_first != transpose_matrix;
  const GrB_Index len = length_is_rows ? internal::nrows(A.handle()) : internal::ncols(A.handle());
  // Checked before y is touched: y may be x itself.
  const GrB_Index x_len = length_is_rows ? internal::ncols(A.handle()) : internal::nrows(A.handle());
  if (internal::size(x.handle()) != x_len)
    throw Error("graphblas: " + name + ": x has length " + std::to_string(internal::size(x.handle())) +
                " but A is " + std::to_string(internal::nrows(A.handle())) + " x " +
                std::to_string(internal::ncols(A.handle())) + (transpose_matrix ? " (transposed)" : ""));
  const std::size_t old_len = y.size();
  if (old_len == 0 && len != 0) y = Vector<V>(len, identity);  // an empty y starts as all absent
  else if (old_len != len)
    throw Error("graphblas: " + name + ": y has length " + std::to_string(old_len) + " but the result has length " +
                std::to_string(len) + "; pass y with the result's length, or empty");
  internal::GrbDescriptor desc(d, matrix_first && transpose_matrix, !matrix_first && transpose_matrix);
  GrB_Vector m = mask ? mask->handle() : nullptr;
  if (matrix_first)
    check(GrB_mxv(y.handle(), m, nullptr, semiring, A.handle(), x.handle(), desc.get()), "GrB_mxv", y.handle());
  else
    check(GrB_vxm(y.handle(), m, nullptr, semiring, x.handle(), A.handle(), desc.get()), "GrB_vxm", y.handle());
  internal::fill_absent(y.handle(), identity);
}

#define SPGRAPH_INSTANTIATE(V)                                                                              \
  template void mxm<V>(Matrix<V>&, const Matrix<V>*, const Matrix<V>&, const Matrix<V>&, SemiringId,        \
                       const Descriptor&);                                                                  \
  template void spmv<V>(Vector<V>&, const Vector<V>*, const Matrix<V>&, const Vector<V>&, bool, SemiringId, \
                        V, const Descriptor&);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE
// Words for bitwise semirings: mxv and vxm only.
template void spmv<std::uint64_t>(Vector<std::uint64_t>&, const Vector<std::uint64_t>*, const Matrix<std::uint64_t>&,
                                  const Vector<std::uint64_t>&, bool, SemiringId, std::uint64_t, const Descriptor&);

}  // namespace spgraph::graphblas::detail
