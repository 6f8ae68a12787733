#pragma once
// Hash SpGEMM, numeric pass: with every row's size known (symbolic pass), each row group
// accumulates its rows' products in shared memory and writes them sorted into C:
//   sort tiers      rows of at most 32, 64, 128, 256 or 512 products: 4, 8, 16 or 32 lanes
//                   gather them, sort them by column and combine equal columns (warp_sort.cuh);
//   warp tier       16 threads per row, a table per row; the row's keys are packed and each is
//                   placed by ranking it among them (rows too wide for the sort tiers' keys);
//   blocks          one row per block, a hash table whose keys are ranked through a presence
//                   bitmap over the column span (a block scan of its popcounts) when the
//                   span is at most 32 columns per word of scratch, else sorted by a block
//                   radix sort over the bits of (column - min column); or a dense array over
//                   the span written in order by a block scan when the span fits the table;
//                   ranked and dense rows go out through a stage in shared memory (RowStage,
//                   bitmap_runs.cuh);
//   global          rows too large for shared memory: a dense array over the column span in
//                   global memory when the span is small enough (global_row_dense), else hash
//                   tables in global memory, compacted and sorted per row by CUB's segmented
//                   sort.
// Hash-mode keys are ranked through a presence bitmap marked from the table after the walk (a
// word's first rank plus a popcount: O(1) a key), which beat the block radix sort by 6-26%.
// Tried and removed (size-ordered warp tiers, slot = product index for rows without repeats,
// a bitmap marked during the walk, ...): docs/performance/spgemm.md.
#include <cub/block/block_radix_sort.cuh>

#include <algorithm>
#include <string>
#include <vector>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/device_csr.hpp"
#include "gpu/spgemm/bitmap_runs.cuh"
#include "gpu/spgemm/device_ops.cuh"
#include "gpu/spgemm/internal.hpp"
#include "gpu/spgemm/product_walk.cuh"
#include "gpu/spgemm/warp_sort.cuh"

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

// B's column and value at entry q, what a numeric walk loads per product.
template <class V>
struct BEntry {
  vid_t col;
  V val;
};

