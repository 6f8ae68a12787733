#include "gpu/common/row_ids.hpp"

#include <cstdint>

#include <cub/device/device_scan.cuh>
#include <cuda/functional>

#include "device/cub_call.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/memory.hpp"
#include "spgraph/gpu/degrees.hpp"
#include "spgraph/instantiations.hpp"

namespace spgraph::gpu {
namespace {

__global__ void mark_row_starts(const eid_t* __restrict__ rowptr, vid_t nrows, vid_t* __restrict__ row_ids) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= nrows) return;
  const eid_t begin = rowptr[i];
  if (begin < rowptr[i + 1]) row_ids[begin] = vid_t(i);
}

__global__ void row_lengths_kernel(const eid_t* __restrict__ rowptr, vid_t nrows, vid_t* __restrict__ lengths) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < nrows) lengths[i] = vid_t(rowptr[i + 1] - rowptr[i]);
}

constexpr int kThreads = 256;

}  // namespace

void expand_row_ids(const eid_t* rowptr, vid_t nrows, eid_t nnz, vid_t* row_ids, cudaStream_t stream) {
  if (nnz == 0) return;
  SPGRAPH_CUDA(cudaMemsetAsync(row_ids, 0, sizeof(vid_t) * static_cast<std::size_t>(nnz), stream));
  mark_row_starts<<<unsigned((eid_t(nrows) + kThreads - 1) / kThreads), kThreads, 0, stream>>>(rowptr, nrows, row_ids);
  SPGRAPH_CHECK_LAUNCH("mark_row_starts");
  device::run_cub(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceScan::InclusiveScan(temp, bytes, row_ids, row_ids, cuda::maximum<>{}, nnz, stream);
      },
      stream);
}

void row_lengths(const eid_t* rowptr, vid_t nrows, vid_t* lengths, cudaStream_t stream) {
  if (nrows == 0) return;
  row_lengths_kernel<<<unsigned((eid_t(nrows) + kThreads - 1) / kThreads), kThreads, 0, stream>>>(rowptr, nrows,
                                                                                                   lengths);
  SPGRAPH_CHECK_LAUNCH("row_lengths_kernel");
}

template <class V>
void row_degrees(Vector<vid_t>& d, const Matrix<V>& A) {
  d = Vector<vid_t>(static_cast<std::size_t>(A.nrows()));
  row_lengths(A.csr().rowptr.data(), A.nrows(), d.data());
}

#define SPGRAPH_INSTANTIATE(V) template void row_degrees<V>(Vector<vid_t>&, const Matrix<V>&);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
SPGRAPH_INSTANTIATE(std::uint64_t)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::gpu
