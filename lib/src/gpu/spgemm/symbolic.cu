// Hash SpGEMM, symbolic pass: the number of distinct columns of every row of A*B, counted in
// shared-memory hash tables or bitmaps per row group (groups.hpp), and for the rows too large
// for those in bitmaps over the row's column span in global memory.
#include <algorithm>
#include <string>
#include <vector>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "gpu/spgemm/device_ops.cuh"
#include "gpu/spgemm/internal.hpp"
#include "gpu/spgemm/product_walk.cuh"

namespace spgraph::gpu::spgemm_detail {
namespace {

constexpr int kGlobalThreads = 512;

// Warp tiers: THREADS lanes per row (a power of two dividing 32), a SLOTS-key table per row;
// the block's rows are rows[block * kRowsPerBlock ...], its tables in `tables`.
template <int THREADS, int SLOTS>
__device__ __forceinline__ void symbolic_warp_tier_rows(const Structure& a, const Structure& b, const vid_t* rows,
                                                        eid_t count, eid_t block, eid_t* row_nnz, unsigned* tables) {
  using Row = LaneRow<THREADS>;
  constexpr int kLog2Slots = exact_log2(SLOTS);
  static_assert(32 % THREADS == 0 && (1 << kLog2Slots) == SLOTS);
  const Row r(rows, count, a.rowptr, block);
  unsigned* t = tables + r.local * (SLOTS + THREADS);  // padded: the rows of a warp initialise different banks
  for (int s = r.lane; s < SLOTS; s += THREADS) t[s] = kEmptyKey;
  __syncwarp();  // a row's lanes are in one warp
  int found = 0;
  // The table holds 2x the row's bound on distinct keys: insert_key never returns -1.
  walk_row_products_lanes<THREADS, NoValue>(
      row_lanes_mask<THREADS>(), r.lane, r.a0, r.a1, a.col, b.rowptr, [](eid_t) { return NoValue{}; },
      [&](eid_t q) { return b.col[q]; },
      [&](eid_t, vid_t c, NoValue, eid_t) { found += insert_key(t, kLog2Slots, static_cast<unsigned>(c)); });
  for (int off = THREADS / 2; off > 0; off >>= 1) found += __shfl_xor_sync(kFullMask, found, off);
  if (r.valid && r.lane == 0) row_nnz[r.row] = found;
}

// A block's table words in warp tier t.
constexpr int warp_tier_table_words(int t) {
  return kWarpTierBlockThreads / warp_tier(t).threads * (warp_tier(t).symbolic_slots + warp_tier(t).threads);
}

// The four warp tiers in one launch (SharedLaneLaunch). A block stages the widest tier's 16.5
// KiB of tables, which lets 13 blocks share an SM; held to 32 registers (36 bytes spilled) so
// that registers allow as many (unbounded, the kernel takes 40: 12 blocks). One launch instead
// of four took 2-22% off the small products (docs/performance/spgemm.md).
using WarpTiers = SharedLaneLaunch<kWarpTiers>;
__global__ void __launch_bounds__(kWarpTierBlockThreads, 16)
    symbolic_warp_tiers_kernel(Structure a, Structure b, WarpTiers tiers, eid_t* row_nnz) {
  static_assert(kWarpTiers == 4);
  constexpr int kWords = std::max({warp_tier_table_words(0), warp_tier_table_words(1), warp_tier_table_words(2),
                                   warp_tier_table_words(3)});
  __shared__ unsigned tables[kWords];
  serve_shared_lane_block(tiers, [&](auto tier, const vid_t* rows, eid_t count, eid_t block) {
    constexpr WarpTier t = warp_tier(decltype(tier)::value);
    symbolic_warp_tier_rows<t.threads, t.symbolic_slots>(a, b, rows, count, block, row_nnz, tables);
  });
}

void launch_symbolic_warp_tiers(const Structure& a, const Structure& b, const Buckets& buckets, eid_t* row_nnz,
                                cudaStream_t stream) {
  const WarpTiers tiers = shared_lane_launch<kWarpTiers>(
      buckets, {0, 1, 2, 3}, {warp_tier(0).threads, warp_tier(1).threads, warp_tier(2).threads, warp_tier(3).threads});
  if (const unsigned blocks = tiers.first[kWarpTiers]) {
    symbolic_warp_tiers_kernel<<<blocks, kWarpTierBlockThreads, 0, stream>>>(a, b, tiers, row_nnz);
    SPGRAPH_CHECK_LAUNCH("symbolic_warp_tiers_kernel");
  }
}

// One block per row. Dense mode (the span fits 32 * slots bits): a bitmap over the span.
// Otherwise a hash table of `slots` keys; a row that reaches fail_at distinct keys stops and is
// listed in `failed` for the global path (only block 7 can: the others' tables hold twice their
// rows' bound).
template <int THREADS>
__global__ void __launch_bounds__(THREADS)
    symbolic_block_kernel(Structure a, Structure b, const vid_t* min_col, const vid_t* max_col, const vid_t* rows,
                          int log2_slots, int fail_at, eid_t* row_nnz, vid_t* failed, unsigned* failed_count) {
  extern __shared__ unsigned table[];
  __shared__ RowWalkStorage<THREADS, NoValue> walk;
  __shared__ int s_count;
  __shared__ int s_fail;
  const vid_t row = rows[blockIdx.x];
  const int slots = 1 << log2_slots;
  const vid_t lo = min_col[row];
  const eid_t span = eid_t(max_col[row]) - lo + 1;
  const bool dense = span <= eid_t(slots) * 32;
  const bool may_fail = fail_at <= slots;
  const int words = dense ? static_cast<int>((span + 31) / 32) : slots;
  for (int s = threadIdx.x; s < words; s += THREADS) table[s] = dense ? 0u : kEmptyKey;
  if (threadIdx.x == 0) {
    s_count = 0;
    s_fail = 0;
  }
  __syncthreads();
  int found = 0;
  walk_row_products<THREADS>(
      walk, a.rowptr[row], a.rowptr[row + 1], a.col, b.rowptr, [](eid_t) { return NoValue{}; },
      [&](eid_t q) { return b.col[q]; },
      [&](eid_t, vid_t c, NoValue) {
        if (dense) {
          const unsigned off = static_cast<unsigned>(c - lo);
          const unsigned bit = 1u << (off & 31);
          if (!(atomicOr(&table[off >> 5], bit) & bit)) ++found;
          return true;
        }
        const int r = insert_key(table, log2_slots, static_cast<unsigned>(c));
        if (!may_fail) {
          found += r;  // never -1: the table holds twice the row's bound
          return true;
        }
        if (r < 0 || (r == 1 && atomicAdd(&s_count, 1) + 1 >= fail_at)) atomicOr(&s_fail, 1);
        // Atomic on both sides (other threads set it): every thread stops once one has seen the
        // table fill, and the flag is never a plain read racing a write.
        return atomicOr(&s_fail, 0) == 0;
      });
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
    symbolic_global_kernel(Structure a, Structure b, const vid_t* min_col, const vid_t* rows,
                           const eid_t* word_offsets, unsigned* bitmaps, eid_t* row_nnz) {
  __shared__ RowWalkStorage<kGlobalThreads, NoValue> walk;
  __shared__ int s_count;
  if (threadIdx.x == 0) s_count = 0;
  __syncthreads();
  const vid_t row = rows[blockIdx.x];
  unsigned* bits = bitmaps + word_offsets[blockIdx.x];
  const vid_t lo = min_col[row];
  int found = 0;
  walk_row_products<kGlobalThreads>(
      walk, a.rowptr[row], a.rowptr[row + 1], a.col, b.rowptr, [](eid_t) { return NoValue{}; },
      [&](eid_t q) { return b.col[q]; },
      [&](eid_t, vid_t c, NoValue) {
        const unsigned off = static_cast<unsigned>(c - lo);
        const unsigned bit = 1u << (off & 31);
        if (!(atomicOr(&bits[off >> 5], bit) & bit)) ++found;
        return true;
      });
  if (found) atomicAdd(&s_count, found);
  __syncthreads();
  if (threadIdx.x == 0) row_nnz[row] = s_count;
}

template <int GROUP>
void launch_symbolic_block(const Structure& a, const Structure& b, const RowStats& stats, const Buckets& buckets,
                           eid_t* row_nnz, vid_t* failed, unsigned* failed_count, cudaStream_t stream) {
  constexpr int id = block_group_id(GROUP);
  const eid_t count = buckets.count(id);
  if (count == 0) return;
  constexpr BlockGroup shape = symbolic_shape(GROUP);
  constexpr int log2_slots = exact_log2(shape.slots);
  static_assert(1 << log2_slots == shape.slots);
  const int fail_at = GROUP == kBlockGroups ? kSymbolicLastGroupFailAt : shape.slots + 1;
  constexpr std::size_t smem = std::size_t(shape.slots) * sizeof(unsigned);
  auto kernel = symbolic_block_kernel<shape.block_threads>;
  SPGRAPH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  kernel<<<static_cast<unsigned>(count), shape.block_threads, smem, stream>>>(
      a, b, stats.min_col.data(), stats.max_col.data(), buckets.begin(id), log2_slots, fail_at, row_nnz, failed,
      failed_count);
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
        a, b, stats.min_col.data(), d_rows.data() + batch.first, d_offsets.data(), bitmaps.data(), row_nnz);
    SPGRAPH_CHECK_LAUNCH("symbolic_global_kernel");
  }
}

}  // namespace