// Warp tiers: THREADS lanes per row (a power of two dividing 32), SLOTS key-value pairs per row
// for rows of at most SLOTS / 2 entries. Then the row's keys are packed (each lane packs every
// THREADS-th slot, placed by a scan over the row's lanes) and each packed key's rank among them
// is its place in the sorted row.
template <class SR, class V, int THREADS, int SLOTS>
__global__ void __launch_bounds__(kWarpTierBlockThreads)
    hash_numeric_warp_tier_kernel(device::CsrView<V> a, device::CsrView<V> b, const vid_t* rows, eid_t count,
                                  NumericOutput<V> out, int* error) {
  using Monoid = typename SR::add_monoid;
  using Row = LaneRow<THREADS>;
  constexpr int kRows = Row::kRowsPerBlock;
  constexpr int kLog2Slots = exact_log2(SLOTS);
  constexpr int kMaxNnz = SLOTS / 2;
  constexpr int kRun = SLOTS / THREADS;        // slots each lane packs
  constexpr int kPerLane = kMaxNnz / THREADS;  // packed keys each lane ranks
  static_assert(32 % THREADS == 0 && (1 << kLog2Slots) == SLOTS && SLOTS <= 256, "slots are packed as bytes");
  // Rows are padded so that the rows of a warp, stepping through their slots together (in
  // the initialisation and the packing) or through their packed keys (in the ranking), fall in
  // different banks.
  __shared__ unsigned keys[kRows][SLOTS + THREADS];
  __shared__ V vals[kRows][SLOTS + THREADS];
  __shared__ unsigned packed[kRows][kMaxNnz + 1];
  __shared__ std::uint8_t packed_slot[kRows][kMaxNnz];
  const Row r(rows, count, a.rowptr);
  const int local = r.local, lane = r.lane;
  eid_t start = 0, stop = 0;
  if (r.valid) {
    start = out.rowptr[r.row];  // loaded now, so that it does not wait until the row is done
    stop = out.rowptr[r.row + 1];
  }
  unsigned* k_tab = keys[local];
  V* v_tab = vals[local];
  for (int s = lane; s < SLOTS; s += THREADS) {
    k_tab[s] = kEmptyKey;
    v_tab[s] = SR::template identity<V>();
  }
  __syncwarp();  // a row's lanes are in one warp
  int fresh = 0;
  bool overflow = false;
  walk_row_products_lanes<THREADS, V>(
      row_lanes_mask<THREADS>(), lane, r.a0, r.a1, a.col, b.rowptr, [&](eid_t j) { return a_value<SR>(a, j); },
      [&](eid_t q) { return BEntry<V>{b.col[q], b_value<SR>(b, q)}; },
      [&](eid_t j, BEntry<V> e, V av, eid_t) {
        const int ins = insert_accumulate<Monoid>(k_tab, v_tab, kLog2Slots, static_cast<unsigned>(e.col),
                                                  SR::template multiply<V>(av, e.val, a.col[j]));
        fresh += ins == 1;
        overflow |= ins < 0;
      });
  __syncwarp();

  // Pack: lane L takes slots L, L + THREADS, ...
  int mine = 0;
  for (int i = 0; i < kRun; ++i) mine += k_tab[i * THREADS + lane] != kEmptyKey;
  int pos = mine;  // inclusive scan over the row's lanes
  for (int off = 1; off < THREADS; off <<= 1) {
    const int up = __shfl_up_sync(kFullMask, pos, off, THREADS);
    if (lane >= off) pos += up;
  }
  const int held = min(__shfl_sync(kFullMask, pos, THREADS - 1, THREADS), kMaxNnz);
  pos -= mine;
  for (int i = 0; i < kRun; ++i) {
    const int s = i * THREADS + lane;
    const unsigned key = k_tab[s];
    if (key == kEmptyKey) continue;
    if (pos < kMaxNnz) {
      packed[local][pos] = key;
      packed_slot[local][pos] = static_cast<std::uint8_t>(s);
    }
    ++pos;
  }
  for (int off = THREADS / 2; off > 0; off >>= 1) fresh += __shfl_xor_sync(kFullMask, fresh, off);
  __syncwarp();
  if (!r.valid) return;

  const int n = static_cast<int>(stop - start);
  if (overflow) *error = kErrorTableFull;
  if (lane == 0 && fresh != n) *error = kErrorCountMismatch;
  unsigned mine_keys[kPerLane];
  int rank[kPerLane];
  for (int e = 0; e < kPerLane; ++e) {
    const int p = lane + e * THREADS;
    mine_keys[e] = p < held ? packed[local][p] : kEmptyKey;
    rank[e] = 0;
  }
  for (int t = 0; t < held; ++t) {
    const unsigned other = packed[local][t];
    for (int e = 0; e < kPerLane; ++e) rank[e] += other < mine_keys[e];
  }
  vid_t* out_col = out.col + (start - out.base);
  V* out_val = out.val + (start - out.base);
  for (int e = 0; e < kPerLane; ++e) {
    const int p = lane + e * THREADS;
    if (p < held && rank[e] < n) {
      out_col[rank[e]] = static_cast<vid_t>(mine_keys[e]);
      out_val[rank[e]] = v_tab[packed_slot[local][p]];
    }
  }
}

// Sort tiers: THREADS lanes per row gather its products (at most THREADS * ITEMS), sort them
// by column and write each column's combined value. The block's rows are rows[block *
// kRowsPerBlock ...]; keys and values hold the block's staging arrays, kWarpTierBlockThreads *
// ITEMS elements each. first_col: each row's smallest column (RowStats::min_col), from which
// the sort keys count.
template <class SR, class V, int THREADS, int ITEMS>
__device__ __forceinline__ void numeric_sort_tier_rows(const device::CsrView<V>& a, const device::CsrView<V>& b,
                                                       const vid_t* rows, eid_t count, eid_t block,
                                                       const vid_t* first_col, const NumericOutput<V>& out,
                                                       int* error, unsigned* keys, V* vals) {
  using Monoid = typename SR::add_monoid;
  using Row = LaneRow<THREADS>;
  constexpr int N = THREADS * ITEMS;
  const Row r(rows, count, a.rowptr, block);
  const int lane = r.lane;
  eid_t start = 0, stop = 0;
  vid_t first = 0;
  if (r.valid) {
    start = out.rowptr[r.row];
    stop = out.rowptr[r.row + 1];
    first = first_col[r.row];
  }
  unsigned* g_key = keys + r.local * N;
  V* g_val = vals + r.local * N;
  for (int s = lane; s < N; s += THREADS) g_key[s] = kEmptyKey;
  __syncwarp();
  walk_row_products_lanes<THREADS, V>(
      row_lanes_mask<THREADS>(), lane, r.a0, r.a1, a.col, b.rowptr, [&](eid_t j) { return a_value<SR>(a, j); },
      [&](eid_t q) { return BEntry<V>{b.col[q], b_value<SR>(b, q)}; },
      [&](eid_t j, BEntry<V> e, V av, eid_t p) {
        g_key[p] = sort_tier_key<N>(e.col, first, static_cast<int>(p));
        g_val[p] = SR::template multiply<V>(av, e.val, a.col[j]);
      });
  __syncwarp();
  unsigned key[ITEMS];
  load_lane_items(g_key, lane, key);
  warp_bitonic_sort<THREADS>(key, lane);
  V val[ITEMS];
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const bool real = key[i] != kEmptyKey;
    val[i] = real ? g_val[sort_key_index<N>(key[i])] : SR::template identity<V>();
    if (real) key[i] = sort_key_offset<N>(key[i]);
  }
  __syncwarp();  // the values are in registers: the arrays now stage the row's entries in rank order
  const int n = static_cast<int>(stop - start);
  const int found = combine_sorted_runs<THREADS>(
      key, val, lane, [](V x, V y) { return Monoid::add(x, y); },
      [&](int rank, unsigned c, V v) {
        g_key[rank] = c;  // rank < N: at most one entry per product
        g_val[rank] = v;
      });
  __syncwarp();
  // Copied out by consecutive lanes, so the stores coalesce; emitted straight from the lanes,
  // which hold runs of ITEMS sorted products, they were ITEMS entries apart.
  vid_t* out_col = out.col + (start - out.base);
  V* out_val = out.val + (start - out.base);
  for (int k = lane; k < n && k < found; k += THREADS) {
    out_col[k] = first + static_cast<vid_t>(g_key[k]);
    out_val[k] = g_val[k];
  }
  if (r.valid && lane == 0 && found != n) *error = kErrorCountMismatch;
}

