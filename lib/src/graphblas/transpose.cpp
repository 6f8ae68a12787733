#include "internal.hpp"

namespace spgraph::graphblas {

template <class V>
void transpose(Matrix<V>& C, const Matrix<V>& A) {
  internal::require(A.handle(), "transpose", "A");
  internal::OutputMatrix<V> out(C, internal::ncols(A.handle()), internal::nrows(A.handle()));
  check(GrB_transpose(out.get(), nullptr, nullptr, A.handle(), nullptr), "GrB_transpose", out.get());
  out.commit();
}

template void transpose<float>(Matrix<float>&, const Matrix<float>&);
template void transpose<double>(Matrix<double>&, const Matrix<double>&);
template void transpose<std::int32_t>(Matrix<std::int32_t>&, const Matrix<std::int32_t>&);
template void transpose<std::int64_t>(Matrix<std::int64_t>&, const Matrix<std::int64_t>&);
template void transpose<bool>(Matrix<bool>&, const Matrix<bool>&);

}  // namespace spgraph::graphblas
