#pragma once
// cuSPARSE CSR SpMV (y = A x), the SpMV benchmark's baseline.
#include <memory>
#include <vector>

#include "cusparse_csr.hpp"

namespace spgraph::bench {

struct CusparseSpmvAlgorithm {
  cusparseSpMVAlg_t id;
  const char* name;  // "cuSPARSE default", "cuSPARSE csr-alg2"
};

// CUSPARSE_SPMV_ALG_DEFAULT and CUSPARSE_SPMV_CSR_ALG2 (the deterministic, row-split one).
const std::vector<CusparseSpmvAlgorithm>& cusparse_spmv_algorithms();

template <class V>
class CusparseSpmv {
 public:
  // Sizes and allocates the work buffer and runs cusparseSpMV_preprocess where the algorithm
  // has one: setup a caller does once per matrix, so it stays outside the timing (as our
  // kernels' prepare_spmv does).
  // a, x and y must outlive this object; x has a.ncols entries, y a.nrows.
  CusparseSpmv(cusparseHandle_t handle, CusparseCsr<V>& a, const V* x, V* y, cusparseSpMVAlg_t alg);
  void run();  // y = A x on the default stream

 private:
  cusparseHandle_t handle_;
  cusparseSpMVAlg_t alg_;
  CsrDescriptor a_;
  struct DnVecDeleter {
    void operator()(const cusparseDnVecDescr* d) const { cusparseDestroyDnVec(d); }
  };
  std::unique_ptr<const cusparseDnVecDescr, DnVecDeleter> x_;
  std::unique_ptr<cusparseDnVecDescr, DnVecDeleter> y_;
  device::Buffer<char> work_;
  V one_ = V(1), zero_ = V(0);
};

}  // namespace spgraph::bench
