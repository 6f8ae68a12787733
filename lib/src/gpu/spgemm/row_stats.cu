// Per-row product counts and column ranges of A*B (with the hash product's symbolic grouping
// in the same sweep), per-entry product offsets, and count_products.
#include <climits>
#include <string>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/spgemm.hpp"
#include "gpu/spgemm/device_ops.cuh"
#include "gpu/spgemm/internal.hpp"

namespace spgraph::gpu::spgemm_detail {
namespace {

// Most graph rows are short; 8 lanes keep a warp busy on 4 rows (4 lanes a row gave no net
// gain: docs/performance/spgemm.md).
constexpr int kLanesPerRow = 8;
constexpr int kStatsThreads = 256;
constexpr int kStatsUnroll = 4;

// A row longer than this many entries of A (8 rounds of its lanes) is summed by the whole
// block after the short rows, instead of by its 8 lanes: a hub row (1375 entries in
// email-Enron) is otherwise a chain of 43 dependent load rounds, which the whole kernel and
// the host, waiting for the group counts, wait for.
constexpr eid_t kStatsLongRow = 8 * kLanesPerRow * kStatsUnroll;

// Adds the products, and the smallest and largest column they reach, of entries j0, j0 +
// step, ... < a1 of A. Each load stage is issued for kStatsUnroll entries before the next, so
// their latencies overlap: one entry at a time, email-Enron's hub row was a chain of 172
// dependent load triples on its 8 lanes.
__device__ __forceinline__ void add_entry_stats(const Structure& a, const Structure& b, eid_t j0, eid_t a1, eid_t step,
                                                eid_t& p, vid_t& lo, vid_t& hi) {
  for (; j0 < a1; j0 += step * kStatsUnroll) {
    vid_t k[kStatsUnroll];
    eid_t b0[kStatsUnroll], b1[kStatsUnroll];
#pragma unroll
    for (int u = 0; u < kStatsUnroll; ++u) {
      const eid_t j = j0 + u * step;
      k[u] = j < a1 ? a.col[j] : 0;
    }
#pragma unroll
    for (int u = 0; u < kStatsUnroll; ++u) {
      const bool in = j0 + u * step < a1;
      b0[u] = in ? b.rowptr[k[u]] : 0;
      b1[u] = in ? b.rowptr[k[u] + 1] : 0;
    }
#pragma unroll
    for (int u = 0; u < kStatsUnroll; ++u) {
      if (b1[u] > b0[u]) {
        p += b1[u] - b0[u];
        lo = min(lo, b.col[b0[u]]);
        hi = max(hi, b.col[b1[u] - 1]);
      }
    }
  }
}

// GROUP_ROWS: also group[row] = symbolic_group(...), with the block's counts per group and its
// products added to the counters.
// (B's row spans packed in 16 bytes, and skipping the span for short rows with a second sweep
// for the others, gained nothing that mattered: docs/performance/spgemm.md.)
template <bool GROUP_ROWS>
__global__ void __launch_bounds__(kStatsThreads)
    row_stats_kernel(Structure a, Structure b, bool force_global, eid_t* products, vid_t* min_col, vid_t* max_col,
                     std::uint8_t* group, HashCounters* counters) {
  constexpr int kRowsPerBlock = kStatsThreads / kLanesPerRow;
  __shared__ unsigned long long block_products;
  __shared__ unsigned block_rows[kGroups];
  __shared__ vid_t long_rows[kRowsPerBlock];
  __shared__ int nlong;
  __shared__ unsigned long long long_p;
  __shared__ int long_lo, long_hi;
  if (threadIdx.x < kGroups) block_rows[threadIdx.x] = 0;
  if (threadIdx.x == 0) block_products = nlong = 0;
  __syncthreads();
  const auto finish_row = [&](vid_t row, eid_t p, vid_t lo, vid_t hi) {
    products[row] = p;
    min_col[row] = p ? lo : 0;
    max_col[row] = p ? hi : 0;
    if constexpr (GROUP_ROWS) {
      const eid_t span = p ? eid_t(hi) - lo + 1 : 0;
      const int g = symbolic_group(p, min(p, min(span, eid_t(b.ncols))), force_global);
      group[row] = static_cast<std::uint8_t>(g);
      if (g < kGroups) atomicAdd(&block_rows[g], 1u);
      if (p) atomicAdd(&block_products, static_cast<unsigned long long>(p));
    }
  };

  const eid_t row = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) / kLanesPerRow;
  const int lane = threadIdx.x % kLanesPerRow;
  eid_t p = 0;
  vid_t lo = INT_MAX, hi = -1;
  bool is_long = false;
  if (row < a.nrows) {
    const eid_t a0 = a.rowptr[row], a1 = a.rowptr[row + 1];
    is_long = a1 - a0 > kStatsLongRow;
    if (!is_long) add_entry_stats(a, b, a0 + lane, a1, kLanesPerRow, p, lo, hi);
  }
  // Every lane of the warp reaches the shuffles (no early exit above).
  for (int off = kLanesPerRow / 2; off > 0; off >>= 1) {
    p += __shfl_xor_sync(kFullMask, p, off);
    lo = min(lo, __shfl_xor_sync(kFullMask, lo, off));
    hi = max(hi, __shfl_xor_sync(kFullMask, hi, off));
  }
  if (row < a.nrows && lane == 0) {
    if (is_long) long_rows[atomicAdd(&nlong, 1)] = static_cast<vid_t>(row);
    else finish_row(static_cast<vid_t>(row), p, lo, hi);
  }
  __syncthreads();

