#pragma once
// Hash SpGEMM, numeric pass: with every row's size known (symbolic pass), each row group
// accumulates its rows' products in shared memory and writes them sorted into C:
//   partial warps   4 threads per row, 32-slot tables, rows sorted by ranking (32 compares);
//   blocks          one row per block, a hash table sorted by a block radix sort over the
//                   bits of (column - min column), or a dense array over the column span
//                   written in order by a block scan when the span fits the table;
//   global          rows too large for shared memory: hash tables in global memory, compacted
//                   and sorted per row by CUB's segmented sort.
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <string>
#include <vector>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/device_csr.hpp"
#include "spgraph/gpu/spgemm/device_ops.cuh"
#include "spgraph/gpu/spgemm/internal.hpp"

namespace spgraph::gpu::spgemm_detail {

// A's and B's values, read only when the semiring's multiply uses them.
template <class SR, class V>
__device__ __forceinline__ V a_value(const device::CsrView<V>& a, eid_t p) {
  if constexpr (SR::multiply_op::uses_a) return a.value(p);
  else return V();
}
template <class SR, class V>
__device__ __forceinline__ V b_value(const device::CsrView<V>& b, eid_t p) {
  if constexpr (SR::multiply_op::uses_b) return b.value(p);
  else return V();
}

// Where a numeric kernel writes: row i's entries go to col/val[rowptr[i] - base ...].
template <class V>
struct NumericOutput {
  const eid_t* rowptr;
  eid_t base;
  vid_t* col;
  V* val;
};

template <class SR, class V>
__global__ void __launch_bounds__(kPwarpThreads * kPwarpRowsPerBlock)
    hash_numeric_pwarp_kernel(device::CsrView<V> a, device::CsrView<V> b, const vid_t* rows, eid_t count,
                              NumericOutput<V> out, int* error) {
  using Monoid = typename SR::add_monoid;
  constexpr int log2_slots = 5;
  static_assert(1 << log2_slots == kPwarpNumericSlots);
  __shared__ unsigned keys[kPwarpRowsPerBlock][kPwarpNumericSlots];
  __shared__ V vals[kPwarpRowsPerBlock][kPwarpNumericSlots];
  const int local = threadIdx.x / kPwarpThreads;
  const int lane = threadIdx.x % kPwarpThreads;
  const eid_t r = eid_t(blockIdx.x) * kPwarpRowsPerBlock + local;
  unsigned* k_tab = keys[local];
  V* v_tab = vals[local];
  for (int s = lane; s < kPwarpNumericSlots; s += kPwarpThreads) {
    k_tab[s] = kEmptyKey;
    v_tab[s] = SR::template identity<V>();
  }
  __syncwarp();  // a row's 4 threads are in one warp
  int fresh = 0;
  bool overflow = false;
  vid_t row = 0;
  if (r < count) {
    row = rows[r];
    for (eid_t j = a.rowptr[row] + lane; j < a.rowptr[row + 1]; j += kPwarpThreads) {
      const vid_t k = a.col[j];
      const V av = a_value<SR>(a, j);
      for (eid_t q = b.rowptr[k]; q < b.rowptr[k + 1]; ++q) {
        const int ins = insert_accumulate<Monoid>(k_tab, v_tab, log2_slots, static_cast<unsigned>(b.col[q]),
                                                  SR::template multiply<V>(av, b_value<SR>(b, q), k));
        fresh += ins == 1;
        overflow |= ins < 0;
      }
    }
  }
  __syncwarp();
  fresh += __shfl_xor_sync(kFullMask, fresh, 1);
  fresh += __shfl_xor_sync(kFullMask, fresh, 2);
  if (r >= count) return;
  const eid_t start = out.rowptr[row];
  const int n = static_cast<int>(out.rowptr[row + 1] - start);
  if (overflow) *error = kErrorTableFull;
  if (lane == 0 && fresh != n) *error = kErrorCountMismatch;
  // Rank of each key among the row's keys = its place in the sorted row (empty slots hold the
  // largest unsigned and never rank below a key).
  for (int s = lane; s < kPwarpNumericSlots; s += kPwarpThreads) {
    const unsigned key = k_tab[s];
    if (key == kEmptyKey) continue;
    int rank = 0;
    for (int t = 0; t < kPwarpNumericSlots; ++t) rank += k_tab[t] < key;
    if (rank < n) {
      out.col[start - out.base + rank] = static_cast<vid_t>(key);
      out.val[start - out.base + rank] = v_tab[s];
    }
  }
}

// Shared memory of a block-group kernel: values first, then the keys (hash mode) or the
// presence bitmap (dense mode), which the radix sort reuses as its scratch.
template <class V, int THREADS, int ITEMS>
struct BlockNumericLayout {
  static constexpr int kSlots = THREADS * ITEMS;
  using Sort = cub::BlockRadixSort<unsigned, THREADS, ITEMS, unsigned short>;
  static_assert(kSlots <= 65536, "slot indices are sorted as unsigned short");
  static constexpr std::size_t kValueBytes = (kSlots * sizeof(V) + 15) / 16 * 16;
  static constexpr std::size_t kKeyBytes = std::max(kSlots * sizeof(unsigned), sizeof(typename Sort::TempStorage));
  static constexpr std::size_t kBytes = kValueBytes + kKeyBytes;
  static_assert(kBytes + 8192 <= 227 * 1024, "a block group's tables must fit the H200's 227 KiB per block");
};

template <class SR, class V, int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS)
    hash_numeric_block_kernel(device::CsrView<V> a, device::CsrView<V> b, const eid_t* products, const vid_t* min_col,
                              const vid_t* max_col, const vid_t* rows, NumericOutput<V> out, int* error,
                              unsigned* dense_rows) {
  using Monoid = typename SR::add_monoid;
  using Layout = BlockNumericLayout<V, THREADS, ITEMS>;
  constexpr int kSlots = Layout::kSlots;
  constexpr int log2_slots = exact_log2(kSlots);
  static_assert((1 << log2_slots) == kSlots);
  extern __shared__ __align__(16) unsigned char smem[];
  V* vals = reinterpret_cast<V*>(smem);
  unsigned* keys = reinterpret_cast<unsigned*>(smem + Layout::kValueBytes);
  __shared__ typename cub::BlockScan<int, THREADS>::TempStorage scan_storage;
  __shared__ int s_fresh;

  const vid_t row = rows[blockIdx.x];
  const vid_t lo = min_col[row];
  const eid_t span = eid_t(max_col[row]) - lo + 1;
  const bool dense = span <= kSlots;
  const eid_t start = out.rowptr[row];
  const int n = static_cast<int>(out.rowptr[row + 1] - start);
  vid_t* out_col = out.col + (start - out.base);
  V* out_val = out.val + (start - out.base);

  const int value_slots = dense ? static_cast<int>(span) : kSlots;
  const int key_words = dense ? static_cast<int>((span + 31) / 32) : kSlots;
  for (int s = threadIdx.x; s < value_slots; s += THREADS) vals[s] = SR::template identity<V>();
  for (int s = threadIdx.x; s < key_words; s += THREADS) keys[s] = dense ? 0u : kEmptyKey;
  if (threadIdx.x == 0) {
    s_fresh = 0;
    if (dense) atomicAdd(dense_rows, 1u);
  }
  __syncthreads();

  const eid_t a0 = a.rowptr[row], a1 = a.rowptr[row + 1];
  const int width = entry_width(products[row], a1 - a0);
  const int lane = threadIdx.x % width;
  int fresh = 0;
  bool overflow = false;
  for (eid_t j = a0 + threadIdx.x / width; j < a1; j += THREADS / width) {
    const vid_t k = a.col[j];
    const V av = a_value<SR>(a, j);
    const eid_t q1 = b.rowptr[k + 1];
    for (eid_t q = b.rowptr[k] + lane; q < q1; q += width) {
      const vid_t c = b.col[q];
      const V x = SR::template multiply<V>(av, b_value<SR>(b, q), k);
      if (dense) {
        const unsigned off = static_cast<unsigned>(c - lo);
        accumulate<Monoid>(vals + off, x);
        atomicOr(keys + (off >> 5), 1u << (off & 31));
      } else {
        const int ins = insert_accumulate<Monoid>(keys, vals, log2_slots, static_cast<unsigned>(c), x);
        fresh += ins == 1;
        overflow |= ins < 0;
      }
    }
  }
  if (fresh) atomicAdd(&s_fresh, fresh);
  if (overflow) *error = kErrorTableFull;
  __syncthreads();

  if (dense) {
    // Each thread owns a run of bitmap words; a block scan of their popcounts places them.
    const int words = key_words;
    const int per = (words + THREADS - 1) / THREADS;
    const int w0 = min(static_cast<int>(threadIdx.x) * per, words);
    const int w1 = min(w0 + per, words);
    int count = 0;
    for (int w = w0; w < w1; ++w) count += __popc(keys[w]);
    int pos = 0, total = 0;
    cub::BlockScan<int, THREADS>(scan_storage).ExclusiveSum(count, pos, total);
    if (threadIdx.x == 0 && total != n) *error = kErrorCountMismatch;
    for (int w = w0; w < w1; ++w) {
      unsigned bits = keys[w];
      while (bits) {
        const int off = w * 32 + __ffs(bits) - 1;
        bits &= bits - 1;
        if (pos < n) {
          out_col[pos] = lo + off;
          out_val[pos] = vals[off];
        }
        ++pos;
      }
    }
    return;
  }

  if (threadIdx.x == 0 && s_fresh != n) *error = kErrorCountMismatch;
  // Hash mode: sort the table's keys relative to lo (span > kSlots here, so bits >= log2 + 1);
  // empty slots become `span`, larger than every key, and sort last.
  const int bits = bit_width(static_cast<std::uint64_t>(span));
  unsigned sort_keys[ITEMS];
  unsigned short slot[ITEMS];
  for (int i = 0; i < ITEMS; ++i) {
    const int s = i * THREADS + threadIdx.x;  // any arrangement will do: the slots are unordered
    const unsigned key = keys[s];
    sort_keys[i] = key == kEmptyKey ? static_cast<unsigned>(span) : key - static_cast<unsigned>(lo);
    slot[i] = static_cast<unsigned short>(s);
  }
  __syncthreads();  // the keys are in registers: their shared memory becomes the sort's scratch
  typename Layout::Sort(*reinterpret_cast<typename Layout::Sort::TempStorage*>(keys))
      .SortBlockedToStriped(sort_keys, slot, 0, bits);
  for (int i = 0; i < ITEMS; ++i) {
    const int rank = i * THREADS + threadIdx.x;
    if (rank < n) {
      out_col[rank] = lo + static_cast<vid_t>(sort_keys[i]);
      out_val[rank] = vals[slot[i]];
    }
  }
}

