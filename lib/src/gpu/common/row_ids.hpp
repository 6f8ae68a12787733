#pragma once
// Per-entry and per-row facts of a device CSR's row offsets: the row of every stored entry
// (the COO row indices: what the transpose sorts with, the COO SpMV kernel reads and format
// conversions scatter by), and each row's length.
#include <cuda_runtime_api.h>

#include "spgraph/types.hpp"

namespace spgraph::gpu {

// row_ids[p] = i for rowptr[i] <= p < rowptr[i+1]; row_ids has room for nnz entries.
// Balanced whatever the row lengths: each non-empty row marks its first entry, then an
// inclusive max-scan spreads the marks (CUB).
void expand_row_ids(const eid_t* rowptr, vid_t nrows, eid_t nnz, vid_t* row_ids, cudaStream_t stream = 0);

// lengths[i] = rowptr[i+1] - rowptr[i]: the entries of each row (out-degrees of a graph).
void row_lengths(const eid_t* rowptr, vid_t nrows, vid_t* lengths, cudaStream_t stream = 0);

}  // namespace spgraph::gpu
