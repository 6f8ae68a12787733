#pragma once
// The SpMV kernels, generic over the semiring SR, the value type V and a Product that turns a
// stored entry (its slot in the format's arrays and its column k) into the term added for
// it. Included by the explicit-instantiation files in lib/src/gpu/spmv only.
//
// Arrays read once per product (column indices, values, COO row ids) are loaded with
// __ldcs (evict-first), so they do not push x out of L2; x, rowptr and the mask go through
// the read-only cache (__ldg).

#include <cooperative_groups.h>

#include <algorithm>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/device_info.hpp"
#include "gpu/common/semiring_device_impl.cuh"
#include "gpu/spmv/spmv_formats.hpp"

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

  // The parts, for kernels that issue the loads of a whole batch before using any.
  __device__ V matrix_value(eid_t slot) const {
    if constexpr (ReadValues) return ldcs(val + slot);
    else return V(1);
  }
  __device__ V vector_value(vid_t k) const {
    if constexpr (Order::template reads_vector<SR>) return ldg(x + k);
    else return V(0);
  }
  // x[k] by an ordinary load, for a kernel that starts before the one writing x completes
  // (device/dependent_launch.hpp) and reads x after waiting for it.
  __device__ V vector_value_after_wait(vid_t k) const {
    if constexpr (Order::template reads_vector<SR>) return ldca(x + k);
    else return V(0);
  }
  __device__ V times(V a, V b, vid_t k) const { return Order::template apply<SR, V>(a, b, k); }
  __device__ V operator()(eid_t slot, vid_t k) const { return times(matrix_value(slot), vector_value(k), k); }
};

template <class V>
__global__ void fill_kernel(V* __restrict__ y, eid_t n, V value) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = value;
}

inline unsigned blocks_of(eid_t threads, int block_threads) {
  return unsigned((threads + block_threads - 1) / block_threads);
}

// y[0..n) = value, on the default stream.
template <class V>
void fill(V* y, eid_t n, V value) {
  if (n == 0) return;
  fill_kernel<<<blocks_of(n, 256), 256>>>(y, n, value);
  SPGRAPH_CHECK_LAUNCH("fill_kernel");
}

// Before kernels that accumulate into y with atomics: allowed rows (and, with replace, the
// others) start from the identity.
template <class SR, class V>
__device__ __forceinline__ void init_output_row(V* __restrict__ y, vid_t i, const OutputMask<V>& mask) {
  if (mask.replace || mask.allows(i)) y[i] = SR::template identity<V>();
}

template <class SR, class V>
__global__ void init_output_kernel(V* __restrict__ y, vid_t nrows, OutputMask<V> mask) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < nrows) init_output_row<SR>(y, vid_t(i), mask);
}

// acc += the terms of items k = first, first + stride, ... < end of one lane's run, where item
// k sits at slot_of(k). Loads kUnroll items before using any: a lane walking a long row alone
// would otherwise wait a full memory round trip (column id, then x) per item.
inline constexpr int kUnroll = 4;

// ColumnAt(slot) loads the column of the entry at a slot (with __ldcs), for formats that store
// columns other than as vid_t (AMB's 16-bit offsets).
template <class SR, class V, class SlotOf, class ColumnAt, class Product>
__device__ __forceinline__ void accumulate_run_columns(Partial<SR, V>& acc, eid_t first, eid_t end, eid_t stride,
                                                       SlotOf slot_of, ColumnAt column_at, const Product& product) {
  for (eid_t k = first; k < end; k += kUnroll * stride) {
    eid_t slots[kUnroll];
    vid_t cols[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      slots[u] = slot_of(k + u * stride);
      cols[u] = k + u * stride < end ? column_at(slots[u]) : 0;
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
      if (k + u * stride < end) acc.add(product(slots[u], cols[u]));
  }
}

template <class SR, class V, class SlotOf, class Product>
__device__ __forceinline__ void accumulate_run(Partial<SR, V>& acc, eid_t first, eid_t end, eid_t stride,
                                               SlotOf slot_of, const vid_t* __restrict__ col,
                                               const Product& product) {
  accumulate_run_columns(acc, first, end, stride, slot_of, [col](eid_t slot) { return __ldcs(col + slot); }, product);
}

// The merge of the partials of `width` consecutive lanes (a power of two up to 32), in every one
// of them. Every lane of the warp must take part.
template <class SR, class V>
__device__ __forceinline__ Partial<SR, V> warp_merge(Partial<SR, V> p, int width) {
  for (int offset = width >> 1; offset > 0; offset >>= 1) p.merge(p.shfl_xor(offset));
  return p;
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
    accumulate_run(acc, __ldg(rowptr + row) + lane, __ldg(rowptr + row + 1), subwarp, [](eid_t p) { return p; }, col,
                   product);
  }
  // Every lane of the warp takes part (no early exit above), as the full-mask shuffles need.
  acc = warp_merge<SR>(acc, subwarp);
  if (active && lane == 0) write_output<SR>(y, row, allowed, acc, mask);
}