inline constexpr int kGlobalNumericThreads = 1024;

// Rows too large for shared memory: one block per row, its hash table (a power of two at
// least twice the row's size) in global memory; its entries are packed, unsorted, into
// packed_keys / packed_slots[packed_offsets[r] ...) for the segmented sort.
template <class SR, class V>
__global__ void __launch_bounds__(kGlobalNumericThreads)
    hash_numeric_global_kernel(device::CsrView<V> a, device::CsrView<V> b, const eid_t* products, const vid_t* rows,
                               const eid_t* table_offsets, unsigned* table_keys, V* table_vals,
                               const eid_t* packed_offsets, unsigned* packed_keys, unsigned* packed_slots,
                               int* error) {
  using Monoid = typename SR::add_monoid;
  __shared__ unsigned s_packed;
  const vid_t row = rows[blockIdx.x];
  const eid_t t0 = table_offsets[blockIdx.x];
  const eid_t slots = table_offsets[blockIdx.x + 1] - t0;
  const int log2_slots = bit_width(static_cast<std::uint64_t>(slots)) - 1;
  unsigned* keys = table_keys + t0;
  V* vals = table_vals + t0;
  for (eid_t s = threadIdx.x; s < slots; s += kGlobalNumericThreads) {
    keys[s] = kEmptyKey;
    vals[s] = SR::template identity<V>();
  }
  if (threadIdx.x == 0) s_packed = 0;
  __syncthreads();

  const eid_t a0 = a.rowptr[row], a1 = a.rowptr[row + 1];
  const int width = entry_width(products[row], a1 - a0);
  const int lane = threadIdx.x % width;
  bool overflow = false;
  for (eid_t j = a0 + threadIdx.x / width; j < a1; j += kGlobalNumericThreads / width) {
    const vid_t k = a.col[j];
    const V av = a_value<SR>(a, j);
    const eid_t q1 = b.rowptr[k + 1];
    for (eid_t q = b.rowptr[k] + lane; q < q1; q += width) {
      const V x = SR::template multiply<V>(av, b_value<SR>(b, q), k);
      overflow |= insert_accumulate<Monoid>(keys, vals, log2_slots, static_cast<unsigned>(b.col[q]), x) < 0;
    }
  }
  if (overflow) *error = kErrorTableFull;
  __syncthreads();

  const eid_t p0 = packed_offsets[blockIdx.x];
  const unsigned n = static_cast<unsigned>(packed_offsets[blockIdx.x + 1] - p0);
  for (eid_t s = threadIdx.x; s < slots; s += kGlobalNumericThreads) {
    const unsigned key = keys[s];
    if (key == kEmptyKey) continue;
    const unsigned p = atomicAdd(&s_packed, 1u);
    if (p < n) {
      packed_keys[p0 + p] = key;
      packed_slots[p0 + p] = static_cast<unsigned>(s);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && s_packed != n) *error = kErrorCountMismatch;
}

template <class V>
__global__ void gather_sorted_rows_kernel(const vid_t* rows, const eid_t* packed_offsets, const unsigned* sorted_keys,
                                          const unsigned* sorted_slots, const eid_t* table_offsets,
                                          const V* table_vals, NumericOutput<V> out) {
  const vid_t row = rows[blockIdx.x];
  const eid_t p0 = packed_offsets[blockIdx.x];
  const eid_t n = packed_offsets[blockIdx.x + 1] - p0;
  const eid_t o = out.rowptr[row] - out.base;
  const V* vals = table_vals + table_offsets[blockIdx.x];
  for (eid_t r = threadIdx.x; r < n; r += blockDim.x) {
    out.col[o + r] = static_cast<vid_t>(sorted_keys[p0 + r]);
    out.val[o + r] = vals[sorted_slots[p0 + r]];
  }
}

template <class SR, class V, int GROUP>
void launch_hash_numeric_block(const device::CsrView<V>& a, const device::CsrView<V>& b, const RowStats& stats,
                               const Buckets& buckets, const NumericOutput<V>& out, int* error, unsigned* dense_rows,
                               cudaStream_t stream) {
  const eid_t count = buckets.count(GROUP);
  if (count == 0) return;
  constexpr BlockGroup shape = numeric_shape(GROUP);
  constexpr int threads = shape.threads, items = shape.slots / shape.threads;
  using Layout = BlockNumericLayout<V, threads, items>;
  auto kernel = hash_numeric_block_kernel<SR, V, threads, items>;
  SPGRAPH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(Layout::kBytes)));
  kernel<<<static_cast<unsigned>(count), threads, Layout::kBytes, stream>>>(
      a, b, stats.products.data(), stats.min_col.data(), stats.max_col.data(), buckets.begin(GROUP), out, error,
      dense_rows);
  SPGRAPH_CHECK_LAUNCH("hash_numeric_block_kernel");
}

