#pragma once
// Internal to the SpMV library: reaching a matrix's SpmvCache, the steps that run with its
// mutex held (the public accessors in gpu/spmv.hpp take the lock, then call these).
#include <cuda_runtime_api.h>

#include "device/cub_call.hpp"
#include "gpu/spmv/spmv_formats.hpp"

namespace spgraph::gpu::detail {

// Creates the cache on first use; safe when several host threads share the matrix.
template <class V> SpmvCache<V>& cache_of(const Matrix<V>& A);

// With cache.mutex held: fills cache.row_lengths and cache.stats once.
template <class V> void analyse_locked(SpmvCache<V>& cache, const Matrix<V>& A);
// With cache.mutex held, after analyse_locked: AMB's segment count in cache.stats, once
// (SpmvRowStats::columns_counted).
template <class V> void count_columns_locked(SpmvCache<V>& cache, const Matrix<V>& A);

// out[s] = SELL-P slots of slice s (32 x its longest row) for s < nslices, out[nslices] = 0,
// so an exclusive scan of out gives the slice offsets and their total.
void sellp_slice_slots(const vid_t* row_len, vid_t nrows, eid_t* out, cudaStream_t stream);

// The segments of the AMB format (spmv_formats.hpp) a CSR matrix has.
eid_t amb_segment_count(const eid_t* rowptr, const vid_t* col, vid_t nrows, eid_t nnz, cudaStream_t stream);

using device::run_cub;

}  // namespace spgraph::gpu::detail
