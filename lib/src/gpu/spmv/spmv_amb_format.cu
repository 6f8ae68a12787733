// The AMB format (spmv_formats.hpp), built on the device from CSR on first use: segments found
// from the entries, sorted by tile and length (CUB), cut into chunks, then every entry
// scattered to its slot. Also the segment count the automatic choice reads.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <memory>
#include <mutex>

#include "gpu/common/row_ids.hpp"
#include "gpu/spmv/spmv_kernels_impl.cuh"
#include "spmv_cache_internal.hpp"
#include "gpu/spmv/spmv_formats.hpp"

namespace spgraph::gpu::detail {
namespace {

constexpr int kThreads = 256;
constexpr std::uint64_t kLengthMask = 0xFFFF;

// 1 where entry p starts a segment: the first entry of its row, the first in another column
// tile than the entry before it, or a multiple of kAmbMaxSegment entries into its row (so no
// segment is longer). Columns need not be sorted: a row seen twice in one tile gives two segments, whose
// atomics both land in y.
struct SegmentHead {
  const eid_t* rowptr;
  const vid_t* rows;
  const vid_t* col;
  __device__ eid_t operator()(eid_t p) const {
    const eid_t in_row = p - rowptr[rows[p]];
    return in_row % kAmbMaxSegment == 0 || (col[p] >> kAmbSpanLog2) != (col[p - 1] >> kAmbSpanLog2);
  }
};

auto segment_heads(const eid_t* rowptr, const vid_t* rows, const vid_t* col) {
  return thrust::make_transform_iterator(thrust::counting_iterator<eid_t>(0), SegmentHead{rowptr, rows, col});
}

// seg_start[s] = the first entry of segment s (heads_through[p] = the heads up to p), and
// seg_start[nseg] = nnz.
__global__ void segment_starts_kernel(const eid_t* __restrict__ heads_through, eid_t nnz,
                                      eid_t* __restrict__ seg_start) {
  const eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= nnz) return;
  if (p == 0 || heads_through[p] != heads_through[p - 1]) seg_start[heads_through[p] - 1] = p;
  if (p == nnz - 1) seg_start[heads_through[p]] = nnz;
}

// The sort key of a segment: its row tile (bits 32-46), column tile (16-30), then longest first.
__global__ void segment_keys_kernel(const eid_t* __restrict__ seg_start, const vid_t* __restrict__ rows,
                                    const vid_t* __restrict__ col, eid_t nseg, std::uint64_t* __restrict__ keys,
                                    eid_t* __restrict__ ids) {
  const eid_t s = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= nseg) return;
  const eid_t p = seg_start[s];
  const std::uint64_t length = std::uint64_t(seg_start[s + 1] - p);
  keys[s] = std::uint64_t(rows[p] >> kAmbSpanLog2) << 32 | std::uint64_t(col[p] >> kAmbSpanLog2) << 16 |
            (kLengthMask - length);
  ids[s] = s;
}

// tile_first[i] = i where sorted segment i is the first of its tile, else 0 (a max-scan then
// spreads it).
__global__ void tile_heads_kernel(const std::uint64_t* __restrict__ keys, eid_t nseg, eid_t* __restrict__ tile_first) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= nseg) return;
  tile_first[i] = i == 0 || (keys[i] >> 16) != (keys[i - 1] >> 16) ? i : 0;
}

struct ChunkHead {
  const eid_t* tile_first;
  __device__ eid_t operator()(eid_t i) const { return (i - tile_first[i]) % 32 == 0; }
};

// For the first segment of each chunk (the longest): the chunk's slots and tile.
__global__ void chunk_shape_kernel(const std::uint64_t* __restrict__ keys, const eid_t* __restrict__ tile_first,
                                   const eid_t* __restrict__ chunks_through, eid_t nseg, eid_t* __restrict__ slots,
                                   unsigned* __restrict__ chunk_tile) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= nseg || (i - tile_first[i]) % 32 != 0) return;
  const eid_t c = chunks_through[i] - 1;
  slots[c] = 32 * eid_t(kLengthMask - (keys[i] & kLengthMask));
  chunk_tile[c] = unsigned(keys[i] >> 32) << 16 | unsigned((keys[i] >> 16) & kLengthMask);
}