// One sort tier in one launch (the widest, whose blocks stage twice the others' elements).
template <class SR, class V, int THREADS, int ITEMS>
__global__ void __launch_bounds__(kWarpTierBlockThreads)
    hash_numeric_sort_tier_kernel(device::CsrView<V> a, device::CsrView<V> b, const vid_t* rows, eid_t count,
                                  const vid_t* first_col, NumericOutput<V> out, int* error) {
  __shared__ unsigned keys[kWarpTierBlockThreads * ITEMS];
  __shared__ V vals[kWarpTierBlockThreads * ITEMS];
  numeric_sort_tier_rows<SR, V, THREADS, ITEMS>(a, b, rows, count, blockIdx.x, first_col, out, error, keys, vals);
}

// The sort tiers of kNarrowItems items a lane share one launch (SharedLaneLaunch): their blocks all
// stage kWarpTierBlockThreads * kNarrowItems elements and hold about as many registers. Held to 56
// registers (9 blocks an SM), what tiers 2 and 3 used alone; docs/performance/spgemm.md.
inline constexpr int kNarrowSortTiers = 4;
inline constexpr int kNarrowItems = 8;
using NarrowSortTiers = SharedLaneLaunch<kNarrowSortTiers>;

template <class SR, class V>
__global__ void __launch_bounds__(kWarpTierBlockThreads, 9)
    hash_numeric_narrow_sort_tiers_kernel(device::CsrView<V> a, device::CsrView<V> b, NarrowSortTiers tiers,
                                          const vid_t* first_col, NumericOutput<V> out, int* error) {
  __shared__ unsigned keys[kWarpTierBlockThreads * kNarrowItems];
  __shared__ V vals[kWarpTierBlockThreads * kNarrowItems];
  serve_shared_lane_block(tiers, [&](auto tier, const vid_t* rows, eid_t count, eid_t block) {
    numeric_sort_tier_rows<SR, V, sort_tier(decltype(tier)::value).threads, kNarrowItems>(
        a, b, rows, count, block, first_col, out, error, keys, vals);
  });
}

// Shared memory of a block-group kernel: values first, then the keys (hash mode) or the
// presence bitmap (dense mode). Once hash mode's keys are in registers, their part holds a
// presence bitmap over the span and each word's first rank (kRankWords words at most), then
// the entries staged in rank order; or else the radix sort's scratch.
template <class V, int THREADS, int ITEMS>
struct BlockNumericLayout {
  static constexpr int kSlots = THREADS * ITEMS;
  using Sort = cub::BlockRadixSort<unsigned, THREADS, ITEMS, unsigned short>;
  static_assert(kSlots <= 65536, "slot indices are sorted, and ranks stored, as unsigned short");
  static constexpr std::size_t kValueBytes = (kSlots * sizeof(V) + 15) / 16 * 16;
  // Ranking covers spans of 65536 columns in every group (the small groups get more room than
  // their keys need).
  static constexpr std::size_t kRankWordBytes = sizeof(unsigned) + sizeof(unsigned short);
  static constexpr std::size_t kKeyBytes = std::max({kSlots * sizeof(unsigned), sizeof(typename Sort::TempStorage),
                                                     std::size_t(65536 / 32) * kRankWordBytes});
  static constexpr int kRankWords = static_cast<int>(kKeyBytes / kRankWordBytes);
  static constexpr std::size_t kBytes = kValueBytes + kKeyBytes;
  // Static shared memory: the product walk, the block scan of dense mode and a counter.
  static constexpr std::size_t kStaticBytes = sizeof(RowWalkStorage<THREADS, V>) + 1024;
  static_assert(kBytes + kStaticBytes <= 227 * 1024, "a block group's tables must fit the H200's 227 KiB per block");
};

