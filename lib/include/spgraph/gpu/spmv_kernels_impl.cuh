#pragma once
// The SpMV kernels, generic over the semiring SR, the value type V and a Product that turns a
// stored entry (its slot in the format's arrays and its column k) into the term added for
// it. Included by the explicit-instantiation files in lib/src/gpu/spmv only.
//
// Arrays read once per product (column indices, values, COO row ids) are loaded with
// __ldcs (evict-first), so they do not push x out of L2; x, rowptr and the mask go through
// the read-only cache (__ldg).
#include <cub/block/block_scan.cuh>

#include "spgraph/gpu/semiring_device_impl.cuh"
#include "spgraph/gpu/spmv.hpp"

namespace spgraph::gpu::detail {

// Operand order. mxv multiplies A(i,k) (x) x(k); vxm multiplies x(k) (x) A(k,j) and runs on
// A', so there the matrix is the multiply op's second operand.
struct MatrixFirst {
  template <class SR> static constexpr bool reads_matrix = SR::multiply_op::uses_a;
  template <class SR> static constexpr bool reads_vector = SR::multiply_op::uses_b;
  template <class SR, class V>
  __device__ static V apply(V a, V x, vid_t k) { return SR::template multiply<V>(a, x, k); }
};
struct VectorFirst {
  template <class SR> static constexpr bool reads_matrix = SR::multiply_op::uses_b;
  template <class SR> static constexpr bool reads_vector = SR::multiply_op::uses_a;
  template <class SR, class V>
  __device__ static V apply(V a, V x, vid_t k) { return SR::template multiply<V>(x, a, k); }
};

// The term of one stored entry. Without ReadValues (a pattern matrix, or an op that ignores
// the matrix operand) the entry is 1 and no value is loaded; x is loaded only when the op
// reads it.
template <class SR, class V, class Order, bool ReadValues>
struct EntryProduct {
  const V* val;  // indexed like the format's column array
  const V* x;

  __device__ V operator()(eid_t slot, vid_t k) const {
    V a = V(1);
    if constexpr (ReadValues) a = __ldcs(val + slot);
    V b = V(0);
    if constexpr (Order::template reads_vector<SR>) b = __ldg(x + k);
    return Order::template apply<SR, V>(a, b, k);
  }
};

template <class V>
__global__ void fill_kernel(V* __restrict__ y, eid_t n, V value) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = value;
}

// Before kernels that accumulate into y with atomics: allowed rows (and, with replace, the
// others) start from the identity.
template <class SR, class V>
__global__ void init_output_kernel(V* __restrict__ y, vid_t nrows, OutputMask<V> mask) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < nrows && (mask.replace || mask.allows(vid_t(i)))) y[i] = SR::template identity<V>();
}

// ---- CSR vector: a sub-warp of 2^subwarp_log2 lanes per row --------------------------------
template <class SR, class V, class Product>
__global__ void __launch_bounds__(256)
    csr_vector_kernel(const eid_t* __restrict__ rowptr, const vid_t* __restrict__ col, vid_t nrows,
                      int subwarp_log2, Product product, V* __restrict__ y, OutputMask<V> mask) {
  using P = Partial<SR, V>;
  const eid_t thread = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const int subwarp = 1 << subwarp_log2;
  const int lane = int(threadIdx.x) & (subwarp - 1);
  const eid_t row_id = thread >> subwarp_log2;
  const bool active = row_id < nrows;
  const vid_t row = active ? vid_t(row_id) : 0;
  const bool allowed = active && mask.allows(row);
  P acc = P::empty();
  if (allowed) {
    const eid_t end = __ldg(rowptr + row + 1);
    for (eid_t p = __ldg(rowptr + row) + lane; p < end; p += subwarp) acc.add(product(p, __ldcs(col + p)));
  }
  // Every lane of the warp takes part (no early exit above), as the full-mask shuffles need.
  for (int offset = subwarp >> 1; offset > 0; offset >>= 1) acc.merge(acc.shfl_xor(offset));
  if (active && lane == 0) write_output<SR>(y, row, allowed, acc, mask);
}