// The global-path rows of a panel and their batches, planned before any kernel of the panel is
// queued, so that a batch that cannot fit throws with nothing in flight.
struct GlobalRowsPlan {
  std::vector<vid_t> rows;
  std::vector<eid_t> sizes;
  std::vector<Panel> batches;  // ranges of rows[]
};

template <class V>
GlobalRowsPlan plan_global_rows(const vid_t* d_rows, eid_t count, const eid_t* rowptr, const Budget& budget,
                                std::size_t room, cudaStream_t stream) {
  GlobalRowsPlan plan;
  plan.sizes = row_sizes(d_rows, count, rowptr, stream);
  plan.rows.resize(count);
  SPGRAPH_CUDA(cudaMemcpyAsync(plan.rows.data(), d_rows, count * sizeof(vid_t), cudaMemcpyDeviceToHost, stream));
  SPGRAPH_CUDA(cudaStreamSynchronize(stream));
  std::vector<std::uint64_t> cost(count + 1, 0);
  for (eid_t i = 0; i < count; ++i) cost[i + 1] = cost[i] + global_row_bytes(plan.sizes[i], sizeof(V));
  plan.batches = plan_panels(cost, room, budget, [&](vid_t i) {
    return "row " + std::to_string(plan.rows[i]) + " (" + std::to_string(plan.sizes[i]) +
           " entries of C, accumulated in a global-memory hash table)";
  });
  return plan;
}