template <class SR, class V, int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS)
    hash_numeric_block_kernel(device::CsrView<V> a, device::CsrView<V> b, const vid_t* min_col, const vid_t* max_col,
                              const vid_t* rows, NumericOutput<V> out, int* error, unsigned long long* dense_rows) {
  using Monoid = typename SR::add_monoid;
  using Layout = BlockNumericLayout<V, THREADS, ITEMS>;
  constexpr int kSlots = Layout::kSlots;
  constexpr int log2_slots = exact_log2(kSlots);
  static_assert((1 << log2_slots) == kSlots);
  extern __shared__ __align__(16) unsigned char smem[];
  V* vals = reinterpret_cast<V*>(smem);
  unsigned* keys = reinterpret_cast<unsigned*>(smem + Layout::kValueBytes);
  __shared__ typename BitmapScan<THREADS>::TempStorage scan_storage;
  __shared__ RowWalkStorage<THREADS, V> walk;
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
    if (dense) atomicAdd(dense_rows, 1ull);
  }
  __syncthreads();

  int fresh = 0;
  bool overflow = false;
  walk_row_products<THREADS>(
      walk, a.rowptr[row], a.rowptr[row + 1], a.col, b.rowptr, [&](eid_t j) { return a_value<SR>(a, j); },
      [&](eid_t q) { return BEntry<V>{b.col[q], b_value<SR>(b, q)}; },
      [&](eid_t j, BEntry<V> e, V av) {
        const vid_t c = e.col;
        const V x = SR::template multiply<V>(av, e.val, a.col[j]);
        if (dense) {
          const unsigned off = static_cast<unsigned>(c - lo);
          accumulate<Monoid>(vals + off, x);
          atomicOr(keys + (off >> 5), 1u << (off & 31));
        } else {
          const int ins = insert_accumulate<Monoid>(keys, vals, log2_slots, static_cast<unsigned>(c), x);
          fresh += ins == 1;
          overflow |= ins < 0;
        }
        return true;
      });
  if (fresh) atomicAdd(&s_fresh, fresh);
  if (overflow) *error = kErrorTableFull;
  __syncthreads();

  if (dense) {
    // Each thread owns a run of bitmap words, whose columns rank from run.pos on. The entries
    // go out in rank order through a stage after the bitmap, so that the stores coalesce.
    const BitmapRun run = scan_bitmap_runs<THREADS>(scan_storage, keys, key_words);
    if (threadIdx.x == 0 && run.total != n) *error = kErrorCountMismatch;
    const std::size_t stage_at = (std::size_t(key_words) * sizeof(unsigned) + 15) / 16 * 16;
    const RowStage<V> stage(reinterpret_cast<unsigned char*>(keys) + stage_at, Layout::kKeyBytes - stage_at);
    for (int first = 0; first < n; first += stage.capacity) {
      int pos = run.pos;
      for (int w = run.w0; w < run.w1 && pos < first + stage.capacity; ++w) {
        unsigned bits = keys[w];
        while (bits) {
          const int off = w * 32 + __ffs(bits) - 1;
          bits &= bits - 1;
          const unsigned at = static_cast<unsigned>(pos - first);
          if (at < static_cast<unsigned>(stage.capacity)) {
            stage.col[at] = lo + off;
            stage.val[at] = vals[off];
          }
          ++pos;
        }
      }
      stage.template flush<THREADS>(min(stage.capacity, n - first), out_col + first, out_val + first);
    }
    return;
  }

  if (threadIdx.x == 0 && s_fresh != n) *error = kErrorCountMismatch;
  // Hash mode: each key relative to lo (span > kSlots here); empty slots become `span`, larger
  // than every key.
  unsigned sort_keys[ITEMS];
  unsigned short slot[ITEMS];
  for (int i = 0; i < ITEMS; ++i) {
    const int s = i * THREADS + threadIdx.x;  // any arrangement will do: the slots are unordered
    const unsigned key = keys[s];
    sort_keys[i] = key == kEmptyKey ? static_cast<unsigned>(span) : key - static_cast<unsigned>(lo);
    slot[i] = static_cast<unsigned short>(s);
  }
  __syncthreads();  // the keys are in registers: their shared memory becomes scratch

  const int words = static_cast<int>((span + 31) / 32);
  if (words <= Layout::kRankWords) {
    // A key's rank is the set bits before it in a presence bitmap over the span: its word's
    // first rank (a block scan of the popcounts) plus a popcount within the word. Cheaper
    // than the radix sort, which took ~40% of numeric block 7's stall samples on email-Enron
    // A*A (16384 keys of 16 bits, 4 passes).
    unsigned* present = keys;
    auto* first_rank = reinterpret_cast<unsigned short*>(keys + Layout::kRankWords);
    for (int w = threadIdx.x; w < words; w += THREADS) present[w] = 0;
    __syncthreads();
    for (int i = 0; i < ITEMS; ++i)
      if (sort_keys[i] < span) atomicOr(present + (sort_keys[i] >> 5), 1u << (sort_keys[i] & 31));
    __syncthreads();
    const BitmapRun run = scan_bitmap_runs<THREADS>(scan_storage, present, words);
    int pos = run.pos;
    for (int w = run.w0; w < run.w1; ++w) {
      first_rank[w] = static_cast<unsigned short>(pos);
      pos += __popc(present[w]);
    }
    __syncthreads();
    // Each key's rank, with its slot: rank << 16 | slot (both below 2^16).
    constexpr unsigned kUnplaced = ~0u;
    unsigned placed[ITEMS];
    for (int i = 0; i < ITEMS; ++i) {
      const unsigned off = sort_keys[i];
      placed[i] = kUnplaced;
      if (off < span)
        placed[i] = (first_rank[off >> 5] + __popc(present[off >> 5] & ((1u << (off & 31)) - 1))) << 16 | slot[i];
    }
    __syncthreads();  // the bitmap is read: the key part now stages the entries in rank order
    const RowStage<V> stage(reinterpret_cast<unsigned char*>(keys), Layout::kKeyBytes);
    static_assert(Layout::kKeyBytes / (sizeof(V) + sizeof(vid_t)) + kSlots <= 0xffff,
                  "an unplaced key's stage offset must exceed the stage");
    for (int first = 0; first < n; first += stage.capacity) {
      for (int i = 0; i < ITEMS; ++i) {
        const unsigned at = (placed[i] >> 16) - static_cast<unsigned>(first);  // kUnplaced: past the stage
        if (at < static_cast<unsigned>(stage.capacity)) {
          stage.col[at] = lo + static_cast<vid_t>(sort_keys[i]);
          stage.val[at] = vals[placed[i] & 0xffffu];
        }
      }
      stage.template flush<THREADS>(min(stage.capacity, n - first), out_col + first, out_val + first);
    }
    return;
  }
  // Wider spans: sort the keys (bits >= log2 + 1 here); empty slots sort last.
  const int bits = bit_width(static_cast<std::uint64_t>(span));
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
    hash_numeric_global_kernel(device::CsrView<V> a, device::CsrView<V> b, const vid_t* rows,
                               const eid_t* table_offsets, unsigned* table_keys, V* table_vals,
                               const eid_t* packed_offsets, unsigned* packed_keys, unsigned* packed_slots,
                               int* error) {
  using Monoid = typename SR::add_monoid;
  __shared__ RowWalkStorage<kGlobalNumericThreads, V> walk;
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

  bool overflow = false;
  walk_row_products<kGlobalNumericThreads>(
      walk, a.rowptr[row], a.rowptr[row + 1], a.col, b.rowptr, [&](eid_t j) { return a_value<SR>(a, j); },
      [&](eid_t q) { return BEntry<V>{b.col[q], b_value<SR>(b, q)}; },
      [&](eid_t j, BEntry<V> e, V av) {
        const V x = SR::template multiply<V>(av, e.val, a.col[j]);
        overflow |= insert_accumulate<Monoid>(keys, vals, log2_slots, static_cast<unsigned>(e.col), x) < 0;
        return true;
      });
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

// Global-path rows accumulated densely (global_row_dense): one block per row, the row's values
// over its span in global memory (at values + value_offsets[r]), a presence bitmap over the span
// in shared memory; the row is written in column order, placed by a block scan of the bitmap's
// popcounts.
template <class SR, class V>
__global__ void __launch_bounds__(kGlobalNumericThreads)
    dense_numeric_global_kernel(device::CsrView<V> a, device::CsrView<V> b, const vid_t* rows, const vid_t* min_col,
                                const vid_t* max_col, const eid_t* value_offsets, V* values, NumericOutput<V> out,
                                int* error, unsigned long long* dense_rows) {
  using Monoid = typename SR::add_monoid;
  extern __shared__ unsigned present[];
  __shared__ RowWalkStorage<kGlobalNumericThreads, V> walk;
  __shared__ typename BitmapScan<kGlobalNumericThreads>::TempStorage scan;
  const vid_t row = rows[blockIdx.x];
  const vid_t lo = min_col[row];
  const int span = static_cast<int>(eid_t(max_col[row]) - lo + 1);  // <= kGlobalDenseMaxSpan
  const int words = (span + 31) / 32;
  V* vals = values + value_offsets[blockIdx.x];
  for (int s = threadIdx.x; s < span; s += kGlobalNumericThreads) vals[s] = SR::template identity<V>();
  for (int w = threadIdx.x; w < words; w += kGlobalNumericThreads) present[w] = 0;
  if (threadIdx.x == 0) atomicAdd(dense_rows, 1ull);
  __syncthreads();
  walk_row_products<kGlobalNumericThreads>(
      walk, a.rowptr[row], a.rowptr[row + 1], a.col, b.rowptr, [&](eid_t j) { return a_value<SR>(a, j); },
      [&](eid_t q) { return BEntry<V>{b.col[q], b_value<SR>(b, q)}; },
      [&](eid_t j, BEntry<V> e, V av) {
        const unsigned off = static_cast<unsigned>(e.col - lo);
        accumulate<Monoid>(vals + off, SR::template multiply<V>(av, e.val, a.col[j]));
        atomicOr(present + (off >> 5), 1u << (off & 31));
        return true;
      });
  // The walk ended with a block-wide barrier: every accumulation is done.
  const eid_t start = out.rowptr[row];
  const int n = static_cast<int>(out.rowptr[row + 1] - start);
  vid_t* out_col = out.col + (start - out.base);
  V* out_val = out.val + (start - out.base);
  const BitmapRun run = scan_bitmap_runs<kGlobalNumericThreads>(scan, present, words);
  if (threadIdx.x == 0 && run.total != n) *error = kErrorCountMismatch;
  int pos = run.pos;
  for (int w = run.w0; w < run.w1; ++w) {
    unsigned bits = present[w];
    while (bits) {
      const int off = w * 32 + __ffs(bits) - 1;
      bits &= bits - 1;
      if (pos < n) {
        out_col[pos] = lo + off;
        out_val[pos] = *reinterpret_cast<volatile V*>(vals + off);  // written by other threads' atomics
      }
      ++pos;
    }
  }
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
                               const Buckets& buckets, const NumericOutput<V>& out, int* error,
                               unsigned long long* dense_rows, cudaStream_t stream) {
  constexpr int id = block_group_id(GROUP);
  const eid_t count = buckets.count(id);
  if (count == 0) return;
  constexpr BlockGroup shape = numeric_shape(GROUP);
  constexpr int threads = shape.block_threads, items = shape.slots / shape.block_threads;
  using Layout = BlockNumericLayout<V, threads, items>;
  auto kernel = hash_numeric_block_kernel<SR, V, threads, items>;
  SPGRAPH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(Layout::kBytes)));
  kernel<<<static_cast<unsigned>(count), threads, Layout::kBytes, stream>>>(
      a, b, stats.min_col.data(), stats.max_col.data(), buckets.begin(id), out, error, dense_rows);
  SPGRAPH_CHECK_LAUNCH("hash_numeric_block_kernel");
}

