#pragma once
// The CSR stream kernel (after CSR-Stream in CSR-Adaptive, Greathouse & Daga 2014): each block
// takes the whole rows that end in one tile of the merge path (row ends and nonzeros,
// kStreamThreads * J items), streams their nonzeros into shared memory with every load issued
// before any is used, then reduces each row from shared memory and writes it once. It reads the
// matrix exactly once, needs no row ids, no atomics and no second pass, and sums every row in
// the same order on every run. A tile's first row, when too long for the stage, is reduced
// straight from global memory by the whole block. Included by the explicit-instantiation files
// in lib/src/gpu/spmv only.

#include "spgraph/gpu/spmv_kernels_impl.cuh"

namespace spgraph::gpu::detail {

// After staging, a thread sums a row of at most kStreamThreadRow entries on its own; a warp
// takes each longer one. A tile holds at most tile / (kStreamThreadRow + 1) longer rows.
inline constexpr int kStreamThreadRow = 16;

// The whole block reduces one row straight from global memory; the total is thread 0's.
template <class SR, class V, class Product>
__device__ __noinline__ Partial<SR, V> csr_stream_block_row(const eid_t* __restrict__ rowptr,
                                                            const vid_t* __restrict__ col, vid_t row, bool allowed,
                                                            Product product) {
  using P = Partial<SR, V>;
  constexpr int kWarps = kStreamThreads / 32;
  __shared__ P s_part[kWarps];
  const int tid = int(threadIdx.x);
  P acc = P::empty();
  if (allowed)
    accumulate_run(acc, __ldg(rowptr + row) + tid, __ldg(rowptr + row + 1), kStreamThreads,
                   [](eid_t p) { return p; }, col, product);
  acc = warp_merge<SR>(acc, 32);
  if ((tid & 31) == 0) s_part[tid >> 5] = acc;
  __syncthreads();
  if (tid == 0)
    for (int w = 1; w < kWarps; ++w) acc.merge(s_part[w]);
  __syncthreads();  // s_part is free again when this returns
  return acc;
}

// Block t takes rows [tile_rows[t], tile_rows[t+1]), those whose row end lies in path items
// [t * tile, (t+1) * tile) for tile = kStreamThreads * J. Only the first of them can start
// before the tile; the others' nonzeros lie inside it, so they fit the stage. When the first
// row's do not as well, the whole block sums it from global memory first.
// ValuesFirst: load every matrix value of the stage before any x (faster with values, slower
// without; gpu/spmv.hpp has the measurements).
template <class SR, class V, int J, bool ValuesFirst, class Product>
__global__ void __launch_bounds__(kStreamThreads)
    csr_stream_kernel(const eid_t* __restrict__ rowptr, const unsigned* __restrict__ rowptr_low,
                      const vid_t* __restrict__ col, const vid_t* __restrict__ tile_rows, Product product,
                      V* __restrict__ y, OutputMask<V> mask) {
  using P = Partial<SR, V>;
  constexpr int kTile = kStreamThreads * J;
  __shared__ V s_term[kTile];
  __shared__ int s_end[kTile];  // row ends relative to the staged rows' first nonzero
  __shared__ int s_warp_rows[kTile / (kStreamThreadRow + 1) + 1];
  __shared__ int s_nwarp_rows;
  const int tid = int(threadIdx.x);
  vid_t r0 = __ldg(tile_rows + blockIdx.x);
  const vid_t r1 = __ldg(tile_rows + blockIdx.x + 1);
  if (r0 == r1) return;  // a tile inside a long row; the tile where it ends takes it
  eid_t base = __ldg(rowptr + r0);
  if (__ldg(rowptr + r1) - base > kTile) {
    const bool allowed = mask.allows(r0);  // block-uniform
    const P total = csr_stream_block_row<SR, V>(rowptr, col, r0, allowed, product);
    if (tid == 0) write_output<SR>(y, r0, allowed, total, mask);
    ++r0;
    base = __ldg(rowptr + r0);
  }
  const int nrows = int(r1 - r0);
  const int nnz = int(__ldg(rowptr + r1) - base);
  if (tid == 0) s_nwarp_rows = 0;
  // Offsets within the stage are below 2^32, so the low 32 bits of rowptr give them exactly.
  const unsigned base_low = unsigned(base);
  vid_t cols[J];
  unsigned ends[J];
  V terms[J];
#pragma unroll
  for (int s = 0; s < J; ++s) {
    const int k = tid + kStreamThreads * s;
    cols[s] = k < nnz ? __ldcs(col + base + k) : 0;
    ends[s] = k < nrows ? __ldg(rowptr_low + r0 + 1 + k) : 0u;
    if constexpr (ValuesFirst) terms[s] = k < nnz ? product.matrix_value(base + k) : V(0);
  }
#pragma unroll
  for (int s = 0; s < J; ++s) {
    const int k = tid + kStreamThreads * s;
    if (k < nnz) terms[s] = ValuesFirst ? product.times_x(terms[s], cols[s]) : product(base + k, cols[s]);
  }
#pragma unroll
  for (int s = 0; s < J; ++s) {
    const int k = tid + kStreamThreads * s;
    if (k < nnz) s_term[k] = terms[s];
    if (k < nrows) s_end[k] = int(ends[s] - base_low);
  }
  __syncthreads();

  // A thread per short row (consecutive rows, so the writes coalesce); longer rows are listed
  // for the warps, so one long row does not hold up the 31 other rows of its warp.
  for (int r = tid; r < nrows; r += kStreamThreads) {
    const int first = r == 0 ? 0 : s_end[r - 1];
    const int last = s_end[r];
    if (last - first > kStreamThreadRow) {
      s_warp_rows[atomicAdd(&s_nwarp_rows, 1)] = r;
      continue;
    }
    const bool allowed = mask.allows(r0 + r);
    P acc = P::empty();
    if (allowed)
      for (int k = first; k < last; ++k) acc.add(s_term[k]);
    write_output<SR>(y, r0 + r, allowed, acc, mask);
  }
  __syncthreads();
  const int nwarp_rows = s_nwarp_rows;
  const int lane = tid & 31;
  for (int w = tid >> 5; w < nwarp_rows; w += kStreamThreads / 32) {
    const int r = s_warp_rows[w];
    const bool allowed = mask.allows(r0 + r);  // warp-uniform
    P acc = P::empty();
    if (allowed)
      for (int k = (r == 0 ? 0 : s_end[r - 1]) + lane; k < s_end[r]; k += 32) acc.add(s_term[k]);
    acc = warp_merge<SR>(acc, 32);
    if (lane == 0) write_output<SR>(y, r0 + r, allowed, acc, mask);
  }
}

}  // namespace spgraph::gpu::detail
