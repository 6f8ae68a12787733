// Hash SpGEMM, symbolic pass: the number of distinct columns of every row of A*B, counted in
// shared-memory hash tables or bitmaps per row group (groups.hpp), and for the rows too large
// for those in bitmaps over the row's column span in global memory.
#include <algorithm>
#include <string>
#include <vector>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/spgemm/device_ops.cuh"
#include "spgraph/gpu/spgemm/internal.hpp"

namespace spgraph::gpu::spgemm_detail {
namespace {

constexpr int kGlobalThreads = 512;

__global__ void symbolic_groups_kernel(const eid_t* products, const vid_t* min_col, const vid_t* max_col, vid_t n,
                                       vid_t ncols, bool force_global, std::uint8_t* group) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const eid_t p = products[i];
    const eid_t span = eid_t(max_col[i]) - min_col[i] + 1;
    const eid_t bound = min(p, min(span, eid_t(ncols)));
    group[i] = static_cast<std::uint8_t>(symbolic_group(p, bound, force_global));
  }
}

// Partial warps: 4 threads per row, 64 rows per block, a 64-slot table per row.
__global__ void __launch_bounds__(kPwarpThreads * kPwarpRowsPerBlock)
    symbolic_pwarp_kernel(Structure a, Structure b, const vid_t* rows, eid_t count, eid_t* row_nnz) {
  __shared__ unsigned table[kPwarpRowsPerBlock][kPwarpSymbolicSlots];
  constexpr int log2_slots = 6;
  static_assert(1 << log2_slots == kPwarpSymbolicSlots);
  const int local = threadIdx.x / kPwarpThreads;
  const int lane = threadIdx.x % kPwarpThreads;
  const eid_t r = eid_t(blockIdx.x) * kPwarpRowsPerBlock + local;
  unsigned* t = table[local];
  for (int s = lane; s < kPwarpSymbolicSlots; s += kPwarpThreads) t[s] = kEmptyKey;
  __syncwarp();  // a row's 4 threads are in one warp
  int found = 0;
  vid_t row = 0;
  if (r < count) {
    row = rows[r];
    for (eid_t j = a.rowptr[row] + lane; j < a.rowptr[row + 1]; j += kPwarpThreads) {
      const vid_t k = a.col[j];
      for (eid_t q = b.rowptr[k]; q < b.rowptr[k + 1]; ++q) found += insert_key(t, log2_slots, b.col[q]);
    }
  }
  // The table holds 64 >= 2 * 32 keys, so insert_key never returns -1 here.
  found += __shfl_xor_sync(kFullMask, found, 1);
  found += __shfl_xor_sync(kFullMask, found, 2);
  if (r < count && lane == 0) row_nnz[row] = found;
}

// One block per row. Dense mode (the span fits 32 * slots bits): a bitmap over the span.
// Otherwise a hash table of `slots` keys; a row that reaches fail_at distinct keys stops and is
// listed in `failed` for the global path.
template <int THREADS>
__global__ void __launch_bounds__(THREADS)
    symbolic_block_kernel(Structure a, Structure b, const eid_t* products, const vid_t* min_col, const vid_t* max_col,
                          const vid_t* rows, int log2_slots, int fail_at, eid_t* row_nnz, vid_t* failed,
                          unsigned* failed_count) {
  extern __shared__ unsigned table[];
  __shared__ int s_count;
  __shared__ int s_fail;
  const vid_t row = rows[blockIdx.x];
  const int slots = 1 << log2_slots;
  const vid_t lo = min_col[row];
  const eid_t span = eid_t(max_col[row]) - lo + 1;
  const bool dense = span <= eid_t(slots) * 32;
  const int words = dense ? static_cast<int>((span + 31) / 32) : slots;
  for (int s = threadIdx.x; s < words; s += THREADS) table[s] = dense ? 0u : kEmptyKey;
  if (threadIdx.x == 0) {
    s_count = 0;
    s_fail = 0;
  }
  __syncthreads();
  volatile int& fail = s_fail;  // read and written through volatile: other threads set it
  const eid_t a0 = a.rowptr[row], a1 = a.rowptr[row + 1];
  const int width = entry_width(products[row], a1 - a0);
  const int lane = threadIdx.x % width;
  int found = 0;
  for (eid_t j = a0 + threadIdx.x / width; j < a1 && !fail; j += THREADS / width) {
    const vid_t k = a.col[j];
    const eid_t q1 = b.rowptr[k + 1];
    for (eid_t q = b.rowptr[k] + lane; q < q1; q += width) {
      const vid_t c = b.col[q];
      if (dense) {
        const unsigned off = static_cast<unsigned>(c - lo);
        const unsigned bit = 1u << (off & 31);
        if (!(atomicOr(&table[off >> 5], bit) & bit)) ++found;
      } else {
        const int r = insert_key(table, log2_slots, static_cast<unsigned>(c));
        if (r < 0 || (r == 1 && atomicAdd(&s_count, 1) + 1 >= fail_at)) fail = 1;
        if (fail) break;
      }
    }
  }
  if (found) atomicAdd(&s_count, found);
  __syncthreads();
  if (threadIdx.x == 0) {
    if (s_fail) failed[atomicAdd(failed_count, 1u)] = row;
    else row_nnz[row] = s_count;
  }
}