template <class SR, class V, int TIER>
void launch_hash_numeric_warp_tier(const device::CsrView<V>& a, const device::CsrView<V>& b, const Buckets& buckets,
                                   const NumericOutput<V>& out, int* error, cudaStream_t stream) {
  constexpr WarpTier tier = warp_tier(TIER);
  launch_lane_tier(hash_numeric_warp_tier_kernel<SR, V, tier.threads, tier.numeric_slots>,
                   "hash_numeric_warp_tier_kernel", tier.threads, buckets, TIER, stream, a, b, out, error);
}

template <class SR, class V>
void launch_hash_numeric_sort_tiers(const device::CsrView<V>& a, const device::CsrView<V>& b, const RowStats& stats,
                                    const Buckets& buckets, const NumericOutput<V>& out, int* error,
                                    GroupStreams& streams) {
  static_assert(kSortTiers == kNarrowSortTiers + 1 && kNarrowSortTiers == 4);
  static_assert(sort_tier(0).items == kNarrowItems && sort_tier(kNarrowSortTiers - 1).items == kNarrowItems);
  const NarrowSortTiers narrow = shared_lane_launch<kNarrowSortTiers>(
      buckets, {sort_tier_id(0), sort_tier_id(1), sort_tier_id(2), sort_tier_id(3)},
      {sort_tier(0).threads, sort_tier(1).threads, sort_tier(2).threads, sort_tier(3).threads});
  if (const unsigned blocks = narrow.first[kNarrowSortTiers]) {
    hash_numeric_narrow_sort_tiers_kernel<SR, V><<<blocks, kWarpTierBlockThreads, 0, streams[sort_tier_id(0)]>>>(
        a, b, narrow, stats.min_col.data(), out, error);
    SPGRAPH_CHECK_LAUNCH("hash_numeric_narrow_sort_tiers_kernel");
  }
  constexpr SortTier wide = sort_tier(kNarrowSortTiers);
  launch_lane_tier(hash_numeric_sort_tier_kernel<SR, V, wide.threads, wide.items>, "hash_numeric_sort_tier_kernel",
                   wide.threads, buckets, sort_tier_id(kNarrowSortTiers), streams[sort_tier_id(kNarrowSortTiers)], a,
                   b, stats.min_col.data(), out, error);
}