// ---- CSR merge path ---------------------------------------------------------------------
// The merge path of the row ends rowptr[1..n] with the nonzero indices 0..nnz-1 is cut into
// tiles of kMergePathTile items; merge_tile_rows[t] is the number of rows finished before tile
// t. Each tile stages its row ends and its products in shared memory, every thread walks 8
// path items, a block-wide reduce-by-key joins rows cut between threads, and rows finished in
// the tile are written once, coalesced. A row cut by a tile seam gets the earlier tiles'
// parts from their carries in merge_path_fixup_kernel.
template <class SR, class V>
struct RowCarry {
  vid_t row;
  Partial<SR, V> partial;
};

// Reduce-by-key over non-decreasing keys: associative, so a block scan can use it.
template <class SR, class V>
struct MergeSameRow {
  __device__ RowCarry<SR, V> operator()(const RowCarry<SR, V>& a, const RowCarry<SR, V>& b) const {
    if (a.row != b.row) return b;
    RowCarry<SR, V> r = a;
    r.partial.merge(b.partial);
    return r;
  }
};

// Path coordinate of diagonal `diag`: the number of row ends taken before it, where row i
// ends at row_end(i) and the merge takes a row end before nonzero j when row_end(i) <= j.
template <class RowEnd>
__device__ __forceinline__ eid_t merge_path_search(eid_t diag, eid_t nrows, eid_t nnz, eid_t nz_offset,
                                                   RowEnd row_end) {
  eid_t lo = diag > nnz ? diag - nnz : 0;
  eid_t hi = diag < nrows ? diag : nrows;
  while (lo < hi) {
    const eid_t mid = (lo + hi) >> 1;
    if (row_end(mid) <= nz_offset + diag - mid - 1) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

template <class SR, class V, class Product>
__global__ void __launch_bounds__(kMergePathThreads)
    merge_path_kernel(const eid_t* __restrict__ rowptr, const vid_t* __restrict__ col, vid_t nrows, eid_t nnz,
                      const vid_t* __restrict__ tile_rows, Product product, V* __restrict__ y, OutputMask<V> mask,
                      RowCarry<SR, V>* __restrict__ carries) {
  using P = Partial<SR, V>;
  using Carry = RowCarry<SR, V>;
  using Scan = cub::BlockScan<Carry, kMergePathThreads>;
  __shared__ eid_t s_row_end[kMergePathTile];
  __shared__ V s_term[kMergePathTile];
  __shared__ P s_row[kMergePathTile];
  __shared__ typename Scan::TempStorage scan_storage;

  const eid_t tile = blockIdx.x;
  const vid_t row_begin = tile_rows[tile];
  const vid_t row_end = tile_rows[tile + 1];
  const eid_t diag_begin = tile * kMergePathTile;
  const eid_t path_length = eid_t(nrows) + nnz;
  const eid_t diag_end = diag_begin + kMergePathTile < path_length ? diag_begin + kMergePathTile : path_length;
  const eid_t nz_begin = diag_begin - row_begin;
  const int tile_nrows = row_end - row_begin;
  const int tile_nnz = int(diag_end - row_end - nz_begin);

  for (int k = threadIdx.x; k < tile_nrows; k += kMergePathThreads) s_row_end[k] = __ldg(rowptr + row_begin + 1 + k);
  for (int k = threadIdx.x; k < tile_nnz; k += kMergePathThreads) {
    const eid_t p = nz_begin + k;
    s_term[k] = product(p, __ldcs(col + p));
  }
  __syncthreads();

  const int tile_length = tile_nrows + tile_nnz;
  const int diag = min(int(threadIdx.x) * kMergePathItemsPerThread, tile_length);
  const eid_t* row_ends = s_row_end;
  int i = int(merge_path_search(diag, tile_nrows, tile_nnz, nz_begin, [row_ends](eid_t r) { return row_ends[r]; }));
  int j = diag - i;
  const int first_row = i;
  const int steps = min(kMergePathItemsPerThread, tile_length - diag);
  P acc = P::empty();
#pragma unroll
  for (int s = 0; s < kMergePathItemsPerThread; ++s) {
    if (s < steps) {
      // The path stays inside the tile, so j < tile_nnz whenever a nonzero is taken.
      if (i < tile_nrows && s_row_end[i] <= nz_begin + j) {
        s_row[i] = acc;
        acc = P::empty();
        ++i;
      } else {
        acc.add(s_term[j]);
        ++j;
      }
    }
  }

  // Thread t's carry (its last, unfinished row) belongs to the row where thread t+1 starts;
  // the exclusive scan hands each thread the merged carries of the threads before it that
  // ended in its first row. The block total is the tile's carry into row `row_end`.
  Carry carry_in, tile_carry;
  Scan(scan_storage).ExclusiveScan(Carry{vid_t(i), acc}, carry_in, MergeSameRow<SR, V>{}, tile_carry);
  if (threadIdx.x > 0 && i > first_row) {
    P head = carry_in.partial;
    head.merge(s_row[first_row]);
    s_row[first_row] = head;
  }
  __syncthreads();
  for (int k = threadIdx.x; k < tile_nrows; k += kMergePathThreads) {
    const vid_t row = row_begin + k;
    write_output<SR>(y, row, mask.allows(row), s_row[k], mask);
  }
  if (threadIdx.x == 0) carries[tile] = Carry{row_end, tile_carry.partial};
}

// Adds each tile's carry to its row (written by the tile that finished it). Several tiles can
// carry into one long row, hence atomics; there is one carry per tile.
template <class SR, class V>
__global__ void merge_path_fixup_kernel(const RowCarry<SR, V>* __restrict__ carries, eid_t ntiles, vid_t nrows,
                                        V* __restrict__ y, OutputMask<V> mask) {
  const eid_t t = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= ntiles) return;
  const RowCarry<SR, V> c = carries[t];
  if (c.row < nrows && c.partial.present() && mask.allows(c.row)) atomic_merge<SR>(y + c.row, c.partial);
}

// ---- COO, load-balanced (Anzt et al. 2020, Algorithm 1) ------------------------------------
// Lanes hold partials keyed by row. Reduces each run of equal keys across the warp (runs are
// found from head flags, so keys need not be sorted across lanes) and the run's first lane
// merges the run into y with one atomic.
template <class SR, class V>
__device__ __forceinline__ void flush_row_segments(vid_t row, Partial<SR, V> p, V* y, const OutputMask<V>& mask) {
  const int lane = int(threadIdx.x) & 31;
  const vid_t previous = __shfl_up_sync(kFullWarp, row, 1);
  const bool head = lane == 0 || previous != row;
  const unsigned heads = __ballot_sync(kFullWarp, head);
  const unsigned later_heads = lane == 31 ? 0u : heads & (~0u << (lane + 1));
  const int segment_end = later_heads ? __ffs(int(later_heads)) - 1 : 32;
  // Suffix scan within the run: afterwards lane l holds the run's entries from l to its end.
#pragma unroll
  for (int offset = 1; offset < 32; offset <<= 1) {
    const Partial<SR, V> other = p.shfl_down(offset);
    if (lane + offset < segment_end) p.merge(other);
  }
  if (head && p.present() && mask.allows(row)) atomic_merge<SR>(y + row, p);
}

// Warp w takes nonzeros [w * warp_chunk, (w+1) * warp_chunk), 32 consecutive ones per step.
// A lane keeps adding into its partial while its row stays the same; when any lane's row
// changes, the warp flushes its row segments.
template <class SR, class V, class Product>
__global__ void __launch_bounds__(256)
    coo_kernel(const vid_t* __restrict__ row_ids, const vid_t* __restrict__ col, eid_t nnz, eid_t warp_chunk,
               Product product, V* __restrict__ y, OutputMask<V> mask) {
  using P = Partial<SR, V>;
  const eid_t warp = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = int(threadIdx.x) & 31;
  const eid_t begin = warp * warp_chunk;
  if (begin >= nnz) return;  // the whole warp leaves together
  const eid_t end = begin + warp_chunk < nnz ? begin + warp_chunk : nnz;
  vid_t row = __ldg(row_ids + (begin + lane < end ? begin + lane : end - 1));
  P acc = P::empty();
  for (eid_t base = begin; base < end; base += 32) {
    const eid_t p = base + lane;
    const bool valid = p < end;
    const vid_t next_row = valid ? __ldcs(row_ids + p) : row;
    if (__any_sync(kFullWarp, next_row != row)) {
      flush_row_segments<SR>(row, acc, y, mask);
      acc = P::empty();
    }
    row = next_row;
    if (valid) acc.add(product(p, __ldcs(col + p)));
  }
  flush_row_segments<SR>(row, acc, y, mask);
}

// ---- SELL-P -----------------------------------------------------------------------------
// A block of 8 warps covers 8/T slices; the T warps of a slice take every T-th column of it
// (lane = row within the slice, so each step reads 32 consecutive slots) and combine their
// partials in shared memory.
inline constexpr int kSellPThreads = 256;
inline constexpr int kSliceHeight = 32;

template <class SR, class V, class Product>
__global__ void __launch_bounds__(kSellPThreads)
    sellp_kernel(const eid_t* __restrict__ slice_ptr, const vid_t* __restrict__ col,
                 const vid_t* __restrict__ row_len, vid_t nrows, int threads_per_row, Product product,
                 V* __restrict__ y, OutputMask<V> mask) {
  using P = Partial<SR, V>;
  constexpr int kWarps = kSellPThreads / 32;
  __shared__ P s_part[kWarps][32];
  const int warp = int(threadIdx.x) >> 5;
  const int lane = int(threadIdx.x) & 31;
  const int t = warp % threads_per_row;
  const eid_t slice = eid_t(blockIdx.x) * (kWarps / threads_per_row) + warp / threads_per_row;
  const eid_t row_id = slice * kSliceHeight + lane;
  const bool active = row_id < nrows;
  const vid_t row = active ? vid_t(row_id) : 0;
  const bool allowed = active && mask.allows(row);
  P acc = P::empty();
  if (allowed) {
    const vid_t len = __ldg(row_len + row);
    const eid_t base = __ldg(slice_ptr + slice) + lane;
    for (vid_t k = t; k < len; k += threads_per_row) {
      const eid_t slot = base + eid_t(k) * kSliceHeight;
      acc.add(product(slot, __ldcs(col + slot)));
    }
  }
  if (threads_per_row > 1) {  // uniform over the block
    s_part[warp][lane] = acc;
    __syncthreads();
    if (t == 0)
      for (int u = 1; u < threads_per_row; ++u) acc.merge(s_part[warp + u][lane]);
  }
  if (t == 0 && active) write_output<SR>(y, row, allowed, acc, mask);
}

// ---- HYB: the ELL part writes every row; the COO part (coo_kernel) then adds to it ----------
template <class SR, class V, class Product>
__global__ void __launch_bounds__(256)
    ell_kernel(const vid_t* __restrict__ ell_col, const vid_t* __restrict__ row_len, vid_t ell_width, vid_t nrows,
               Product product, V* __restrict__ y, OutputMask<V> mask) {
  using P = Partial<SR, V>;
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= nrows) return;
  const vid_t row = vid_t(i);
  const bool allowed = mask.allows(row);
  P acc = P::empty();
  if (allowed) {
    const vid_t len = min(__ldg(row_len + row), ell_width);
    for (vid_t k = 0; k < len; ++k) {
      const eid_t slot = eid_t(k) * nrows + row;
      acc.add(product(slot, __ldcs(ell_col + slot)));
    }
  }
  write_output<SR>(y, row, allowed, acc, mask);
}

}  // namespace spgraph::gpu::detail
