// Formats derived from CSR for the SpMV kernels, built on the device on first use and kept in
// the matrix's SpmvCache: COO row ids, the merge-path partition, SELL-P and HYB.
#include <cub/device/device_scan.cuh>

#include <memory>
#include <mutex>

#include "gpu/common/row_ids.hpp"
#include "gpu/spmv/spmv_kernels_impl.cuh"
#include "spmv_cache_internal.hpp"
#include "gpu/spmv/spmv_formats.hpp"

namespace spgraph::gpu::detail {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(eid_t n) { return unsigned((n + kThreads - 1) / kThreads); }

__global__ void slice_slots_kernel(const vid_t* __restrict__ row_len, vid_t nrows, eid_t nslices,
                                   eid_t* __restrict__ out) {
  const eid_t s = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s > nslices) return;
  if (s == nslices) {
    out[s] = 0;
    return;
  }
  const eid_t first = s * kSliceHeight;
  const eid_t last = first + kSliceHeight < nrows ? first + kSliceHeight : eid_t(nrows);
  vid_t width = 0;
  for (eid_t r = first; r < last; ++r) width = max(width, row_len[r]);
  out[s] = eid_t(width) * kSliceHeight;
}

__global__ void merge_partition_kernel(const eid_t* __restrict__ rowptr, vid_t nrows, eid_t nnz, eid_t tile,
                                       eid_t ntiles, vid_t* __restrict__ tile_rows, eid_t* __restrict__ tile_base) {
  const eid_t t = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > ntiles) return;
  const eid_t path_length = eid_t(nrows) + nnz;
  const eid_t diag = t * tile < path_length ? t * tile : path_length;
  const vid_t row = vid_t(merge_path_search(diag, nrows, nnz, [rowptr](eid_t r) { return __ldg(rowptr + r + 1); }));
  tile_rows[t] = row;
  tile_base[t] = __ldg(rowptr + row);
}

__global__ void low_bits_kernel(const eid_t* __restrict__ in, eid_t n, unsigned* __restrict__ out) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = unsigned(in[i]);
}

// Entry p of row i (its k-th) goes to slot 32k + i%32 of slice i/32.
template <class V>
__global__ void sellp_scatter_kernel(const eid_t* __restrict__ rowptr, const vid_t* __restrict__ col,
                                     const V* __restrict__ val, const vid_t* __restrict__ row_ids, eid_t nnz,
                                     const eid_t* __restrict__ slice_ptr, vid_t* __restrict__ out_col,
                                     V* __restrict__ out_val) {
  const eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= nnz) return;
  const vid_t i = row_ids[p];
  const eid_t k = p - rowptr[i];
  const eid_t slot = slice_ptr[i / kSliceHeight] + k * kSliceHeight + i % kSliceHeight;
  out_col[slot] = col[p];
  if (out_val) out_val[slot] = val[p];
}

__global__ void hyb_excess_kernel(const vid_t* __restrict__ row_len, vid_t nrows, vid_t ell_width,
                                  eid_t* __restrict__ out) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i > nrows) return;
  out[i] = i < nrows && row_len[i] > ell_width ? eid_t(row_len[i] - ell_width) : eid_t(0);
}

// The first ell_width entries of row i go to ELL slot k*nrows + i, the rest to COO after the
// COO entries of the rows before i.
template <class V>
__global__ void hyb_scatter_kernel(const eid_t* __restrict__ rowptr, const vid_t* __restrict__ col,
                                   const V* __restrict__ val, const vid_t* __restrict__ row_ids, eid_t nnz,
                                   vid_t nrows, vid_t ell_width, const eid_t* __restrict__ coo_offset,
                                   vid_t* __restrict__ ell_col, V* __restrict__ ell_val, vid_t* __restrict__ coo_row,
                                   vid_t* __restrict__ coo_col, V* __restrict__ coo_val) {
  const eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= nnz) return;
  const vid_t i = row_ids[p];
  const eid_t k = p - rowptr[i];
  if (k < ell_width) {
    const eid_t slot = k * nrows + i;
    ell_col[slot] = col[p];
    if (ell_val) ell_val[slot] = val[p];
  } else {
    const eid_t q = coo_offset[i] + (k - ell_width);
    coo_row[q] = i;
    coo_col[q] = col[p];
    if (coo_val) coo_val[q] = val[p];
  }
}

// Warps per slice: more when there are too few slices to fill the GPU and rows are long
// enough to share (each of the T warps should get at least two entries of a mean row).
int sellp_threads_per_row(eid_t nslices, double mean_row_length) {
  const eid_t target_warps = eid_t(device::multiprocessor_count()) * 64;
  int t = 1;
  while (t < 8 && nslices * t < target_warps && 2.0 * t <= mean_row_length) t *= 2;
  return t;
}