// The global-path rows of a panel and their batches, planned before any kernel of the panel is
// queued, so that a batch that cannot fit throws with nothing in flight.
struct GlobalRowsPlan {
  std::vector<vid_t> rows;
  std::vector<RowShape> shapes;
  std::vector<char> dense;     // global_row_dense of each row
  std::vector<Panel> batches;  // ranges of rows[]
};

template <class V>
GlobalRowsPlan plan_global_rows(const vid_t* d_rows, eid_t count, const eid_t* rowptr, const RowStats& stats,
                                bool force_global, const Budget& budget, std::size_t room, cudaStream_t stream) {
  GlobalRowsPlan plan;
  plan.shapes = row_shapes(d_rows, count, rowptr, stats, stream);
  plan.rows.resize(count);
  plan.dense.resize(count);
  std::vector<std::uint64_t> cost(count + 1, 0);
  for (eid_t i = 0; i < count; ++i) {
    const RowShape& r = plan.shapes[i];
    plan.rows[i] = r.row;
    plan.dense[i] = global_row_dense(r.nnz, r.span, force_global);
    cost[i + 1] = cost[i] + global_row_bytes(r.nnz, r.span, plan.dense[i], sizeof(V));
  }
  plan.batches = plan_panels(cost, room, budget, [&](vid_t i) {
    return "row " + std::to_string(plan.rows[i]) + " (" + std::to_string(plan.shapes[i].nnz) + " entries of C, " +
           (plan.dense[i] ? "accumulated over its span of " + std::to_string(plan.shapes[i].span) + " columns"
                          : std::string("accumulated in a hash table")) +
           " in global memory)";
  });
  return plan;
}

