// Row-offset arithmetic shared by the panels, the masked product and the mask merge.
#include "spgraph/device/cuda_check.hpp"
#include "gpu/spgemm/device_ops.cuh"
#include "gpu/spgemm/internal.hpp"

namespace spgraph::gpu::spgemm_detail {
namespace {

constexpr int kThreads = 256;

__global__ void shift_offsets_kernel(const eid_t* in, eid_t count, eid_t delta, eid_t* out) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) out[i] = in[i] + delta;
}

__global__ void gather_positions_kernel(const eid_t* offsets, eid_t count, eid_t base, const eid_t* pos, eid_t* out) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) out[i] = pos[offsets[i] - base];
}

__global__ void merged_rowptr_kernel(const eid_t* x_rowptr, const eid_t* x_pos, const eid_t* y_rowptr,
                                     const eid_t* y_pos, vid_t nrows, eid_t* out) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i <= nrows; i += stride)
    out[i] = x_pos[x_rowptr[i]] + (y_rowptr ? y_pos[y_rowptr[i]] : 0);
}

}  // namespace

void shift_offsets(const eid_t* in, eid_t count, eid_t delta, eid_t* out, cudaStream_t stream) {
  if (count <= 0) return;
  shift_offsets_kernel<<<grid_for(count, kThreads), kThreads, 0, stream>>>(in, count, delta, out);
  SPGRAPH_CHECK_LAUNCH("shift_offsets_kernel");
}

void gather_positions(const eid_t* offsets, eid_t count, eid_t base, const eid_t* pos, eid_t* out,
                      cudaStream_t stream) {
  if (count <= 0) return;
  gather_positions_kernel<<<grid_for(count, kThreads), kThreads, 0, stream>>>(offsets, count, base, pos, out);
  SPGRAPH_CHECK_LAUNCH("gather_positions_kernel");
}

void merged_rowptr(const eid_t* x_rowptr, const eid_t* x_pos, const eid_t* y_rowptr, const eid_t* y_pos, vid_t nrows,
                   eid_t* out, cudaStream_t stream) {
  merged_rowptr_kernel<<<grid_for(eid_t(nrows) + 1, kThreads), kThreads, 0, stream>>>(x_rowptr, x_pos, y_rowptr,
                                                                                       y_pos, nrows, out);
  SPGRAPH_CHECK_LAUNCH("merged_rowptr_kernel");
}

}  // namespace spgraph::gpu::spgemm_detail
