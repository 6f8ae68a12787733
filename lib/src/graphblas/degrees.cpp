// Row degrees: the stored entries of each row, whatever their values (GxB_ONE, then a plus
// reduction in int32), 0 for an empty row.
#include "internal.hpp"

namespace spgraph::graphblas {

template <class V>
void row_degrees(Vector<vid_t>& d, const Matrix<V>& A) {
  internal::require(A.handle(), "row_degrees", "A");
  const GrB_Index n = internal::nrows(A.handle());
  Matrix<vid_t> ones(static_cast<vid_t>(n), static_cast<vid_t>(internal::ncols(A.handle())));
  check(GrB_Matrix_apply(ones.handle(), nullptr, nullptr, GxB_ONE_INT32, A.handle(), nullptr), "GrB_Matrix_apply",
        ones.handle());
  internal::OutputVector<vid_t> out(d, n);
  check(GrB_Matrix_reduce_Monoid(out.get(), nullptr, nullptr, GrB_PLUS_MONOID_INT32, ones.handle(), nullptr),
        "GrB_Matrix_reduce_Monoid", out.get());
  internal::fill_absent(out.get(), vid_t(0));
  out.commit();
}

#define SPGRAPH_INSTANTIATE(V) template void row_degrees<V>(Vector<vid_t>&, const Matrix<V>&);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::graphblas
