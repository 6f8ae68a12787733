#pragma once
// Shared by the two-pass GPU operations (count the entries of each row, then fill them): the
// launch size of a grid-stride loop, and the scan that turns row counts into row offsets.
#include <cuda_runtime_api.h>

#include <algorithm>

#include "spgraph/device/memory.hpp"
#include "spgraph/types.hpp"

namespace spgraph::gpu::detail {

constexpr int kOpsThreads = 256;

// Blocks for n items of kOpsThreads threads, capped for grid-stride loops; at least 1.
inline unsigned ops_grid(eid_t n) {
  const eid_t blocks = (n + kOpsThreads - 1) / kOpsThreads;
  return unsigned(std::clamp<eid_t>(blocks, 1, eid_t(1) << 20));
}

// counts[0..nrows) (one per row; counts has nrows + 1 slots) become the exclusive prefix sums
// in place, with the total in counts[nrows]; returns the total (synchronises the stream).
eid_t counts_to_offsets(device::Buffer<eid_t>& counts, vid_t nrows, cudaStream_t stream = 0);

}  // namespace spgraph::gpu::detail
