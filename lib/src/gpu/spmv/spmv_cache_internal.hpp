#pragma once
// Internal to the SpMV library: reaching a matrix's SpmvCache, the steps that run with its
// mutex held (the public accessors in gpu/spmv.hpp take the lock, then call these), and the
// CUB call helper the analysis and the format builders share.
#include <cuda_runtime_api.h>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/memory.hpp"
#include "spgraph/gpu/spmv.hpp"

namespace spgraph::gpu::detail {

// Creates the cache on first use; safe when several host threads share the matrix.
template <class V> SpmvCache<V>& cache_of(const Matrix<V>& A);

// With cache.mutex held: fills cache.row_lengths and cache.stats once.
template <class V> void analyse_locked(SpmvCache<V>& cache, const Matrix<V>& A);

// out[s] = SELL-P slots of slice s (32 x its longest row) for s < nslices, out[nslices] = 0,
// so an exclusive scan of out gives the slice offsets and their total.
void sellp_slice_slots(const vid_t* row_len, vid_t nrows, eid_t* out, cudaStream_t stream);

// CUB's two-phase call (size query, then run) with the temporary storage from the pool.
template <class CubCall>
void run_cub(CubCall call, cudaStream_t stream) {
  std::size_t bytes = 0;
  SPGRAPH_CUDA(call(nullptr, bytes));
  device::Buffer<unsigned char> temp(bytes, stream);
  SPGRAPH_CUDA(call(temp.data(), bytes));
}

}  // namespace spgraph::gpu::detail
