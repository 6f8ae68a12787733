#include "cusparse_spgemm.hpp"

#include <limits>
#include <memory>
#include <string>

namespace spgraph::bench {
namespace {

struct SpgemmDescrDeleter {
  void operator()(cusparseSpGEMMDescr* d) const { cusparseSpGEMM_destroyDescr(d); }
};

}  // namespace

const std::vector<CusparseSpgemmAlgorithm>& cusparse_spgemm_algorithms() {
  static const std::vector<CusparseSpgemmAlgorithm> algorithms = {
      {CUSPARSE_SPGEMM_ALG1, "cuSPARSE alg1"},
      {CUSPARSE_SPGEMM_ALG2, "cuSPARSE alg2"},
      {CUSPARSE_SPGEMM_ALG3, "cuSPARSE alg3"},
  };
  return algorithms;
}

template <class V>
CusparseCsr<V> cusparse_spgemm(cusparseHandle_t handle, CusparseCsr<V>& a, CusparseCsr<V>& b,
                               cusparseSpGEMMAlg_t alg) {
  if (a.ncols != b.nrows)
    throw Error("cuSPARSE SpGEMM: A has " + std::to_string(a.ncols) + " columns but B has " +
                std::to_string(b.nrows) + " rows");
  constexpr cudaDataType type = cuda_value_type<V>();
  constexpr cusparseOperation_t op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const V one = 1, zero = 0;

  CusparseCsr<V> c;
  c.nrows = a.nrows;
  c.ncols = b.ncols;
  c.rowptr = device::Buffer<std::int32_t>(static_cast<std::size_t>(c.nrows) + 1);
  CsrDescriptor da(a), db(b);
  CsrDescriptor dc(c);  // columns and values are set once cuSPARSE knows nnz(C)

  cusparseSpGEMMDescr_t raw = nullptr;
  SPGRAPH_CUSPARSE(cusparseSpGEMM_createDescr(&raw));
  std::unique_ptr<cusparseSpGEMMDescr, SpgemmDescrDeleter> spgemm(raw);

  // The work buffers must live until copy: the descriptor keeps pointers into them.
  std::size_t size1 = 0, size2 = 0;
  SPGRAPH_CUSPARSE(cusparseSpGEMM_workEstimation(handle, op, op, &one, da.get(), db.get(), &zero, dc.get(), type,
                                                 alg, spgemm.get(), &size1, nullptr));
  device::Buffer<char> buffer1(size1);
  SPGRAPH_CUSPARSE(cusparseSpGEMM_workEstimation(handle, op, op, &one, da.get(), db.get(), &zero, dc.get(), type,
                                                 alg, spgemm.get(), &size1, buffer1.data()));
  if (alg == CUSPARSE_SPGEMM_ALG2 || alg == CUSPARSE_SPGEMM_ALG3) {
    std::int64_t products = 0;
    SPGRAPH_CUSPARSE(cusparseSpGEMM_getNumProducts(spgemm.get(), &products));
    std::size_t size3 = 0;
    SPGRAPH_CUSPARSE(cusparseSpGEMM_estimateMemory(handle, op, op, &one, da.get(), db.get(), &zero, dc.get(), type,
                                                   alg, spgemm.get(), kCusparseChunkFraction, &size3, nullptr,
                                                   nullptr));
    device::Buffer<char> buffer3(size3);
    SPGRAPH_CUSPARSE(cusparseSpGEMM_estimateMemory(handle, op, op, &one, da.get(), db.get(), &zero, dc.get(), type,
                                                   alg, spgemm.get(), kCusparseChunkFraction, &size3,
                                                   buffer3.data(), &size2));
  } else {
    SPGRAPH_CUSPARSE(cusparseSpGEMM_compute(handle, op, op, &one, da.get(), db.get(), &zero, dc.get(), type, alg,
                                            spgemm.get(), &size2, nullptr));
  }
  device::Buffer<char> buffer2(size2);
  SPGRAPH_CUSPARSE(cusparseSpGEMM_compute(handle, op, op, &one, da.get(), db.get(), &zero, dc.get(), type, alg,
                                          spgemm.get(), &size2, buffer2.data()));

  std::int64_t rows = 0, cols = 0, nnz = 0;
  SPGRAPH_CUSPARSE(cusparseSpMatGetSize(dc.get(), &rows, &cols, &nnz));
  if (nnz > std::numeric_limits<std::int32_t>::max())
    throw Error("cuSPARSE SpGEMM: C has " + std::to_string(nnz) + " nonzeros, more than 32-bit offsets hold");
  c.nnz = nnz;
  c.col = device::Buffer<std::int32_t>(static_cast<std::size_t>(nnz));
  c.val = device::Buffer<V>(static_cast<std::size_t>(nnz));
  SPGRAPH_CUSPARSE(cusparseCsrSetPointers(dc.get(), c.rowptr.data(), c.col.data(), c.val.data()));
  SPGRAPH_CUSPARSE(cusparseSpGEMM_copy(handle, op, op, &one, da.get(), db.get(), &zero, dc.get(), type, alg,
                                       spgemm.get()));
  SPGRAPH_CUDA(cudaStreamSynchronize(0));
  return c;
}

template CusparseCsr<float> cusparse_spgemm(cusparseHandle_t, CusparseCsr<float>&, CusparseCsr<float>&,
                                            cusparseSpGEMMAlg_t);
template CusparseCsr<double> cusparse_spgemm(cusparseHandle_t, CusparseCsr<double>&, CusparseCsr<double>&,
                                             cusparseSpGEMMAlg_t);

}  // namespace spgraph::bench