template <class SR, class V>
void hash_numeric_global(const device::CsrView<V>& a, const device::CsrView<V>& b, const RowStats& stats,
                         const vid_t* d_rows, const GlobalRowsPlan& plan, const NumericOutput<V>& out, int* error,
                         cudaStream_t stream) {
  for (const Panel& batch : plan.batches) {
    const vid_t m = batch.last - batch.first;
    std::vector<eid_t> table_offsets(m + 1, 0), packed_offsets(m + 1, 0);
    for (vid_t i = 0; i < m; ++i) {
      table_offsets[i + 1] = table_offsets[i] + global_table_slots(plan.sizes[batch.first + i]);
      packed_offsets[i + 1] = packed_offsets[i] + plan.sizes[batch.first + i];
    }
    device::Buffer<eid_t> d_table_offsets(0, stream), d_packed_offsets(0, stream);
    d_table_offsets.upload(table_offsets);
    d_packed_offsets.upload(packed_offsets);
    const eid_t slots = table_offsets.back(), packed = packed_offsets.back();
    device::Buffer<unsigned> table_keys(slots, stream);
    device::Buffer<V> table_vals(slots, stream);
    device::Buffer<unsigned> packed_keys(packed, stream), packed_slots(packed, stream);
    device::Buffer<unsigned> sorted_keys(packed, stream), sorted_slots(packed, stream);
    const vid_t* batch_rows = d_rows + batch.first;
    hash_numeric_global_kernel<SR, V><<<static_cast<unsigned>(m), kGlobalNumericThreads, 0, stream>>>(
        a, b, stats.products.data(), batch_rows, d_table_offsets.data(), table_keys.data(), table_vals.data(),
        d_packed_offsets.data(), packed_keys.data(), packed_slots.data(), error);
    SPGRAPH_CHECK_LAUNCH("hash_numeric_global_kernel");
    segmented_sort_pairs(packed_keys.data(), sorted_keys.data(), packed_slots.data(), sorted_slots.data(), packed, m,
                         d_packed_offsets.data(), d_packed_offsets.data() + 1, stream);
    gather_sorted_rows_kernel<V><<<static_cast<unsigned>(m), 256, 0, stream>>>(
        batch_rows, d_packed_offsets.data(), sorted_keys.data(), sorted_slots.data(), d_table_offsets.data(),
        table_vals.data(), out);
    SPGRAPH_CHECK_LAUNCH("gather_sorted_rows_kernel");
  }
}