template <class SR, class V>
void hash_numeric_global(const device::CsrView<V>& a, const device::CsrView<V>& b, const RowStats& stats,
                         const GlobalRowsPlan& plan, const NumericOutput<V>& out, int* error,
                         unsigned long long* dense_rows, cudaStream_t stream) {
  for (const Panel& batch : plan.batches) {
    // Offsets of each dense row's values; of each hashed row's table and packed entries.
    std::vector<vid_t> dense_list, hash_list;
    std::vector<eid_t> value_offsets{0}, table_offsets{0}, packed_offsets{0};
    eid_t widest = 0;
    for (vid_t i = batch.first; i < batch.last; ++i) {
      const RowShape& r = plan.shapes[i];
      if (plan.dense[i]) {
        dense_list.push_back(plan.rows[i]);
        value_offsets.push_back(value_offsets.back() + r.span);
        widest = std::max(widest, r.span);
      } else {
        hash_list.push_back(plan.rows[i]);
        table_offsets.push_back(table_offsets.back() + global_table_slots(r.nnz));
        packed_offsets.push_back(packed_offsets.back() + r.nnz);
      }
    }
    if (!dense_list.empty()) {
      const auto m = static_cast<unsigned>(dense_list.size());
      device::Buffer<vid_t> d_list(0, stream);
      d_list.upload(dense_list);
      device::Buffer<eid_t> d_value_offsets(0, stream);
      d_value_offsets.upload(value_offsets);
      device::Buffer<V> values(value_offsets.back(), stream);
      const std::size_t smem = std::size_t((widest + 31) / 32) * sizeof(unsigned);
      auto kernel = dense_numeric_global_kernel<SR, V>;
      SPGRAPH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
      kernel<<<m, kGlobalNumericThreads, smem, stream>>>(a, b, d_list.data(), stats.min_col.data(),
                                                         stats.max_col.data(), d_value_offsets.data(), values.data(),
                                                         out, error, dense_rows);
      SPGRAPH_CHECK_LAUNCH("dense_numeric_global_kernel");
    }
    if (hash_list.empty()) continue;
    const auto m = static_cast<unsigned>(hash_list.size());
    device::Buffer<vid_t> d_list(0, stream);
    d_list.upload(hash_list);
    device::Buffer<eid_t> d_table_offsets(0, stream), d_packed_offsets(0, stream);
    d_table_offsets.upload(table_offsets);
    d_packed_offsets.upload(packed_offsets);
    const eid_t slots = table_offsets.back(), packed = packed_offsets.back();
    device::Buffer<unsigned> table_keys(slots, stream);
    device::Buffer<V> table_vals(slots, stream);
    device::Buffer<unsigned> packed_keys(packed, stream), packed_slots(packed, stream);
    device::Buffer<unsigned> sorted_keys(packed, stream), sorted_slots(packed, stream);
    hash_numeric_global_kernel<SR, V><<<m, kGlobalNumericThreads, 0, stream>>>(
        a, b, d_list.data(), d_table_offsets.data(), table_keys.data(), table_vals.data(), d_packed_offsets.data(),
        packed_keys.data(), packed_slots.data(), error);
    SPGRAPH_CHECK_LAUNCH("hash_numeric_global_kernel");
    segmented_sort_pairs(packed_keys.data(), sorted_keys.data(), packed_slots.data(), sorted_slots.data(), packed, m,
                         d_packed_offsets.data(), d_packed_offsets.data() + 1, stream);
    gather_sorted_rows_kernel<V><<<m, 256, 0, stream>>>(d_list.data(), d_packed_offsets.data(), sorted_keys.data(),
                                                        sorted_slots.data(), d_table_offsets.data(), table_vals.data(),
                                                        out);
    SPGRAPH_CHECK_LAUNCH("gather_sorted_rows_kernel");
  }
}

