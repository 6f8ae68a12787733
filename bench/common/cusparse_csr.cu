#include "cusparse_csr.hpp"

#include <limits>
#include <string>

namespace spgraph::bench {
namespace {

constexpr int kBlock = 256;

int grid_for(std::int64_t n) {
  std::int64_t blocks = (n + kBlock - 1) / kBlock;
  return static_cast<int>(blocks < 65535 * 16 ? (blocks > 0 ? blocks : 1) : 65535 * 16);
}

__global__ void narrow_offsets(const eid_t* in, std::int32_t* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = static_cast<std::int32_t>(in[i]);
}

template <class V>
__global__ void fill_ones(V* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = V(1);
}

}  // namespace

template <class V>
CusparseCsr<V> CusparseCsr<V>::from(const device::DeviceCsr<V>& a) {
  if (a.nnz() > std::numeric_limits<std::int32_t>::max())
    throw Error("cuSPARSE baseline: the matrix has " + std::to_string(a.nnz()) +
                " nonzeros, more than its 32-bit row offsets hold");
  CusparseCsr m;
  m.nrows = a.nrows;
  m.ncols = a.ncols;
  m.nnz = a.nnz();
  m.rowptr = device::Buffer<std::int32_t>(static_cast<std::size_t>(a.nrows) + 1);
  m.col = device::Buffer<std::int32_t>(static_cast<std::size_t>(m.nnz));
  m.val = device::Buffer<V>(static_cast<std::size_t>(m.nnz));
  if (a.rowptr.empty()) {
    m.rowptr.fill_zero();
  } else {
    narrow_offsets<<<grid_for(a.nrows + 1), kBlock>>>(a.rowptr.data(), m.rowptr.data(), a.nrows + 1);
    SPGRAPH_CHECK_LAUNCH("narrow_offsets");
  }
  if (m.nnz) {
    SPGRAPH_CUDA(cudaMemcpyAsync(m.col.data(), a.col.data(), m.nnz * sizeof(std::int32_t), cudaMemcpyDeviceToDevice, 0));
    if (a.is_pattern()) {
      fill_ones<<<grid_for(m.nnz), kBlock>>>(m.val.data(), m.nnz);
      SPGRAPH_CHECK_LAUNCH("fill_ones");
    } else {
      SPGRAPH_CUDA(cudaMemcpyAsync(m.val.data(), a.val.data(), m.nnz * sizeof(V), cudaMemcpyDeviceToDevice, 0));
    }
  }
  SPGRAPH_CUDA(cudaStreamSynchronize(0));
  return m;
}

template struct CusparseCsr<float>;
template struct CusparseCsr<double>;

}  // namespace spgraph::bench