  for (int r = 0; r < nlong; ++r) {
    const vid_t lrow = long_rows[r];
    if (threadIdx.x == 0) {
      long_p = 0;
      long_lo = INT_MAX;
      long_hi = -1;
    }
    __syncthreads();
    p = 0;
    lo = INT_MAX;
    hi = -1;
    add_entry_stats(a, b, a.rowptr[lrow] + threadIdx.x, a.rowptr[lrow + 1], kStatsThreads, p, lo, hi);
    for (int off = 16; off > 0; off >>= 1) {
      p += __shfl_xor_sync(kFullMask, p, off);
      lo = min(lo, __shfl_xor_sync(kFullMask, lo, off));
      hi = max(hi, __shfl_xor_sync(kFullMask, hi, off));
    }
    if (threadIdx.x % 32 == 0) {
      atomicAdd(&long_p, static_cast<unsigned long long>(p));
      atomicMin(&long_lo, lo);
      atomicMax(&long_hi, hi);
    }
    __syncthreads();
    if (threadIdx.x == 0) finish_row(lrow, static_cast<eid_t>(long_p), long_lo, long_hi);
    __syncthreads();  // long_p and the others are reset for the next row
  }

  if constexpr (GROUP_ROWS) {
    if (threadIdx.x < kGroups && block_rows[threadIdx.x])
      atomicAdd(&counters->symbolic_rows[threadIdx.x], static_cast<unsigned long long>(block_rows[threadIdx.x]));
    if (threadIdx.x == 0 && block_products) atomicAdd(&counters->total_products, block_products);
  }
}

template <bool GROUP_ROWS>
RowStats launch_row_stats(const Structure& a, const Structure& b, bool force_global, std::uint8_t* group,
                          HashCounters* counters, cudaStream_t stream) {
  RowStats s;
  s.products = device::Buffer<eid_t>(a.nrows, stream);
  s.min_col = device::Buffer<vid_t>(a.nrows, stream);
  s.max_col = device::Buffer<vid_t>(a.nrows, stream);
  if (a.nrows == 0) return s;
  const eid_t blocks = (eid_t(a.nrows) * kLanesPerRow + kStatsThreads - 1) / kStatsThreads;
  row_stats_kernel<GROUP_ROWS><<<static_cast<unsigned>(blocks), kStatsThreads, 0, stream>>>(
      a, b, force_global, s.products.data(), s.min_col.data(), s.max_col.data(), group, counters);
  SPGRAPH_CHECK_LAUNCH("row_stats_kernel");
  return s;
}

__global__ void entry_lengths_kernel(Structure a, Structure b, eid_t* len) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t e = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; e <= a.nnz; e += stride) {
    if (e == a.nnz) {
      len[e] = 0;
    } else {
      const vid_t k = a.col[e];
      len[e] = b.rowptr[k + 1] - b.rowptr[k];
    }
  }
}

}  // namespace

void check_inner_dimensions(const Structure& a, const Structure& b, const char* what) {
  if (a.ncols != b.nrows)
    throw Error(std::string(what) + ": inner dimensions differ: A is " + std::to_string(a.nrows) + " x " +
                std::to_string(a.ncols) + ", B is " + std::to_string(b.nrows) + " x " + std::to_string(b.ncols));
}

RowStats row_stats(const Structure& a, const Structure& b, cudaStream_t stream) {
  RowStats s = launch_row_stats<false>(a, b, false, nullptr, nullptr, stream);
  s.total_products = sum(s.products.data(), a.nrows, stream);
  return s;
}

RowStats hash_row_stats(const Structure& a, const Structure& b, bool force_global, std::uint8_t* group,
                        HashCounters* counters, cudaStream_t stream) {
  return launch_row_stats<true>(a, b, force_global, group, counters, stream);
}

device::Buffer<eid_t> entry_product_offsets(const Structure& a, const Structure& b, cudaStream_t stream) {
  device::Buffer<eid_t> ap(static_cast<std::size_t>(a.nnz) + 1, stream);
  constexpr int threads = 256;
  entry_lengths_kernel<<<grid_for(a.nnz + 1, threads), threads, 0, stream>>>(a, b, ap.data());
  SPGRAPH_CHECK_LAUNCH("entry_lengths_kernel");
  exclusive_scan(ap.data(), ap.data(), a.nnz + 1, stream);
  return ap;
}

eid_t count_products(const Structure& a, const Structure& b) {
  check_inner_dimensions(a, b, "count_products");
  if (a.nrows == 0 || a.nnz == 0 || b.nnz == 0) return 0;
  return row_stats(a, b, 0).total_products;
}

}  // namespace spgraph::gpu::spgemm_detail