device::Buffer<vid_t> hash_symbolic(const Structure& a, const Structure& b, const RowStats& stats,
                                    const std::uint8_t* group, const HashCounters& counts, const Budget& budget,
                                    eid_t* row_nnz, HashCounters* counters, GroupStreams& streams, cudaStream_t main) {
  const vid_t n = a.nrows;
  if (n == 0) return {};
  SPGRAPH_CUDA(cudaMemsetAsync(row_nnz, 0, (std::size_t(n) + 1) * sizeof(eid_t), main));
  const Buckets buckets = bucket_counted_rows(group, 0, n, counts.symbolic_rows, counters->symbolic_cursor, main);
  // Only block 7's rows can overflow their table (the others hold twice their bound).
  device::Buffer<vid_t> failed(buckets.count(kLastBlockGroup), main);
  unsigned* failed_count = &counters->symbolic_failed;

  streams.fork(main);
  launch_symbolic_warp_tiers(a, b, buckets, row_nnz, streams[0]);
  launch_symbolic_block<1>(a, b, stats, buckets, row_nnz, failed.data(), failed_count, streams[block_group_id(1)]);
  launch_symbolic_block<2>(a, b, stats, buckets, row_nnz, failed.data(), failed_count, streams[block_group_id(2)]);
  launch_symbolic_block<3>(a, b, stats, buckets, row_nnz, failed.data(), failed_count, streams[block_group_id(3)]);
  launch_symbolic_block<4>(a, b, stats, buckets, row_nnz, failed.data(), failed_count, streams[block_group_id(4)]);
  launch_symbolic_block<5>(a, b, stats, buckets, row_nnz, failed.data(), failed_count, streams[block_group_id(5)]);
  launch_symbolic_block<6>(a, b, stats, buckets, row_nnz, failed.data(), failed_count, streams[block_group_id(6)]);
  launch_symbolic_block<7>(a, b, stats, buckets, row_nnz, failed.data(), failed_count, streams[block_group_id(7)]);
  static_assert(kBlockGroups == 7);
  streams.join(main);
  if (const eid_t forced = buckets.count(kGlobalGroup))
    symbolic_global_rows(a, b, stats, buckets.begin(kGlobalGroup), forced, budget, row_nnz, main);
  return failed;
}

void symbolic_global_rows(const Structure& a, const Structure& b, const RowStats& stats, const vid_t* rows,
                          eid_t count, const Budget& budget, eid_t* row_nnz, cudaStream_t stream) {
  if (count <= 0) return;
  std::vector<vid_t> host_rows(count);
  device::copy_to_host(host_rows.data(), rows, count * sizeof(vid_t), stream);
  symbolic_global(a, b, stats, host_rows, budget, row_nnz, stream);
}

}  // namespace spgraph::gpu::spgemm_detail