template <class V>
std::unique_ptr<PathTiles> path_tiles(const Matrix<V>& A, eid_t tile) {
  const eid_t nnz = A.nnz();
  const eid_t ntiles = (eid_t(A.nrows()) + nnz + tile - 1) / tile;
  auto tiles = std::make_unique<PathTiles>();
  tiles->tile_rows = device::Buffer<vid_t>(ntiles + 1);
  tiles->tile_base = device::Buffer<eid_t>(ntiles + 1);
  merge_partition_kernel<<<blocks_for(ntiles + 1), kThreads>>>(A.csr().rowptr.data(), A.nrows(), nnz, tile, ntiles,
                                                               tiles->tile_rows.data(), tiles->tile_base.data());
  SPGRAPH_CHECK_LAUNCH("merge_partition_kernel");
  return tiles;
}

}  // namespace

void sellp_slice_slots(const vid_t* row_len, vid_t nrows, eid_t* out, cudaStream_t stream) {
  const eid_t nslices = (eid_t(nrows) + kSliceHeight - 1) / kSliceHeight;
  slice_slots_kernel<<<blocks_for(nslices + 1), kThreads, 0, stream>>>(row_len, nrows, nslices, out);
  SPGRAPH_CHECK_LAUNCH("slice_slots_kernel");
}

template <class V>
const device::Buffer<vid_t>& spmv_coo_row_ids(const Matrix<V>& A) {
  SpmvCache<V>& cache = cache_of(A);
  std::lock_guard lock(cache.mutex);
  const eid_t nnz = A.nnz();
  if (cache.coo_row_ids.size() != static_cast<std::size_t>(nnz)) {
    device::Buffer<vid_t> ids(nnz);
    expand_row_ids(A.csr().rowptr.data(), A.nrows(), nnz, ids.data());
    cache.coo_row_ids = std::move(ids);
  }
  return cache.coo_row_ids;
}

template <class V>
const device::Buffer<unsigned>& spmv_rowptr_low(const Matrix<V>& A) {
  SpmvCache<V>& cache = cache_of(A);
  std::lock_guard lock(cache.mutex);
  const eid_t offsets = eid_t(A.nrows()) + 1;
  if (cache.rowptr_low.size() != static_cast<std::size_t>(offsets)) {
    device::Buffer<unsigned> low(offsets);
    low_bits_kernel<<<blocks_for(offsets), kThreads>>>(A.csr().rowptr.data(), offsets, low.data());
    SPGRAPH_CHECK_LAUNCH("low_bits_kernel");
    cache.rowptr_low = std::move(low);
  }
  return cache.rowptr_low;
}

template <class V>
const PathTiles& spmv_merge_path_tiles(const Matrix<V>& A) {
  SpmvCache<V>& cache = cache_of(A);
  std::lock_guard lock(cache.mutex);
  if (!cache.merge_path_tiles) cache.merge_path_tiles = path_tiles(A, kMergePathTile);
  return *cache.merge_path_tiles;
}

template <class V>
const PathTiles& spmv_stream_tiles(const Matrix<V>& A, int tile) {
  SpmvCache<V>& cache = cache_of(A);
  std::lock_guard lock(cache.mutex);
  std::unique_ptr<PathTiles>& tiles = cache.stream_tiles[tile];
  if (!tiles) tiles = path_tiles(A, tile);
  return *tiles;
}

template <class V>
const SellP<V>& spmv_sellp(const Matrix<V>& A) {
  SpmvCache<V>& cache = cache_of(A);
  std::lock_guard lock(cache.mutex);
  if (cache.sellp) return *cache.sellp;
  analyse_locked(cache, A);
  const device::DeviceCsr<V>& csr = A.csr();
  const vid_t n = A.nrows();
  const eid_t nnz = A.nnz();
  const eid_t nslices = (eid_t(n) + kSliceHeight - 1) / kSliceHeight;
  auto f = std::make_unique<SellP<V>>();
  f->threads_per_row = sellp_threads_per_row(nslices, cache.stats.mean_row_length);
  f->slice_ptr = device::Buffer<eid_t>(nslices + 1);
  {
    device::Buffer<eid_t> slots(nslices + 1);
    sellp_slice_slots(cache.row_lengths.data(), n, slots.data(), 0);
    run_cub([&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(temp, bytes, slots.data(), f->slice_ptr.data(), nslices + 1,
                                           cudaStream_t(0));
    }, 0);
  }
  const eid_t total = cache.stats.sellp_slots;
  f->col = device::Buffer<vid_t>(total);
  f->val = device::Buffer<V>(A.is_pattern() ? 0 : total);
  if (nnz > 0) {
    device::Buffer<vid_t> rows(nnz);
    expand_row_ids(csr.rowptr.data(), n, nnz, rows.data());
    sellp_scatter_kernel<<<blocks_for(nnz), kThreads>>>(csr.rowptr.data(), csr.col.data(), csr.val.data(), rows.data(),
                                                        nnz, f->slice_ptr.data(), f->col.data(),
                                                        f->val.empty() ? nullptr : f->val.data());
    SPGRAPH_CHECK_LAUNCH("sellp_scatter_kernel");
  }
  cache.sellp = std::move(f);
  return *cache.sellp;
}

