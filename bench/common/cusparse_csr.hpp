#pragma once
// cuSPARSE's copy of a matrix and the RAII handles around it. The copy has 32-bit row offsets
// and column ids (cusparseSpGEMM accepts only those; cuSPARSE's CSR SpMV is fastest with them)
// and explicit values: cuSPARSE has no value-free CSR, so a pattern matrix gets ones, which
// cuSPARSE then reads (the tables say so). Every buffer comes from spgraph's pool, so peak
// memory of cuSPARSE runs is measured as ours is.
#include <cusparse.h>

#include <cstdint>

#include "cusparse_check.hpp"
#include "spgraph/device/device_csr.hpp"

namespace spgraph::bench {

template <class V>
constexpr cudaDataType cuda_value_type() {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "cuSPARSE baselines run float or double");
  return sizeof(V) == 4 ? CUDA_R_32F : CUDA_R_64F;
}

template <class V>
struct CusparseCsr {
  std::int64_t nrows = 0;
  std::int64_t ncols = 0;
  std::int64_t nnz = 0;
  device::Buffer<std::int32_t> rowptr;  // nrows + 1
  device::Buffer<std::int32_t> col;
  device::Buffer<V> val;  // always nnz values

  // Throws spgraph::Error when nnz passes 32-bit offsets (cuSPARSE SpGEMM's limit).
  static CusparseCsr from(const device::DeviceCsr<V>& a);
};

class CusparseHandle {
 public:
  CusparseHandle() { SPGRAPH_CUSPARSE(cusparseCreate(&h_)); }
  CusparseHandle(const CusparseHandle&) = delete;
  CusparseHandle& operator=(const CusparseHandle&) = delete;
  ~CusparseHandle() { cusparseDestroy(h_); }
  cusparseHandle_t get() const { return h_; }

 private:
  cusparseHandle_t h_ = nullptr;
};

// A cusparseSpMatDescr_t over a CusparseCsr (which must outlive it). For an output matrix
// (SpGEMM's C) the columns and values may still be empty: cuSPARSE gets null pointers for them.
class CsrDescriptor {
 public:
  template <class V>
  explicit CsrDescriptor(CusparseCsr<V>& m) {
    SPGRAPH_CUSPARSE(cusparseCreateCsr(&d_, m.nrows, m.ncols, m.nnz, m.rowptr.data(), m.col.data(), m.val.data(),
                                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                       cuda_value_type<V>()));
  }
  CsrDescriptor(const CsrDescriptor&) = delete;
  CsrDescriptor& operator=(const CsrDescriptor&) = delete;
  ~CsrDescriptor() { cusparseDestroySpMat(d_); }
  cusparseSpMatDescr_t get() const { return d_; }

 private:
  cusparseSpMatDescr_t d_ = nullptr;
};

}  // namespace spgraph::bench