struct NumericCounts {
  vid_t global_rows = 0;
  vid_t dense_rows = 0;
};

// The numeric pass over rows [first, last): each row i is written to out at rowptr[i] - base.
// global_room: bytes the global path's batches may use.
template <class SR, class V>
NumericCounts hash_numeric(const device::CsrView<V>& a, const device::CsrView<V>& b, const RowStats& stats,
                           vid_t first, vid_t last, const NumericOutput<V>& out, bool force_global,
                           const Budget& budget, std::size_t global_room, GroupStreams& streams, cudaStream_t main,
                           int* error) {
  NumericCounts counts;
  if (last <= first) return counts;
  Buckets buckets;
  {
    device::Buffer<std::uint8_t> group(last - first, main);
    numeric_groups(stats, out.rowptr, first, last, force_global, group.data(), main);
    buckets = bucket_rows(group.data(), first, last, main);
  }
  device::Buffer<unsigned> dense_rows(1, main);
  dense_rows.fill_zero();
  GlobalRowsPlan global_plan;
  if (const eid_t count = buckets.count(kGlobalGroup))
    global_plan = plan_global_rows<V>(buckets.begin(kGlobalGroup), count, out.rowptr, budget, global_room, main);

  streams.fork(main);
  if (const eid_t count = buckets.count(kPwarpGroup)) {
    const auto blocks = static_cast<unsigned>((count + kPwarpRowsPerBlock - 1) / kPwarpRowsPerBlock);
    hash_numeric_pwarp_kernel<SR, V><<<blocks, kPwarpThreads * kPwarpRowsPerBlock, 0, streams[kPwarpGroup]>>>(
        a, b, buckets.begin(kPwarpGroup), count, out, error);
    SPGRAPH_CHECK_LAUNCH("hash_numeric_pwarp_kernel");
  }
  launch_hash_numeric_block<SR, V, 1>(a, b, stats, buckets, out, error, dense_rows.data(), streams[1]);
  launch_hash_numeric_block<SR, V, 2>(a, b, stats, buckets, out, error, dense_rows.data(), streams[2]);
  launch_hash_numeric_block<SR, V, 3>(a, b, stats, buckets, out, error, dense_rows.data(), streams[3]);
  launch_hash_numeric_block<SR, V, 4>(a, b, stats, buckets, out, error, dense_rows.data(), streams[4]);
  launch_hash_numeric_block<SR, V, 5>(a, b, stats, buckets, out, error, dense_rows.data(), streams[5]);
  launch_hash_numeric_block<SR, V, 6>(a, b, stats, buckets, out, error, dense_rows.data(), streams[6]);
  launch_hash_numeric_block<SR, V, 7>(a, b, stats, buckets, out, error, dense_rows.data(), streams[7]);
  static_assert(kBlockGroups == 7);
  if (!global_plan.rows.empty())
    hash_numeric_global<SR, V>(a, b, stats, buckets.begin(kGlobalGroup), global_plan, out, error,
                               streams[kGlobalGroup]);
  streams.join(main);
  counts.global_rows = static_cast<vid_t>(buckets.count(kGlobalGroup));
  counts.dense_rows = static_cast<vid_t>(read_value(dense_rows.data(), main));
  return counts;
}

}  // namespace spgraph::gpu::spgemm_detail