// The numeric pass over the rows in `buckets` (grouped by numeric_group): each row i is written
// to out at rowptr[i] - base. global_room: bytes the global path's batches may use. Rows
// accumulated densely are counted in *dense_rows. Returns how many rows took the global path.
template <class SR, class V>
vid_t hash_numeric(const device::CsrView<V>& a, const device::CsrView<V>& b, const RowStats& stats,
                   const Buckets& buckets, const NumericOutput<V>& out, bool force_global, const Budget& budget,
                   std::size_t global_room, GroupStreams& streams, cudaStream_t main, int* error,
                   unsigned long long* dense_rows) {
  GlobalRowsPlan global_plan;
  if (const eid_t count = buckets.count(kGlobalGroup))
    global_plan = plan_global_rows<V>(buckets.begin(kGlobalGroup), count, out.rowptr, stats, force_global, budget,
                                      global_room, main);

  // Launch order: from the largest rows down, or forking only the groups with rows, gained
  // nothing measurable: the device starts the kernels one after another whoever launches them
  // (figures in docs/performance/spgemm.md).
  streams.fork(main);
  static_assert(kFirstNumericWarpTier == 3 && kWarpTiers == 4);
  launch_hash_numeric_warp_tier<SR, V, 3>(a, b, buckets, out, error, streams[3]);
  launch_hash_numeric_sort_tiers<SR, V>(a, b, stats, buckets, out, error, streams);
  launch_hash_numeric_block<SR, V, 1>(a, b, stats, buckets, out, error, dense_rows, streams[block_group_id(1)]);
  launch_hash_numeric_block<SR, V, 2>(a, b, stats, buckets, out, error, dense_rows, streams[block_group_id(2)]);
  launch_hash_numeric_block<SR, V, 3>(a, b, stats, buckets, out, error, dense_rows, streams[block_group_id(3)]);
  launch_hash_numeric_block<SR, V, 4>(a, b, stats, buckets, out, error, dense_rows, streams[block_group_id(4)]);
  launch_hash_numeric_block<SR, V, 5>(a, b, stats, buckets, out, error, dense_rows, streams[block_group_id(5)]);
  launch_hash_numeric_block<SR, V, 6>(a, b, stats, buckets, out, error, dense_rows, streams[block_group_id(6)]);
  launch_hash_numeric_block<SR, V, 7>(a, b, stats, buckets, out, error, dense_rows, streams[block_group_id(7)]);
  static_assert(kBlockGroups == 7);
  if (!global_plan.rows.empty())
    hash_numeric_global<SR, V>(a, b, stats, global_plan, out, error, dense_rows, streams[kGlobalGroup]);
  streams.join(main);
  return static_cast<vid_t>(buckets.count(kGlobalGroup));
}

}  // namespace spgraph::gpu::spgemm_detail
