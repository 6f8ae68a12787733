#include "cusparse_spmv.hpp"

namespace spgraph::bench {

const std::vector<CusparseSpmvAlgorithm>& cusparse_spmv_algorithms() {
  static const std::vector<CusparseSpmvAlgorithm> algorithms = {
      {CUSPARSE_SPMV_ALG_DEFAULT, "cuSPARSE default"},
      {CUSPARSE_SPMV_CSR_ALG2, "cuSPARSE csr-alg2"},
  };
  return algorithms;
}

template <class V>
CusparseSpmv<V>::CusparseSpmv(cusparseHandle_t handle, CusparseCsr<V>& a, const V* x, V* y, cusparseSpMVAlg_t alg)
    : handle_(handle), alg_(alg), a_(a) {
  constexpr cudaDataType type = cuda_value_type<V>();
  cusparseConstDnVecDescr_t x_descr = nullptr;
  SPGRAPH_CUSPARSE(cusparseCreateConstDnVec(&x_descr, a.ncols, x, type));
  x_.reset(x_descr);
  cusparseDnVecDescr_t y_descr = nullptr;
  SPGRAPH_CUSPARSE(cusparseCreateDnVec(&y_descr, a.nrows, y, type));
  y_.reset(y_descr);
  std::size_t bytes = 0;
  SPGRAPH_CUSPARSE(cusparseSpMV_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, a_.get(), x_.get(), &zero_,
                                           y_.get(), type, alg_, &bytes));
  work_ = device::Buffer<char>(bytes);
  // Preprocessing is optional and not offered for every algorithm: without it the product
  // still runs, as an application would run it.
  cusparseStatus_t status = cusparseSpMV_preprocess(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, a_.get(),
                                                    x_.get(), &zero_, y_.get(), type, alg_, work_.data());
  if (status != CUSPARSE_STATUS_NOT_SUPPORTED)
    device::check_cusparse(status, "cusparseSpMV_preprocess", __FILE__, __LINE__);
}

template <class V>
void CusparseSpmv<V>::run() {
  SPGRAPH_CUSPARSE(cusparseSpMV(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, &one_, a_.get(), x_.get(), &zero_, y_.get(),
                                cuda_value_type<V>(), alg_, work_.data()));
}

template class CusparseSpmv<float>;
template class CusparseSpmv<double>;

}  // namespace spgraph::bench
