#include "compact.hpp"

#include <cub/device/device_scan.cuh>

#include "row_offsets.hpp"
#include "device/cub_call.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/instantiations.hpp"

namespace spgraph::gpu::detail {
namespace {

// pos is the exclusive scan of the flags: entry p is kept when pos[p + 1] > pos[p].
template <class V>
__global__ void scatter_kept_kernel(const eid_t* __restrict__ pos, eid_t nnz, const vid_t* __restrict__ col,
                                    const V* __restrict__ val, vid_t* __restrict__ out_col, V* __restrict__ out_val) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; p < nnz; p += stride) {
    const eid_t q = pos[p];
    if (pos[p + 1] == q) continue;
    out_col[q] = col[p];
    if (out_val) out_val[q] = val[p];
  }
}

// Row i of the result starts where row i of A starts, counted in kept entries.
__global__ void kept_row_starts_kernel(const eid_t* __restrict__ rowptr, const eid_t* __restrict__ pos, vid_t nrows,
                                       eid_t* __restrict__ out) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i <= nrows; i += stride) out[i] = pos[rowptr[i]];
}

}  // namespace

template <class V>
device::DeviceCsr<V> compact(const Matrix<V>& A, device::Buffer<eid_t>& keep, bool with_values) {
  const device::DeviceCsr<V>& a = A.csr();
  const eid_t nnz = a.nnz();
  if (eid_t(keep.size()) < nnz + 1) throw Error("gpu: compact: the flags buffer is shorter than nnz + 1");
  eid_t* pos = keep.data();
  SPGRAPH_CUDA(cudaMemsetAsync(pos + nnz, 0, sizeof(eid_t)));
  device::run_cub(
      [&](void* temp, std::size_t& bytes) { return cub::DeviceScan::ExclusiveSum(temp, bytes, pos, pos, nnz + 1, 0); },
      0);
  const eid_t kept = device::read_value(pos + nnz);

  device::DeviceCsr<V> out;
  out.nrows = a.nrows;
  out.ncols = a.ncols;
  out.rowptr = device::Buffer<eid_t>(std::size_t(a.nrows) + 1);
  out.col = device::Buffer<vid_t>(kept);
  const bool valued = with_values && !a.is_pattern();
  out.val = device::Buffer<V>(valued ? kept : 0);
  if (nnz == 0) {
    out.rowptr.fill_zero();
    return out;
  }
  kept_row_starts_kernel<<<ops_grid(eid_t(a.nrows) + 1), kOpsThreads>>>(a.rowptr.data(), pos, a.nrows,
                                                                       out.rowptr.data());
  SPGRAPH_CHECK_LAUNCH("kept_row_starts_kernel");
  if (kept > 0) {
    scatter_kept_kernel<V><<<ops_grid(nnz), kOpsThreads>>>(pos, nnz, a.col.data(), valued ? a.val.data() : nullptr,
                                                           out.col.data(), valued ? out.val.data() : nullptr);
    SPGRAPH_CHECK_LAUNCH("scatter_kept_kernel");
  }
  return out;
}

#define SPGRAPH_INSTANTIATE(V) template device::DeviceCsr<V> compact<V>(const Matrix<V>&, device::Buffer<eid_t>&, bool);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::gpu::detail