// ---- CSR merge path, one warp per tile ---------------------------------------------------
// The merge path of the row ends rowptr[1..n] with the nonzero indices 0..nnz-1 (Merrill &
// Garland) is cut into tiles of 32 * J items, one per warp; merge_tile_rows[t] is the number of
// rows finished before tile t. A warp first issues every global load of its tile (row ends and
// column ids coalesced, then the J values and x gathers per lane), so each lane has J
// independent loads in flight instead of one dependent chain per item, and stages row ends and
// terms in shared memory. Each lane then walks J consecutive path items, writing the rows it
// finishes; a segmented scan over the lanes (shuffles) joins rows cut between lanes.
//
// A row cut by a tile seam is written by the tile where it ends, with that tile's part only;
// each tile leaves its part of the row it does not finish in carries[t], and
// merge_path_fixup_kernel adds those afterwards. (A single-kernel decoupled look-back over the
// earlier tiles' carries was 1.5x slower: tiles waited on their neighbours;
// docs/performance/spmv.md.)
template <class SR, class V>
struct RowCarry {
  vid_t row;
  Partial<SR, V> partial;
};

// Path coordinate of diagonal `diag`: the number of row ends taken before it, where row i
// ends at row_end(i) and the merge takes a row end before nonzero j when row_end(i) <= j.
template <class RowEnd>
__device__ __forceinline__ eid_t merge_path_search(eid_t diag, eid_t nrows, eid_t nnz, RowEnd row_end) {
  eid_t lo = diag > nnz ? diag - nnz : 0;
  eid_t hi = diag < nrows ? diag : nrows;
  while (lo < hi) {
    const eid_t mid = (lo + hi) >> 1;
    if (row_end(mid) <= diag - mid - 1) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

inline constexpr int kMergePathWarps = 8;  // tiles per block of kMergePathWarps * 32 threads

template <class SR, class V, int J, class Product>
__global__ void __launch_bounds__(kMergePathWarps * 32)
    merge_path_kernel(const unsigned* __restrict__ rowptr_low, const vid_t* __restrict__ col, vid_t nrows, eid_t nnz,
                      const vid_t* __restrict__ tile_rows, eid_t ntiles, Product product, V* __restrict__ y,
                      OutputMask<V> mask, RowCarry<SR, V>* __restrict__ carries) {
  using P = Partial<SR, V>;
  constexpr int T = 32 * J;
  __shared__ int s_end[kMergePathWarps][T];  // row ends relative to the tile's first nonzero
  __shared__ V s_term[kMergePathWarps][T];
  __shared__ bool s_allow[kMergePathWarps][T];  // with a mask only
  const int warp = int(threadIdx.x) >> 5;
  const int lane = int(threadIdx.x) & 31;
  const eid_t tile = eid_t(blockIdx.x) * kMergePathWarps + warp;
  if (tile >= ntiles) return;  // the whole warp; nothing below waits on other warps of the block
  int* ends = s_end[warp];
  V* terms = s_term[warp];
  bool* allow = s_allow[warp];

  const vid_t row_begin = __ldg(tile_rows + tile);
  const int tile_nrows = int(__ldg(tile_rows + tile + 1) - row_begin);
  const eid_t diag_begin = tile * T;
  const eid_t path_left = eid_t(nrows) + nnz - diag_begin;
  const int tile_length = path_left < T ? int(path_left) : T;
  const int tile_nnz = tile_length - tile_nrows;
  const eid_t nz_begin = diag_begin - row_begin;

  const bool masked = mask.values != nullptr;
  // Offsets within a tile are small, so the low 32 bits of rowptr give them exactly (mod 2^32).
  const unsigned nz_begin_low = unsigned(nz_begin);
  unsigned row_ends[J];
  vid_t cols[J];
  bool allowed[J];
  V t[J];
#pragma unroll
  for (int s = 0; s < J; ++s) {
    const int k = lane + 32 * s;
    row_ends[s] = k < tile_nrows ? __ldg(rowptr_low + row_begin + 1 + k) : 0u;
    cols[s] = k < tile_nnz ? __ldcs(col + nz_begin + k) : 0;
    allowed[s] = masked && k < tile_nrows && mask.allows(row_begin + k);
  }
#pragma unroll
  for (int s = 0; s < J; ++s) {
    const int k = lane + 32 * s;
    if (k < tile_nnz) t[s] = product(nz_begin + k, cols[s]);
  }
#pragma unroll
  for (int s = 0; s < J; ++s) {
    const int k = lane + 32 * s;
    if (k < tile_nnz) terms[k] = t[s];
    if (k < tile_nrows) {
      ends[k] = int(row_ends[s] - nz_begin_low);
      if (masked) allow[k] = allowed[s];
    }
  }
  __syncwarp();

  auto write_row = [&](int r, const P& p) {
    write_output<SR>(y, row_begin + r, !masked || allow[r], p, mask);
  };
  // This lane's path items [diag, diag + steps): row end i is taken before nonzero j when
  // ends[i] <= j.
  const int diag = min(lane * J, tile_length);
  int i = max(0, diag - tile_nnz);
  for (int hi = min(diag, tile_nrows); i < hi;) {
    const int mid = (i + hi) >> 1;
    if (ends[mid] <= diag - mid - 1) i = mid + 1;
    else hi = mid;
  }
  int j = diag - i;
  const int first_row = i;
  const int steps = min(J, tile_length - diag);
  P acc = P::empty();
  P first_part = P::empty();  // this lane's part of first_row, which earlier lanes may share
#pragma unroll
  for (int s = 0; s < J; ++s) {
    if (s < steps) {
      // The path stays inside the tile, so j < tile_nnz whenever a nonzero is taken.
      if (i < tile_nrows && ends[i] <= j) {
        if (i == first_row) first_part = acc;
        else write_row(i, acc);
        acc = P::empty();
        ++i;
      } else {
        acc.add(terms[j]);
        ++j;
      }
    }
  }

  // Segmented inclusive scan over lanes keyed by the unfinished row (non-decreasing in lane):
  // lane l - 1's result is what the lanes before l hold of l's first row.
  P run = acc;
#pragma unroll
  for (int offset = 1; offset < 32; offset <<= 1) {
    P before = run.shfl_up(offset);
    const int before_row = __shfl_up_sync(kFullWarp, i, offset);
    if (lane >= offset && before_row == i) {
      before.merge(run);
      run = before;
    }
  }
  P carry_in = run.shfl_up(1);
  if (lane == 0) carry_in = P::empty();
  // Lane 31 ends at the tile's end, in the row the tile leaves unfinished.
  const P tile_carry = run.shfl(31);
  if (lane == 0) carries[tile] = RowCarry<SR, V>{row_begin + tile_nrows, tile_carry};
  if (i > first_row) {
    P v = carry_in;
    v.merge(first_part);
    write_row(first_row, v);
  }
}

// Adds each tile's carry to its row, which the tile that finished it wrote. Several tiles can
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
// merges the run into y with one atomic; a run keyed kNoRow (lanes without work) writes nothing.
inline constexpr vid_t kNoRow = vid_t(-1);

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
  if (head && row != kNoRow && p.present() && mask.allows(row)) atomic_merge<SR>(y + row, p);
}

// A warp takes nonzeros [begin, begin + warp_chunk), 32 consecutive ones per step. A lane
// keeps adding into its partial while its row stays the same; when any lane's row changes,
// the warp flushes its row segments. begin must be the same for the whole warp.
template <class SR, class V, class Product>
__device__ __forceinline__ void coo_warp_chunk(eid_t begin, const vid_t* __restrict__ row_ids,
                                               const vid_t* __restrict__ col, eid_t nnz, eid_t warp_chunk,
                                               const Product& product, V* __restrict__ y,
                                               const OutputMask<V>& mask) {
  using P = Partial<SR, V>;
  const int lane = int(threadIdx.x) & 31;
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

// Nonzeros per warp of the COO kernel when at most max_warps warps share nnz: a multiple of
// 32, as even as that allows.
inline eid_t coo_warp_chunk_size(eid_t nnz, eid_t max_warps) {
  const eid_t groups = (nnz + 31) / 32;
  const eid_t warps = groups < max_warps ? groups : max_warps;
  return warps == 0 ? 32 : (groups + warps - 1) / warps * 32;
}

// A one-launch COO kernel of `threads` a block: enough blocks for a thread per row and a warp
// per 32 nonzeros, at most the `resident` ones (a cooperative launch), and each warp's chunk.
struct CooSingleLaunchShape {
  int grid;
  eid_t warp_chunk;
};
inline CooSingleLaunchShape coo_single_launch_shape(vid_t nrows, eid_t nnz, int threads, int resident) {
  const eid_t wanted = std::max(eid_t(blocks_of(nrows, threads)), eid_t(blocks_of(nnz, threads)));
  const int grid = int(std::min(wanted, eid_t(resident)));
  return {grid, coo_warp_chunk_size(nnz, eid_t(grid) * (threads / 32))};
}

// Warp w takes chunk w.
template <class SR, class V, class Product>
__global__ void __launch_bounds__(256)
    coo_kernel(const vid_t* __restrict__ row_ids, const vid_t* __restrict__ col, eid_t nnz, eid_t warp_chunk,
               Product product, V* __restrict__ y, OutputMask<V> mask) {
  const eid_t begin = ((eid_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5) * warp_chunk;
  if (begin >= nnz) return;  // the whole warp leaves together
  coo_warp_chunk<SR>(begin, row_ids, col, nnz, warp_chunk, product, y, mask);
}

// y (+)= the terms of nnz COO entries, with enough warps for two full waves of the device. y
// already holds what each allowed row starts from (init_output_kernel's identity, or a chain's
// pass put it back: gpu::MxvReducer).
template <class SR, class V, class Product>
void launch_coo_kernel(const vid_t* row_ids, const vid_t* col, eid_t nnz, Product product, V* y,
                       OutputMask<V> mask) {
  if (nnz == 0) return;
  constexpr int kThreads = 256;
  const eid_t chunk = coo_warp_chunk_size(nnz, eid_t(device::multiprocessor_count()) * 64 * 2);
  const eid_t launched = (nnz + chunk - 1) / chunk;
  coo_kernel<SR, V><<<blocks_of(launched * 32, kThreads), kThreads>>>(row_ids, col, nnz, chunk, product, y, mask);
  SPGRAPH_CHECK_LAUNCH("coo_kernel");
}

// COO in one launch: y's initialisation, a grid-wide barrier, then warp w takes chunk w (at
// most one a warp). Launched cooperatively, with at most the resident blocks.
template <class SR, class V, class Product>
__global__ void __launch_bounds__(256)
    coo_single_launch_kernel(const vid_t* __restrict__ row_ids, const vid_t* __restrict__ col, eid_t nnz,
                             eid_t warp_chunk, Product product, V* __restrict__ y, vid_t nrows, OutputMask<V> mask) {
  const eid_t thread = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (eid_t i = thread; i < nrows; i += eid_t(gridDim.x) * blockDim.x) init_output_row<SR>(y, vid_t(i), mask);
  cooperative_groups::this_grid().sync();
  const eid_t begin = (thread >> 5) * warp_chunk;
  if (begin < nnz) coo_warp_chunk<SR>(begin, row_ids, col, nnz, warp_chunk, product, y, mask);
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
    const eid_t base = __ldg(slice_ptr + slice) + lane;
    accumulate_run(acc, t, __ldg(row_len + row), threads_per_row,
                   [base](eid_t k) { return base + k * kSliceHeight; }, col, product);
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
    accumulate_run(acc, 0, min(__ldg(row_len + row), ell_width), 1,
                   [nrows, row](eid_t k) { return k * nrows + row; }, ell_col, product);
  }
  write_output<SR>(y, row, allowed, acc, mask);
}

}  // namespace spgraph::gpu::detail