// Sorted segment i takes lane (i - tile_first[i]) % 32 of its chunk.
__global__ void segment_slots_kernel(const std::uint64_t* __restrict__ keys, const eid_t* __restrict__ ids,
                                     const eid_t* __restrict__ tile_first, const eid_t* __restrict__ chunks_through,
                                     const eid_t* __restrict__ chunk_offset, const eid_t* __restrict__ seg_start,
                                     const vid_t* __restrict__ rows, eid_t nseg, unsigned* __restrict__ slot_meta,
                                     eid_t* __restrict__ seg_slot) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= nseg) return;
  const eid_t c = chunks_through[i] - 1;
  const eid_t lane = (i - tile_first[i]) % 32;
  const eid_t s = ids[i];
  const unsigned length = unsigned(kLengthMask - (keys[i] & kLengthMask));
  slot_meta[32 * c + lane] = (unsigned(rows[seg_start[s]]) & 0xFFFFu) | length << 16;
  seg_slot[s] = chunk_offset[c] + lane;
}

template <class V>
__global__ void amb_scatter_kernel(const vid_t* __restrict__ col, const V* __restrict__ val, eid_t nnz,
                                   const eid_t* __restrict__ heads_through, const eid_t* __restrict__ seg_start,
                                   const eid_t* __restrict__ seg_slot, std::uint16_t* __restrict__ out_col,
                                   V* __restrict__ out_val) {
  const eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= nnz) return;
  const eid_t s = heads_through[p] - 1;
  const eid_t slot = seg_slot[s] + 32 * (p - seg_start[s]);
  out_col[slot] = std::uint16_t(col[p] & 0xFFFFu);
  if (out_val) out_val[slot] = val[p];
}

template <class In, class Out>
void inclusive_sum(In in, Out out, eid_t n) {
  run_cub([&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, cudaStream_t(0));
  }, 0);
}

}  // namespace

eid_t amb_segment_count(const eid_t* rowptr, const vid_t* col, vid_t nrows, eid_t nnz, cudaStream_t stream) {
  if (nnz == 0) return 0;
  device::Buffer<vid_t> rows(nnz, stream);
  expand_row_ids(rowptr, nrows, nnz, rows.data(), stream);
  device::Buffer<eid_t> total(1, stream);
  run_cub([&](void* temp, std::size_t& bytes) {
    return cub::DeviceReduce::Sum(temp, bytes, segment_heads(rowptr, rows.data(), col), total.data(), nnz, stream);
  }, stream);
  return device::read_value(total.data(), stream);
}