__global__ void span_words_kernel(const vid_t* rows, eid_t count, const vid_t* min_col, const vid_t* max_col,
                                  eid_t* words) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const vid_t row = rows[i];
    words[i] = (eid_t(max_col[row]) - min_col[row] + 1 + 31) / 32;
  }
}

// One block per row: a bitmap over the row's column span in global memory (zeroed beforehand).
__global__ void __launch_bounds__(kGlobalThreads)
    symbolic_global_kernel(Structure a, Structure b, const eid_t* products, const vid_t* min_col, const vid_t* rows,
                           const eid_t* word_offsets, unsigned* bitmaps, eid_t* row_nnz) {
  __shared__ int s_count;
  if (threadIdx.x == 0) s_count = 0;
  __syncthreads();
  const vid_t row = rows[blockIdx.x];
  unsigned* bits = bitmaps + word_offsets[blockIdx.x];
  const vid_t lo = min_col[row];
  const eid_t a0 = a.rowptr[row], a1 = a.rowptr[row + 1];
  const int width = entry_width(products[row], a1 - a0);
  const int lane = threadIdx.x % width;
  int found = 0;
  for (eid_t j = a0 + threadIdx.x / width; j < a1; j += kGlobalThreads / width) {
    const vid_t k = a.col[j];
    const eid_t q1 = b.rowptr[k + 1];
    for (eid_t q = b.rowptr[k] + lane; q < q1; q += width) {
      const unsigned off = static_cast<unsigned>(b.col[q] - lo);
      const unsigned bit = 1u << (off & 31);
      if (!(atomicOr(&bits[off >> 5], bit) & bit)) ++found;
    }
  }
  if (found) atomicAdd(&s_count, found);
  __syncthreads();
  if (threadIdx.x == 0) row_nnz[row] = s_count;
}

template <int GROUP>
void launch_symbolic_block(const Structure& a, const Structure& b, const RowStats& stats, const Buckets& buckets,
                           eid_t* row_nnz, vid_t* failed, unsigned* failed_count, cudaStream_t stream) {
  const eid_t count = buckets.count(GROUP);
  if (count == 0) return;
  constexpr BlockGroup shape = symbolic_shape(GROUP);
  constexpr int log2_slots = exact_log2(shape.slots);
  static_assert(1 << log2_slots == shape.slots);
  const int fail_at = GROUP == kBlockGroups ? kSymbolicLastGroupFailAt : shape.slots + 1;
  constexpr std::size_t smem = std::size_t(shape.slots) * sizeof(unsigned);
  auto kernel = symbolic_block_kernel<shape.threads>;
  SPGRAPH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  kernel<<<static_cast<unsigned>(count), shape.threads, smem, stream>>>(
      a, b, stats.products.data(), stats.min_col.data(), stats.max_col.data(), buckets.begin(GROUP), log2_slots,
      fail_at, row_nnz, failed, failed_count);
  SPGRAPH_CHECK_LAUNCH("symbolic_block_kernel");
}

// Rows counted with global bitmaps, in batches whose bitmaps fit the budget.
void symbolic_global(const Structure& a, const Structure& b, const RowStats& stats, const std::vector<vid_t>& rows,
                     const Budget& budget, eid_t* row_nnz, cudaStream_t stream) {
  const eid_t m = static_cast<eid_t>(rows.size());
  device::Buffer<vid_t> d_rows(0, stream);
  d_rows.upload(rows);
  device::Buffer<eid_t> d_words(m, stream);
  span_words_kernel<<<grid_for(m, 256), 256, 0, stream>>>(d_rows.data(), m, stats.min_col.data(),
                                                          stats.max_col.data(), d_words.data());
  SPGRAPH_CHECK_LAUNCH("span_words_kernel");
  const std::vector<eid_t> words = d_words.download();
  std::vector<std::uint64_t> cost(m + 1, 0);
  std::uint64_t largest = 0;
  for (eid_t i = 0; i < m; ++i) {
    const std::uint64_t c = std::uint64_t(words[i]) * sizeof(unsigned) + sizeof(eid_t);
    cost[i + 1] = cost[i] + c;
    largest = std::max(largest, c);
  }
  const std::size_t room = std::min<std::size_t>(budget.room, std::max<std::size_t>(kGlobalBatchBytes, largest));
  const auto batches = plan_panels(cost, room, budget, [&](vid_t i) {
    return "row " + std::to_string(rows[i]) + " (a bitmap over " + std::to_string(eid_t(words[i]) * 32) +
           " columns to count its entries)";
  });
  for (const Panel& batch : batches) {
    std::vector<eid_t> offsets(batch.last - batch.first + 1, 0);
    for (vid_t i = batch.first; i < batch.last; ++i) offsets[i - batch.first + 1] = offsets[i - batch.first] + words[i];
    device::Buffer<eid_t> d_offsets(0, stream);
    d_offsets.upload(offsets);
    device::Buffer<unsigned> bitmaps(static_cast<std::size_t>(offsets.back()), stream);
    bitmaps.fill_zero();
    symbolic_global_kernel<<<static_cast<unsigned>(batch.last - batch.first), kGlobalThreads, 0, stream>>>(
        a, b, stats.products.data(), stats.min_col.data(), d_rows.data() + batch.first, d_offsets.data(),
        bitmaps.data(), row_nnz);
    SPGRAPH_CHECK_LAUNCH("symbolic_global_kernel");
  }
}

}  // namespace