template <class V>
const Hyb<V>& spmv_hyb(const Matrix<V>& A) {
  SpmvCache<V>& cache = cache_of(A);
  std::lock_guard lock(cache.mutex);
  if (cache.hyb) return *cache.hyb;
  analyse_locked(cache, A);
  const device::DeviceCsr<V>& csr = A.csr();
  const vid_t n = A.nrows();
  const eid_t nnz = A.nnz();
  const bool valued = !A.is_pattern();
  auto h = std::make_unique<Hyb<V>>();
  h->ell_width = cache.stats.hyb_ell_width;
  h->coo_nnz = cache.stats.hyb_coo_nnz;
  const eid_t ell_slots = eid_t(h->ell_width) * n;
  h->ell_col = device::Buffer<vid_t>(ell_slots);
  h->ell_val = device::Buffer<V>(valued ? ell_slots : 0);
  h->coo_row = device::Buffer<vid_t>(h->coo_nnz);
  h->coo_col = device::Buffer<vid_t>(h->coo_nnz);
  h->coo_val = device::Buffer<V>(valued ? h->coo_nnz : 0);
  if (nnz > 0) {
    device::Buffer<eid_t> coo_offset(eid_t(n) + 1);
    hyb_excess_kernel<<<blocks_for(eid_t(n) + 1), kThreads>>>(cache.row_lengths.data(), n, h->ell_width,
                                                              coo_offset.data());
    SPGRAPH_CHECK_LAUNCH("hyb_excess_kernel");
    run_cub([&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(temp, bytes, coo_offset.data(), coo_offset.data(), eid_t(n) + 1,
                                           cudaStream_t(0));
    }, 0);
    device::Buffer<vid_t> rows(nnz);
    expand_row_ids(csr.rowptr.data(), n, nnz, rows.data());
    hyb_scatter_kernel<<<blocks_for(nnz), kThreads>>>(
        csr.rowptr.data(), csr.col.data(), csr.val.data(), rows.data(), nnz, n, h->ell_width, coo_offset.data(),
        h->ell_col.data(), valued ? h->ell_val.data() : nullptr, h->coo_row.data(), h->coo_col.data(),
        valued ? h->coo_val.data() : nullptr);
    SPGRAPH_CHECK_LAUNCH("hyb_scatter_kernel");
  }
  cache.hyb = std::move(h);
  return *cache.hyb;
}

// Built on the host from the row offsets, once per matrix.
template <class V>
const LoopSlices& spmv_loop_slices(const Matrix<V>& A) {
  SpmvCache<V>& cache = cache_of(A);
  std::lock_guard lock(cache.mutex);
  if (!cache.loop_slices) {
    auto built = std::make_unique<LoopSlices>();
    built->plan = loop_slices(A.csr().rowptr.download(), device::multiprocessor_count(), kLoopRowWeight<V>);
    built->slices.upload(built->plan.slices);
    cache.loop_slices = std::move(built);
  }
  return *cache.loop_slices;
}

#define SPGRAPH_SPMV_FORMATS_INSTANTIATE(V)                                     \
  template const device::Buffer<vid_t>& spmv_coo_row_ids(const Matrix<V>&);    \
  template const device::Buffer<unsigned>& spmv_rowptr_low(const Matrix<V>&); \
  template const PathTiles& spmv_merge_path_tiles(const Matrix<V>&);           \
  template const PathTiles& spmv_stream_tiles(const Matrix<V>&, int);          \
  template const SellP<V>& spmv_sellp(const Matrix<V>&);                        \
  template const Hyb<V>& spmv_hyb(const Matrix<V>&);                            \
  template const LoopSlices& spmv_loop_slices(const Matrix<V>&);

SPGRAPH_SPMV_FORMATS_INSTANTIATE(float)
SPGRAPH_SPMV_FORMATS_INSTANTIATE(double)
SPGRAPH_SPMV_FORMATS_INSTANTIATE(std::int32_t)
SPGRAPH_SPMV_FORMATS_INSTANTIATE(std::int64_t)
SPGRAPH_SPMV_FORMATS_INSTANTIATE(bool)
SPGRAPH_SPMV_FORMATS_INSTANTIATE(std::uint64_t)

}  // namespace spgraph::gpu::detail