template <class V>
const Amb<V>& spmv_amb(const Matrix<V>& A) {
  SpmvCache<V>& cache = cache_of(A);
  std::lock_guard lock(cache.mutex);
  if (cache.amb) return *cache.amb;
  const device::DeviceCsr<V>& csr = A.csr();
  const eid_t nnz = A.nnz();
  auto f = std::make_unique<Amb<V>>();
  f->chunk_offset = device::Buffer<eid_t>(1);
  f->chunk_offset.fill_zero();
  if (nnz == 0) {
    cache.amb = std::move(f);
    return *cache.amb;
  }
  device::Buffer<vid_t> rows(nnz);
  expand_row_ids(csr.rowptr.data(), A.nrows(), nnz, rows.data());
  device::Buffer<eid_t> heads_through(nnz);
  inclusive_sum(segment_heads(csr.rowptr.data(), rows.data(), csr.col.data()), heads_through.data(), nnz);
  const eid_t nseg = device::read_value(heads_through.data() + (nnz - 1));
  device::Buffer<eid_t> seg_start(nseg + 1);
  segment_starts_kernel<<<blocks_of(nnz, kThreads), kThreads>>>(heads_through.data(), nnz, seg_start.data());
  SPGRAPH_CHECK_LAUNCH("segment_starts_kernel");

  device::Buffer<std::uint64_t> keys(nseg), sorted_keys(nseg);
  device::Buffer<eid_t> ids(nseg), sorted_ids(nseg);
  segment_keys_kernel<<<blocks_of(nseg, kThreads), kThreads>>>(seg_start.data(), rows.data(), csr.col.data(), nseg,
                                                               keys.data(), ids.data());
  SPGRAPH_CHECK_LAUNCH("segment_keys_kernel");
  run_cub([&](void* temp, std::size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temp, bytes, keys.data(), sorted_keys.data(), ids.data(),
                                           sorted_ids.data(), nseg, 0, 48, cudaStream_t(0));
  }, 0);
  keys = {};
  ids = {};

  device::Buffer<eid_t> tile_first(nseg);
  tile_heads_kernel<<<blocks_of(nseg, kThreads), kThreads>>>(sorted_keys.data(), nseg, tile_first.data());
  SPGRAPH_CHECK_LAUNCH("tile_heads_kernel");
  run_cub([&](void* temp, std::size_t& bytes) {
    return cub::DeviceScan::InclusiveScan(temp, bytes, tile_first.data(), tile_first.data(), cuda::maximum<eid_t>{},
                                          nseg, cudaStream_t(0));
  }, 0);
  device::Buffer<eid_t> chunks_through(nseg);
  inclusive_sum(thrust::make_transform_iterator(thrust::counting_iterator<eid_t>(0), ChunkHead{tile_first.data()}),
                chunks_through.data(), nseg);
  f->nchunks = device::read_value(chunks_through.data() + (nseg - 1));

  f->chunk_offset = device::Buffer<eid_t>(f->nchunks + 1);
  f->chunk_tile = device::Buffer<unsigned>(f->nchunks);
  {
    device::Buffer<eid_t> slots(f->nchunks + 1);
    slots.fill_zero();
    chunk_shape_kernel<<<blocks_of(nseg, kThreads), kThreads>>>(sorted_keys.data(), tile_first.data(),
                                                                chunks_through.data(), nseg, slots.data(),
                                                                f->chunk_tile.data());
    SPGRAPH_CHECK_LAUNCH("chunk_shape_kernel");
    run_cub([&](void* temp, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(temp, bytes, slots.data(), f->chunk_offset.data(), f->nchunks + 1,
                                           cudaStream_t(0));
    }, 0);
  }
  f->slot_meta = device::Buffer<unsigned>(f->nchunks * 32);
  f->slot_meta.fill_zero();
  device::Buffer<eid_t> seg_slot(nseg);
  segment_slots_kernel<<<blocks_of(nseg, kThreads), kThreads>>>(
      sorted_keys.data(), sorted_ids.data(), tile_first.data(), chunks_through.data(), f->chunk_offset.data(),
      seg_start.data(), rows.data(), nseg, f->slot_meta.data(), seg_slot.data());
  SPGRAPH_CHECK_LAUNCH("segment_slots_kernel");

  const eid_t total_slots = device::read_value(f->chunk_offset.data() + f->nchunks);
  f->col = device::Buffer<std::uint16_t>(total_slots);
  f->col.fill_zero();  // the padding past a lane's segment is never read; zeroed to be defined
  f->val = device::Buffer<V>(A.is_pattern() ? 0 : total_slots);
  if (!A.is_pattern()) f->val.fill_zero();
  amb_scatter_kernel<<<blocks_of(nnz, kThreads), kThreads>>>(csr.col.data(), csr.val.data(), nnz,
                                                             heads_through.data(), seg_start.data(), seg_slot.data(),
                                                             f->col.data(), A.is_pattern() ? nullptr : f->val.data());
  SPGRAPH_CHECK_LAUNCH("amb_scatter_kernel");
  cache.amb = std::move(f);
  return *cache.amb;
}

#define SPGRAPH_SPMV_AMB_INSTANTIATE(V) template const Amb<V>& spmv_amb(const Matrix<V>&);

SPGRAPH_SPMV_AMB_INSTANTIATE(float)
SPGRAPH_SPMV_AMB_INSTANTIATE(double)
SPGRAPH_SPMV_AMB_INSTANTIATE(std::int32_t)
SPGRAPH_SPMV_AMB_INSTANTIATE(std::int64_t)
SPGRAPH_SPMV_AMB_INSTANTIATE(bool)
SPGRAPH_SPMV_AMB_INSTANTIATE(std::uint64_t)

}  // namespace spgraph::gpu::detail