vid_t hash_symbolic(const Structure& a, const Structure& b, const RowStats& stats, bool force_global,
                    const Budget& budget, eid_t* row_nnz, GroupStreams& streams, cudaStream_t main) {
  const vid_t n = a.nrows;
  if (n == 0) return 0;
  SPGRAPH_CUDA(cudaMemsetAsync(row_nnz, 0, (std::size_t(n) + 1) * sizeof(eid_t), main));
  Buckets buckets;
  {
    device::Buffer<std::uint8_t> group(n, main);
    symbolic_groups_kernel<<<grid_for(n, 256), 256, 0, main>>>(stats.products.data(), stats.min_col.data(),
                                                               stats.max_col.data(), n, b.ncols, force_global,
                                                               group.data());
    SPGRAPH_CHECK_LAUNCH("symbolic_groups_kernel");
    buckets = bucket_rows(group.data(), 0, n, main);
  }
  const eid_t block_rows = buckets.offsets[kGlobalGroup] - buckets.offsets[kPwarpGroup + 1];
  device::Buffer<vid_t> failed(block_rows, main);
  device::Buffer<unsigned> failed_count(1, main);
  failed_count.fill_zero();

  streams.fork(main);
  if (const eid_t count = buckets.count(kPwarpGroup)) {
    const auto blocks = static_cast<unsigned>((count + kPwarpRowsPerBlock - 1) / kPwarpRowsPerBlock);
    symbolic_pwarp_kernel<<<blocks, kPwarpThreads * kPwarpRowsPerBlock, 0, streams[kPwarpGroup]>>>(
        a, b, buckets.begin(kPwarpGroup), count, row_nnz);
    SPGRAPH_CHECK_LAUNCH("symbolic_pwarp_kernel");
  }
  launch_symbolic_block<1>(a, b, stats, buckets, row_nnz, failed.data(), failed_count.data(), streams[1]);
  launch_symbolic_block<2>(a, b, stats, buckets, row_nnz, failed.data(), failed_count.data(), streams[2]);
  launch_symbolic_block<3>(a, b, stats, buckets, row_nnz, failed.data(), failed_count.data(), streams[3]);
  launch_symbolic_block<4>(a, b, stats, buckets, row_nnz, failed.data(), failed_count.data(), streams[4]);
  launch_symbolic_block<5>(a, b, stats, buckets, row_nnz, failed.data(), failed_count.data(), streams[5]);
  launch_symbolic_block<6>(a, b, stats, buckets, row_nnz, failed.data(), failed_count.data(), streams[6]);
  launch_symbolic_block<7>(a, b, stats, buckets, row_nnz, failed.data(), failed_count.data(), streams[7]);
  static_assert(kBlockGroups == 7);
  streams.join(main);

  // Rows for the global path: those sent there directly and those that overflowed group 7.
  const unsigned nfailed = read_value(failed_count.data(), main);
  std::vector<vid_t> global_rows;
  if (const eid_t forced = buckets.count(kGlobalGroup)) {
    global_rows.resize(forced);
    SPGRAPH_CUDA(cudaMemcpyAsync(global_rows.data(), buckets.begin(kGlobalGroup), forced * sizeof(vid_t),
                                 cudaMemcpyDeviceToHost, main));
  }
  if (nfailed) {
    const std::size_t at = global_rows.size();
    global_rows.resize(at + nfailed);
    SPGRAPH_CUDA(cudaMemcpyAsync(global_rows.data() + at, failed.data(), nfailed * sizeof(vid_t),
                                 cudaMemcpyDeviceToHost, main));
  }
  SPGRAPH_CUDA(cudaStreamSynchronize(main));
  if (!global_rows.empty()) symbolic_global(a, b, stats, global_rows, budget, row_nnz, main);
  return static_cast<vid_t>(global_rows.size());
}

}  // namespace spgraph::gpu::spgemm_detail
