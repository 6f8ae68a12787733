#pragma once
// The AMB SpMV kernel (format in spmv_formats.hpp): a warp per chunk, a lane per segment. Each
// lane walks its segment's 16-bit columns (32 lanes read 64 consecutive bytes a step) and adds
// the terms; the lanes of one row then merge their sums into y with one atomic. y holds the
// identity first (init_output_kernel). Included by the explicit-instantiation files in
// lib/src/gpu/spmv only.
#include <cstdint>

#include "gpu/spmv/spmv_kernels_impl.cuh"

namespace spgraph::gpu::detail {

inline constexpr int kAmbThreads = 256;

template <class SR, class V, class Product>
__global__ void __launch_bounds__(kAmbThreads)
    amb_kernel(const eid_t* __restrict__ chunk_offset, const unsigned* __restrict__ chunk_tile,
               const unsigned* __restrict__ slot_meta, const std::uint16_t* __restrict__ col, eid_t nchunks,
               Product product, V* __restrict__ y, OutputMask<V> mask) {
  const eid_t slot = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;  // the lane's slot of slot_meta
  const eid_t chunk = slot >> 5;
  if (chunk >= nchunks) return;  // the whole warp
  // Independent loads, issued together: one memory round trip.
  const unsigned meta = __ldcs(slot_meta + slot);
  const unsigned tile = __ldg(chunk_tile + chunk);
  const eid_t first = __ldg(chunk_offset + chunk) + (threadIdx.x & 31);
  const unsigned length = meta >> 16;
  const vid_t row = length > 0 ? vid_t(((tile >> 16) << kAmbSpanLog2) | (meta & 0xFFFFu)) : kNoRow;
  const vid_t col_base = vid_t((tile & 0xFFFFu) << kAmbSpanLog2);
  Partial<SR, V> acc = Partial<SR, V>::empty();
  if (row != kNoRow && mask.allows(row))
    accumulate_run_columns(
        acc, 0, eid_t(length), 1, [first](eid_t k) { return first + 32 * k; },
        [col, col_base](eid_t slot) { return col_base + vid_t(__ldcs(col + slot)); }, product);
  // The pieces of a row longer than kAmbMaxSegment sit in adjacent lanes (the sort is stable):
  // one atomic for each run of lanes of one row.
  flush_row_segments<SR>(row, acc, y, mask);
}

}  // namespace spgraph::gpu::detail
