#pragma once
// MCL's pruned expansion without a symbolic pass (mxm_prune_rows.cu takes it for heavy
// products). A block of 1024 threads takes a row at a time:
//   1. Its products are summed densely in shared memory, kTileBytes of columns at a time (a
//      warp per entry of A's row; B's rows are sorted, so each entry resumes its B row where the
//      last tile stopped). No keys, no probing, no table sized in advance.
//      A row whose products are spread thinly over many tiles' columns (cit-Patents: a few
//      hundred a tile in each of 231) takes hashed tiles instead: pieces of its column range
//      wide enough for a few thousand columns, summed in a hash table in the same shared
//      memory and put in column order (by a bitmap of the piece's columns, or a sort where the
//      piece is wider than that), so each row of B is walked a few times, not once a tile.
//   2. Each tile's entries go to the block's scratch in global memory in column order (a scan
//      over the tile's 32-column chunks, only those touched read): one row a block, so the
//      scratch stays in L2.
//   3. The row is pruned there by prune_rows_impl.cuh's rules (the summary, the bar by a radix
//      select, the kept entries compacted) and only what it keeps is staged: at most
//      max(select, recover) entries a row.
// A row keeping more (ties at its bar) goes to an overflow area; rows that find no room there
// are left over to the hash product's panels. A's rows longer than the shared cursors keep
// theirs in global memory. Presence needs no bitmap: a tile starts at -0.0, and where no value
// of A or B has its sign bit set every product is >= +0.0, so a column is present exactly where
// its bits are no longer -0.0's (-0.0 + x = x for x >= +0.0).
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "gpu/spgemm/device_ops.cuh"
#include "gpu/spgemm/internal.hpp"
#include "gpu/spgemm/prune_rows_impl.cuh"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/device_csr.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/gpu/spgemm.hpp"

namespace spgraph::gpu::prune_detail {

constexpr int kTileThreads = 1024;
constexpr int kTileWarps = kTileThreads / 32;
constexpr int kTileBytes = 128 * 1024;  // the dense accumulator, then a Select row's candidates
constexpr int kTileCursors = 2048;      // entries of A's row whose place in their B row is kept
// Chunks of 32 entries of B a warp loads at once, by the size of B's values as loaded: more
// loads in flight hide more latency, until the registers spill (docs/performance/mcl.md, "Loads
// a step").
template <class BV>
constexpr int kTileStep = sizeof(BV) == 4 ? 6 : 2;

template <class V>
struct Tile {
  static constexpr int kColumns = kTileBytes / int(sizeof(V));
  static constexpr int kChunks = kColumns / 32;
  static_assert(kChunks <= kTileThreads, "a thread scans a chunk");
  // Dynamic shared memory: the tile, then per entry of A's row where its B row resumes, where
  // it ends, and its value.
  static constexpr std::size_t kResumeAt = kTileBytes;
  static constexpr std::size_t kEndAt = kResumeAt + kTileCursors * sizeof(eid_t);
  static constexpr std::size_t kValueAt = kEndAt + kTileCursors * sizeof(eid_t);
  static constexpr std::size_t kSharedBytes = kValueAt + kTileCursors * sizeof(V);
  using Bits = std::conditional_t<sizeof(V) == 4, std::uint32_t, std::uint64_t>;
  __device__ static V empty() { return -V(0); }
  __device__ static bool is_empty(V v) {
    Bits u, e;
    const V z = empty();
    memcpy(&u, &v, sizeof(V));
    memcpy(&e, &z, sizeof(V));
    return u == e;
  }
};

// The hashed tile, in the dense tile's shared memory: a piece of the row's column range of any
// width, its columns in an open-addressing table. A piece that finds more than kFill columns is
// walked again at half the width; the next piece's width aims at kTarget columns from what the
// last one found. Each piece's entries go out in column order: placed by a bitmap of the
// piece's columns in the rest of the shared memory where the piece is no wider than it, else
// sorted in the block.
template <class V>
struct HashTile {
  static constexpr int kLog2Slots = 13;
  static constexpr int kSlots = 1 << kLog2Slots;
  static constexpr int kItems = kSlots / kTileThreads;
  static constexpr int kFill = kSlots / 2;
  static constexpr int kTarget = kSlots * 3 / 8;
  static constexpr std::size_t kValuesAt = kSlots * sizeof(unsigned);
  static constexpr std::size_t kBitmapAt = kValuesAt + kSlots * sizeof(V);
  static constexpr int kBitmapWords = int((std::size_t(kTileBytes) - kBitmapAt) / sizeof(unsigned));
  static constexpr int kWordsPerThread = kBitmapWords / kTileThreads;
  static constexpr eid_t kBitmapColumns = eid_t(kBitmapWords) * 32;
  static_assert(kBitmapAt < std::size_t(kTileBytes) && kBitmapWords % kTileThreads == 0);
  using Sort = cub::BlockRadixSort<unsigned, kTileThreads, kItems, V>;
  static_assert(sizeof(typename Sort::TempStorage) <= std::size_t(kTileBytes), "the sort reuses the table");
};

// Whether the hashed tiles take a row of `products` products over columns [lo, hi]: where they
// walk B's rows at least kHashedFewerWalks times less often than the dense tiles would (a
// piece at worst for every kTarget products, against a tile for every kColumns columns).
constexpr eid_t kHashedFewerWalks = 4;
template <class V>
__host__ __device__ inline bool hashed_row(eid_t products, vid_t lo, vid_t hi) {
  if (products == 0) return false;
  const eid_t windows = (eid_t(hi) - eid_t(lo)) / Tile<V>::kColumns + 1;
  const eid_t pieces = (products + HashTile<V>::kTarget - 1) / HashTile<V>::kTarget;
  return pieces * kHashedFewerWalks <= windows;
}

// What the kernel reads and writes for the listed rows of A*B, which lie in [first, ...).
template <class V>
struct TileJob {
  device::CsrView<V> a, b;
  const float* b_float;  // a double B's values as floats, read where the kernel's BV is float
  const eid_t* products; // per row of A: its products, and the columns they reach
  const vid_t* min_col;  // (spgemm_detail::RowStats)
  const vid_t* max_col;
  const vid_t* rows;     // the rows this kernel takes, row_count of them
  vid_t row_count;
  vid_t first;
  PruneSpec spec;
  eid_t cap;             // entries a row may stage
  vid_t* stage_col;      // row i's kept entries at (i - first) * cap
  V* stage_val;
  eid_t* kept;           // per row i - first; a left-over row's is set afterwards
  vid_t* overflow_col;   // rows keeping more than cap, at overflow_at[i - first] (-1 elsewhere)
  V* overflow_val;
  eid_t* overflow_at;
  eid_t overflow_cap;
  unsigned long long* overflow_used;
  V* peak;               // per row of the product
  V* squares;
  vid_t* scratch_col;    // scratch_cap entries a block: a row's columns
  V* scratch_val;
  eid_t scratch_cap;
  eid_t* long_resume;    // the cursors of A's rows longer than kTileCursors: long_cap a block
  eid_t* long_end;
  V* long_val;
  eid_t long_cap;
  vid_t* left_over;      // rows for the panel path, *left_count of them
  vid_t* left_count;
  vid_t* next_row;       // the blocks' counter into rows, from 0
  unsigned long long* entries;  // entries of the product before pruning
  int* error;
};

// BV: the type B's values are loaded as (float where they all are floats: half the bytes).
// kHashed: each tile a hashed piece of the column range (HashTile), else a dense one.
template <class V, class BV, bool kHashed>
__global__ void __launch_bounds__(kTileThreads, 1) tile_prune_kernel(TileJob<V> job) {
  using T = Tile<V>;
  using H = HashTile<V>;
  using Group = BlockGroupOf<kTileThreads, kTileBytes>;
  using Scan = cub::BlockScan<unsigned, kTileThreads>;
  extern __shared__ __align__(16) unsigned char smem[];
  V* const tile = reinterpret_cast<V*>(smem);
  unsigned* const keys = reinterpret_cast<unsigned*>(smem);
  V* const sums = reinterpret_cast<V*>(smem + H::kValuesAt);
  unsigned* const bitmap = reinterpret_cast<unsigned*>(smem + H::kBitmapAt);
  __shared__ unsigned words_before[kHashed ? kTileThreads : 1];  // set bits in the words of lower threads
  __shared__ std::uint8_t touched[kHashed ? 1 : T::kChunks];
  __shared__ unsigned present[kHashed ? 1 : T::kChunks];
  __shared__ unsigned before[kHashed ? 1 : T::kChunks];
  eid_t* const shared_resume = reinterpret_cast<eid_t*>(smem + T::kResumeAt);
  eid_t* const shared_end = reinterpret_cast<eid_t*>(smem + T::kEndAt);
  V* const shared_val = reinterpret_cast<V*>(smem + T::kValueAt);
  __shared__ typename Scan::TempStorage scan;
  __shared__ typename Group::Temp temp;
  __shared__ vid_t s_row;
  __shared__ vid_t s_next;   // the smallest column a product left for later tiles reaches
  __shared__ int s_columns;  // hashed: the columns the piece's table holds
  __shared__ int s_full;     // hashed: the piece found more than kFill of them
  const Group g{temp, temp.hist, tile};
  const int lane = int(threadIdx.x & 31), warp = int(threadIdx.x >> 5);
  const device::CsrView<V>& a = job.a;
  const device::CsrView<V>& b = job.b;
  const BV* b_val;
  if constexpr (std::is_same_v<BV, V>)
    b_val = b.val;
  else
    b_val = job.b_float;
  vid_t* const scol = job.scratch_col + eid_t(blockIdx.x) * job.scratch_cap;
  V* const sval = job.scratch_val + eid_t(blockIdx.x) * job.scratch_cap;
  constexpr vid_t kNoColumn = std::numeric_limits<vid_t>::max();
  if constexpr (!kHashed) {
    for (int s = threadIdx.x; s < T::kColumns; s += kTileThreads) tile[s] = T::empty();
    for (int c = threadIdx.x; c < T::kChunks; c += kTileThreads) touched[c] = 0;
  }
  if (threadIdx.x == 0) s_next = kNoColumn;
  const auto leave = [&](vid_t row) {
    if (threadIdx.x == 0) job.left_over[atomicAdd(job.left_count, vid_t(1))] = row;
  };

  while (true) {
    __syncthreads();  // the last row is done with the shared arrays
    if (threadIdx.x == 0) {
      const vid_t k = atomicAdd(job.next_row, vid_t(1));
      s_row = k < job.row_count ? job.rows[k] : kNoColumn;
    }
    __syncthreads();
    const vid_t row = s_row;
    if (row == kNoColumn) return;
    const eid_t a0 = a.rowptr[row], a1 = a.rowptr[row + 1];
    const bool long_row = a1 - a0 > kTileCursors;
    const eid_t long_at = eid_t(blockIdx.x) * job.long_cap;
    eid_t* const resume = long_row ? job.long_resume + long_at : shared_resume;
    eid_t* const end = long_row ? job.long_end + long_at : shared_end;
    V* const a_val = long_row ? job.long_val + long_at : shared_val;
    for (eid_t j = a0 + threadIdx.x; j < a1; j += kTileThreads) {
      const vid_t k = a.col[j];
      resume[j - a0] = b.rowptr[k];
      end[j - a0] = b.rowptr[k + 1];
      a_val[j - a0] = a.val[j];
    }

    // 1-2. The row's entries into the scratch, a tile at a time; each tile starts at the
    // smallest column left, so tiles skip the spans no product reaches.
    const int entries = int(a1 - a0);
    const eid_t lo = job.min_col[row], hi = job.max_col[row];
    // hashed: the first piece's width as if every product had a column of its own
    eid_t width = kHashed ? std::max<eid_t>(1, H::kTarget * (hi - lo + 1) / std::max<eid_t>(job.products[row], 1))
                          : eid_t(T::kColumns);
    eid_t n = 0;
    for (eid_t t0 = lo; t0 <= hi;) {
      const eid_t t1 = std::min<eid_t>(hi + 1, t0 + width);
      if constexpr (kHashed) {
        __syncthreads();  // the last piece's sort is done with the table
        for (int s = threadIdx.x; s < H::kSlots; s += kTileThreads) {
          keys[s] = spgemm_detail::kEmptyKey;
          sums[s] = V(0);
        }
        for (int q = threadIdx.x; q < H::kBitmapWords; q += kTileThreads) bitmap[q] = 0;
        if (threadIdx.x == 0) {
          s_columns = 0;
          s_full = 0;
        }
      }
      __syncthreads();  // the cursors are set, the last tile written out, s_next reset
      for (int e = warp; e < entries; e += kTileWarps) {
        const V av = a_val[e];
        const eid_t qe = end[e];
        eid_t q = resume[e];
        while (true) {
          if constexpr (kHashed) {  // another warp found the piece too full
            int full = 0;
            if (lane == 0) full = atomicOr(&s_full, 0);
            if (__shfl_sync(kFullWarp, full, 0) != 0) break;
          }
          // STEP chunks of 32 entries loaded at once, each value beside its column: one wait
          // a step (a lane past the tile loads again with the next tile).
          constexpr int STEP = kTileStep<BV>;
          vid_t c[STEP];
          BV bv[STEP];
#pragma unroll
          for (int k = 0; k < STEP; ++k) {
            const eid_t p = q + k * 32 + lane;
            const bool real = p < qe;
            c[k] = real ? b.col[p] : kNoColumn;
            bv[k] = real ? b_val[p] : BV(0);
          }
          int took_all = 0, claimed = 0;
          bool stop = false, no_room = false;
#pragma unroll
          for (int k = 0; k < STEP; ++k) {
            if (stop) break;  // the same in every lane
            const bool in = eid_t(c[k]) < t1;
            if (in) {
              const V x = av * V(bv[k]);
              if constexpr (kHashed) {
                const int r = spgemm_detail::insert_accumulate<monoid::Plus>(keys, sums, H::kLog2Slots, c[k], x);
                claimed += int(r == 1);
                no_room |= r < 0;
              } else {
                const unsigned off = unsigned(eid_t(c[k]) - t0);
                spgemm_detail::accumulate<monoid::Plus>(tile + off, x);
                touched[off >> 5] = 1;
              }
            }
            const unsigned took = __ballot_sync(kFullWarp, in);  // a prefix of the lanes: B's row is sorted
            took_all += __popc(took);
            if (took != kFullWarp) {
              if (lane == __popc(took) && c[k] != kNoColumn) atomicMin(&s_next, c[k]);
              stop = true;
            }
          }
          q += took_all;
          if constexpr (kHashed) {
            const int found = warp_sum(claimed);
            const bool full = __any_sync(kFullWarp, no_room);
            if (lane == 0 && (full || (found > 0 && atomicAdd(&s_columns, found) + found > H::kFill)))
              atomicOr(&s_full, 1);
          }
          if (stop) break;
        }
        __syncwarp();  // orders every lane's read of resume[e] before lane 0 rewrites it
        if (lane == 0) resume[e] = q;
      }
      __syncthreads();
      const eid_t next = s_next;
      if constexpr (kHashed) {
        if (s_full) {  // the same piece again at half the width, each entry's cursor found anew
          for (int e = threadIdx.x; e < entries; e += kTileThreads) {
            resume[e] = spgemm_detail::lower_bound(b.col, b.rowptr[a.col[a0 + e]], end[e], vid_t(t0));
          }
          width = std::max<eid_t>(1, (t1 - t0) / 2);
          __syncthreads();  // s_next is read
          if (threadIdx.x == 0) s_next = kNoColumn;
          continue;
        }
        const int columns = s_columns;
        const eid_t w = t1 - t0;
        if (w <= H::kBitmapColumns) {
          // Each column's place: the set bits below its own in the piece's bitmap.
          for (int s = threadIdx.x; s < H::kSlots; s += kTileThreads) {
            const unsigned off = keys[s] - unsigned(t0);
            if (keys[s] != spgemm_detail::kEmptyKey) atomicOr(&bitmap[off >> 5], 1u << (off & 31));
          }
          __syncthreads();  // s_next is read
          if (threadIdx.x == 0) s_next = kNoColumn;
          unsigned mine = 0, total = 0;
          for (int q = 0; q < H::kWordsPerThread; ++q) mine += __popc(bitmap[threadIdx.x * H::kWordsPerThread + q]);
          Scan(scan).ExclusiveSum(mine, mine, total);
          words_before[threadIdx.x] = mine;
          __syncthreads();
          for (int s = threadIdx.x; s < H::kSlots; s += kTileThreads) {
            const unsigned k = keys[s];
            if (k == spgemm_detail::kEmptyKey) continue;
            const unsigned off = k - unsigned(t0), word = off >> 5, owner = word / H::kWordsPerThread;
            unsigned r = words_before[owner] + __popc(bitmap[word] & ((1u << (off & 31)) - 1u));
            for (unsigned q = owner * H::kWordsPerThread; q < word; ++q) r += __popc(bitmap[q]);
            scol[n + r] = vid_t(k);
            sval[n + r] = sums[s];
          }
        } else {  // by a sort of every slot (an empty one sorts last)
          unsigned key[H::kItems];
          V sum[H::kItems];
#pragma unroll
          for (int j = 0; j < H::kItems; ++j) {
            const int s = j * kTileThreads + int(threadIdx.x);
            key[j] = keys[s] == spgemm_detail::kEmptyKey ? unsigned(w) : unsigned(eid_t(keys[s]) - t0);
            sum[j] = sums[s];
          }
          __syncthreads();  // the table becomes the sort's storage; s_next is read
          if (threadIdx.x == 0) s_next = kNoColumn;
          auto& sort_temp = *reinterpret_cast<typename H::Sort::TempStorage*>(smem);
          typename H::Sort(sort_temp).SortBlockedToStriped(key, sum, 0, spgemm_detail::bit_width(std::uint64_t(w)));
#pragma unroll
          for (int j = 0; j < H::kItems; ++j) {
            const int r = j * kTileThreads + int(threadIdx.x);
            if (r < columns) {
              scol[n + r] = vid_t(t0 + key[j]);
              sval[n + r] = sum[j];
            }
          }
        }
        n += columns;
        width = std::clamp<eid_t>(w * H::kTarget / std::max(columns, 1), 1, 8 * w);
      } else {
        const int chunks = int((t1 - t0 + 31) / 32);
        for (int c = warp; c < chunks; c += kTileWarps) {
          unsigned bits = 0;
          if (touched[c]) bits = __ballot_sync(kFullWarp, !T::is_empty(tile[c * 32 + lane]));
          if (lane == 0) present[c] = bits;
        }
        __syncthreads();
        if (threadIdx.x == 0) s_next = kNoColumn;  // read above by every thread
        unsigned at = 0, total = 0;
        Scan(scan).ExclusiveSum(int(threadIdx.x) < chunks ? unsigned(__popc(present[threadIdx.x])) : 0u, at, total);
        if (int(threadIdx.x) < chunks) before[threadIdx.x] = at;
        __syncthreads();
        if (n + total > job.scratch_cap) {  // the scratch holds a row's products: never
          if (threadIdx.x == 0) *job.error = spgemm_detail::kErrorTableFull;
          return;
        }
        for (int c = warp; c < chunks; c += kTileWarps) {
          const unsigned bits = present[c];
          if (bits & (1u << lane)) {
            const eid_t p = n + before[c] + __popc(bits & ((1u << lane) - 1u));
            const int s = c * 32 + lane;
            scol[p] = vid_t(t0 + s);
            sval[p] = tile[s];
            tile[s] = T::empty();
          }
          if (lane == 0) touched[c] = 0;
        }
        n += total;
      }
      t0 = next == kNoColumn ? hi + 1 : next;
    }
    __syncthreads();  // the scratch is written

    // 3. The row pruned in the scratch.
    const auto value = [sval](eid_t p) { return sval[p]; };
    const RowStats s = summarise_row(
        g, value, [scol](eid_t p) { return scol[p]; }, 0, n, row, job.spec.threshold);
    PruneCase how{};
    eid_t kept = 0;
    if (g.leader()) {
      job.peak[row] = n > 0 ? V(s.peak) : V(0);
      job.squares[row] = V(s.squares);
      how = ::spgraph::detail::prune_case(n, s.kept, s.kept_mass, job.spec);
      kept = kept_by_summary(how, s, n);
    }
    how = g.from_leader(how);
    kept = g.from_leader(kept);
    double bar = job.spec.threshold;
    if (needs_bar(how)) {
      bar = row_bar<V>(g, how, value, 0, n, kept, job.spec);
      kept = count_at_least(g, value, 0, n, bar);
    }
    // A row keeping more than its stage holds (ties at its bar) goes to the overflow area while
    // that has room, else to the panels.
    const vid_t i = row - job.first;
    eid_t at = eid_t(i) * job.cap;
    vid_t* out_col = job.stage_col;
    V* out_val = job.stage_val;
    if (kept > job.cap) {
      eid_t reserved = 0;
      if (g.leader()) reserved = eid_t(atomicAdd(job.overflow_used, static_cast<unsigned long long>(kept)));
      at = g.from_leader(reserved);
      out_col = job.overflow_col;
      out_val = job.overflow_val;
    }
    if (kept > job.cap && at + kept > job.overflow_cap) {
      leave(row);
    } else {
      if (how == PruneCase::Loop) {  // the diagonal entry alone, set to 1, where the row holds it
        if (g.leader() && kept > 0) {
          out_col[at] = row;
          out_val[at] = V(1);
        }
      } else {
        const bool all = how == PruneCase::KeepAll;
        g.compact(0, n, [&](eid_t p) { return all || double(sval[p]) >= bar; },
                  [&](eid_t p, eid_t k) {
                    out_col[at + k] = scol[p];
                    out_val[at + k] = sval[p];
                  });
      }
      if (g.leader()) {
        job.kept[i] = kept;
        if (kept > job.cap) job.overflow_at[i] = at;
        atomicAdd(job.entries, static_cast<unsigned long long>(n));  // a left-over row's: the panels count it
      }
    }
    if constexpr (!kHashed) {
      if (needs_bar(how)) {  // the tile held the candidates
        __syncthreads();
        for (int t = threadIdx.x; t < T::kColumns; t += kTileThreads) tile[t] = T::empty();
      }
    }
  }
}

// The largest of v[i + 1] - v[i] (rows' lengths, of a rowptr) or of v[i] (with rowptr false),
// i < n, into *largest.
__global__ void largest_kernel(const eid_t* v, vid_t n, bool rowptr, unsigned long long* largest) {
  unsigned long long mine = 0;
  for (vid_t i = vid_t(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += vid_t(gridDim.x * blockDim.x))
    mine = max(mine, static_cast<unsigned long long>(rowptr ? v[i + 1] - v[i] : v[i]));
  if (mine > 0) atomicMax(largest, mine);
}

inline eid_t largest(const eid_t* v, vid_t n, bool rowptr, cudaStream_t stream) {
  device::Buffer<unsigned long long> out(1, stream);
  out.fill_zero();
  constexpr int threads = 256;
  largest_kernel<<<spgemm_detail::grid_for(n, threads), threads, 0, stream>>>(v, n, rowptr, out.data());
  SPGRAPH_CHECK_LAUNCH("largest_kernel");
  return static_cast<eid_t>(device::read_value(out.data(), stream));
}

// The entries a block's scratch must hold: a row's products (stats: row_stats(A, B)), at most
// B's columns.
inline eid_t tile_scratch_columns(const spgemm_detail::RowStats& stats, vid_t nrows, vid_t ncols,
                                  cudaStream_t stream) {
  return std::clamp<eid_t>(largest(stats.products.data(), nrows, false, stream), 1, std::max<eid_t>(ncols, 1));
}

// Where the listed rows of a chunk come from: left_slot[i] >= 0 names row i's place among the
// left-over rows, whose pruned product `left` holds in list order; the others were staged.
template <class V>
__global__ void left_over_counts_kernel(const vid_t* rows, vid_t count, vid_t first, device::CsrView<V> left,
                                        eid_t* kept, int* left_slot) {
  for (vid_t k = vid_t(blockIdx.x * blockDim.x + threadIdx.x); k < count; k += vid_t(gridDim.x * blockDim.x)) {
    const vid_t i = rows[k] - first;
    kept[i] = left.rowptr[k + 1] - left.rowptr[k];
    left_slot[i] = int(k);
  }
}

// The chunk's pruned rows into one CSR (rowptr scanned from kept): a warp a row, from the panels'
// product of the left-over rows, the overflow area or the stage.
template <class V>
__global__ void assemble_kernel(vid_t rows, const eid_t* rowptr, const vid_t* stage_col, const V* stage_val, eid_t cap,
                                const vid_t* overflow_col, const V* overflow_val, const eid_t* overflow_at,
                                const int* left_slot, device::CsrView<V> left, vid_t* col, V* val) {
  const int lane = int(threadIdx.x & 31);
  const eid_t warps = (eid_t(gridDim.x) * blockDim.x) >> 5;
  for (eid_t w = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; w < rows; w += warps) {
    const vid_t i = vid_t(w);
    const eid_t at = rowptr[i], n = rowptr[i + 1] - at;
    const int slot = left_slot[i];
    const eid_t over = overflow_at[i];
    const eid_t from = slot >= 0 ? left.rowptr[slot] : over >= 0 ? over : eid_t(i) * cap;
    const vid_t* from_col = (slot >= 0 ? left.col : over >= 0 ? overflow_col : stage_col) + from;
    const V* from_val = (slot >= 0 ? left.val : over >= 0 ? overflow_val : stage_val) + from;
    for (eid_t k = lane; k < n; k += 32) {
      col[at + k] = from_col[k];
      val[at + k] = from_val[k];
    }
  }
}

template <class V>
__global__ void sign_bits_kernel(const V* v, eid_t n, int* found) {
  using Bits = typename Tile<V>::Bits;
  constexpr Bits kSign = Bits(1) << (8 * sizeof(V) - 1);
  bool any = false;
  for (eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += eid_t(gridDim.x) * blockDim.x) {
    Bits u;
    memcpy(&u, v + p, sizeof(V));
    any |= (u & kSign) != 0;
  }
  if (__syncthreads_or(any) && threadIdx.x == 0) *found = 1;
}

// Whether a value of m has its sign bit set (-0.0 and negative NaNs included): the tiles then
// cannot tell a column's presence from its value.
template <class V>
bool has_sign_bits(const device::DeviceCsr<V>& m, cudaStream_t stream) {
  if (m.nnz() == 0) return false;
  device::Buffer<int> found(1, stream);
  found.fill_zero();
  constexpr int threads = 256;
  sign_bits_kernel<V><<<spgemm_detail::grid_for(m.nnz(), threads), threads, 0, stream>>>(m.val.data(), m.nnz(),
                                                                                        found.data());
  SPGRAPH_CHECK_LAUNCH("sign_bits_kernel");
  return device::read_value(found.data(), stream) != 0;
}

__global__ void narrow_kernel(const double* v, eid_t n, float* out, int* inexact) {
  bool lost = false;
  for (eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += eid_t(gridDim.x) * blockDim.x) {
    const float f = float(v[p]);
    out[p] = f;
    lost |= double(f) != v[p];
  }
  if (__syncthreads_or(lost) && threadIdx.x == 0) *inexact = 1;
}

// m's values as floats where every one is a float (an MCL iterate's, rounded as mcl holds it):
// the tiles then load half the bytes and sum exactly the same products. Empty where one is not.
inline std::optional<device::Buffer<float>> float_values(const device::DeviceCsr<double>& m, cudaStream_t stream) {
  device::Buffer<float> out(m.nnz(), stream);
  device::Buffer<int> inexact(1, stream);
  inexact.fill_zero();
  constexpr int threads = 256;
  if (m.nnz() > 0) {
    narrow_kernel<<<spgemm_detail::grid_for(m.nnz(), threads), threads, 0, stream>>>(m.val.data(), m.nnz(), out.data(),
                                                                                     inexact.data());
    SPGRAPH_CHECK_LAUNCH("narrow_kernel");
  }
  if (device::read_value(inexact.data(), stream) != 0) return std::nullopt;
  return out;
}

// The product's rows the tiles left over (host list, any order), pruned: their CSR in list
// order, peak and squares written at their rows.
template <class V>
using LeftOverRows = std::function<device::DeviceCsr<V>(const std::vector<vid_t>& rows, SpgemmInfo& info)>;

// Bytes of device memory the tiles take besides the stage and the overflow area, which take what
// the caller gives them: the blocks' scratch (tile_scratch_columns entries a block) and a double
// B's values as floats.
template <class V>
std::size_t tile_scratch_bytes(eid_t scratch_columns, eid_t b_nnz) {
  const std::size_t as_floats = std::is_same_v<V, double> ? std::size_t(b_nnz) * sizeof(float) : 0;
  return std::size_t(device::multiprocessor_count()) * std::size_t(scratch_columns) * (sizeof(vid_t) + sizeof(V)) +
         as_floats;
}

// Which tiles take a row: hashed_row's choice, or every row dense or hashed (tests, experiments).
enum class TileRows { Auto, Dense, Hashed };

// Per row i of [first, first + rows): 1 where the hashed tiles take it (hashed[rows] = 0).
template <class V>
__global__ void hashed_flags_kernel(const eid_t* products, const vid_t* min_col, const vid_t* max_col, vid_t first,
                                    vid_t rows, TileRows how, eid_t* hashed) {
  for (vid_t i = vid_t(blockIdx.x * blockDim.x + threadIdx.x); i <= rows; i += vid_t(gridDim.x * blockDim.x)) {
    const vid_t r = first + i;
    hashed[i] = i < rows && (how == TileRows::Hashed ||
                             (how == TileRows::Auto && hashed_row<V>(products[r], min_col[r], max_col[r])));
  }
}

// The rows in two lists, each in row order: the dense tiles' first, then the hashed tiles' (at:
// hashed scanned, at[rows] of them).
__global__ void split_rows_kernel(const eid_t* hashed, const eid_t* at, vid_t first, vid_t rows, vid_t* listed) {
  const vid_t dense = rows - vid_t(at[rows]);
  for (vid_t i = vid_t(blockIdx.x * blockDim.x + threadIdx.x); i < rows; i += vid_t(gridDim.x * blockDim.x))
    listed[hashed[i] ? dense + vid_t(at[i]) : i - vid_t(at[i])] = first + i;
}

// The most entries a row of the tiles keeps, its room in the stage: max(select, recover).
inline eid_t stage_entries(const PruneSpec& spec) {
  return std::max<eid_t>(std::max<eid_t>(spec.select, spec.recover), 1);
}

// Bytes the tiles take a row of a piece: its stage and the bookkeeping (kept, overflow_at,
// hashed, hashed_at; left_slot; left_rows, tile_rows in tiled_pruned_product).
template <class V>
std::size_t tile_row_bytes(const PruneSpec& spec) {
  return std::size_t(stage_entries(spec)) * (sizeof(vid_t) + sizeof(V)) + 4 * sizeof(eid_t) + sizeof(int) +
         2 * sizeof(vid_t);
}

// A*B pruned by spec in pieces of consecutive rows, every row through the tiles (dense or hashed
// as `how` says) or left over; stats: row_stats(A, B), scratch_columns: tile_scratch_columns.
// The stage takes at most stage_room bytes at once (a piece's rows); info gets the figures.
template <class V>
std::vector<device::DeviceCsr<V>> tiled_pruned_product(const device::DeviceCsr<V>& A, const device::DeviceCsr<V>& B,
                                                       const spgemm_detail::RowStats& stats,
                                                       eid_t scratch_columns, const PruneSpec& spec, TileRows how,
                                                       std::size_t stage_room, V* peak, V* squares,
                                                       const LeftOverRows<V>& left, SpgemmInfo& info,
                                                       cudaStream_t stream) {
  using spgemm_detail::exclusive_scan;
  const vid_t n = A.nrows;
  const eid_t cap = stage_entries(spec);
  const int blocks = device::multiprocessor_count();
  const eid_t scratch_cap = scratch_columns;
  device::Buffer<vid_t> scratch_col(std::size_t(blocks) * scratch_cap, stream);
  device::Buffer<V> scratch_val(std::size_t(blocks) * scratch_cap, stream);
  // A's rows longer than the shared cursors keep theirs in global memory.
  const eid_t a_longest = largest(A.rowptr.data(), n, true, stream);
  const eid_t long_cap = a_longest > kTileCursors ? a_longest : 0;
  const std::size_t long_entries = std::size_t(blocks) * long_cap;
  device::Buffer<eid_t> long_resume(long_entries, stream), long_end(long_entries, stream);
  device::Buffer<V> long_val(long_entries, stream);
  // Three quarters of the room to the stage, a quarter to the overflow area.
  constexpr std::size_t kEntry = sizeof(vid_t) + sizeof(V);
  const std::size_t per_row = tile_row_bytes<V>(spec);
  const vid_t chunk =
      vid_t(std::clamp<std::size_t>(stage_room / 4 * 3 / per_row, 1, std::size_t(std::max<vid_t>(n, 1))));
  const eid_t overflow_cap = eid_t(stage_room / 4 / kEntry);
  device::Buffer<vid_t> stage_col(std::size_t(chunk) * cap, stream), overflow_col(overflow_cap, stream);
  device::Buffer<V> stage_val(std::size_t(chunk) * cap, stream), overflow_val(overflow_cap, stream);
  device::Buffer<eid_t> kept(std::size_t(chunk) + 1, stream), overflow_at(chunk, stream);
  device::Buffer<int> left_slot(chunk, stream);
  device::Buffer<vid_t> left_rows(chunk, stream), tile_rows(chunk, stream);
  device::Buffer<eid_t> hashed(std::size_t(chunk) + 1, stream), hashed_at(std::size_t(chunk) + 1, stream);
  // Counters: next row and left-over count, the overflow used, then the error word and the
  // entries (8-byte words).
  device::Buffer<unsigned long long> counters(4, stream);
  auto* words = reinterpret_cast<vid_t*>(counters.data());
  auto* overflow_used = counters.data() + 1;
  auto* error = reinterpret_cast<int*>(counters.data() + 2);
  auto* entries = counters.data() + 3;
  SPGRAPH_CUDA(cudaMemsetAsync(counters.data() + 2, 0, 2 * sizeof(unsigned long long), stream));
  std::optional<device::Buffer<float>> narrowed;
  if constexpr (std::is_same_v<V, double>) narrowed = float_values(B, stream);
  auto dense_kernel = tile_prune_kernel<V, V, false>;
  auto hashed_kernel = tile_prune_kernel<V, V, true>;
  if constexpr (std::is_same_v<V, double>) {
    if (narrowed) {
      dense_kernel = tile_prune_kernel<V, float, false>;
      hashed_kernel = tile_prune_kernel<V, float, true>;
    }
  }
  for (auto* kernel : {dense_kernel, hashed_kernel})
    SPGRAPH_CUDA(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(Tile<V>::kSharedBytes)));

  std::vector<device::DeviceCsr<V>> pieces;
  for (vid_t first = 0; first < n; first += chunk) {
    const vid_t last = std::min<vid_t>(n, first + chunk), rows = last - first;
    SPGRAPH_CUDA(cudaMemsetAsync(counters.data(), 0, 2 * sizeof(unsigned long long), stream));
    SPGRAPH_CUDA(cudaMemsetAsync(overflow_at.data(), 0xff, std::size_t(rows) * sizeof(eid_t), stream));
    SPGRAPH_CUDA(cudaMemsetAsync(kept.data(), 0, (std::size_t(rows) + 1) * sizeof(eid_t), stream));
    SPGRAPH_CUDA(cudaMemsetAsync(left_slot.data(), 0xff, std::size_t(rows) * sizeof(int), stream));
    constexpr int threads = 256;
    hashed_flags_kernel<V><<<spgemm_detail::grid_for(eid_t(rows) + 1, threads), threads, 0, stream>>>(
        stats.products.data(), stats.min_col.data(), stats.max_col.data(), first, rows, how, hashed.data());
    SPGRAPH_CHECK_LAUNCH("hashed_flags_kernel");
    exclusive_scan(hashed.data(), hashed_at.data(), eid_t(rows) + 1, stream);
    split_rows_kernel<<<spgemm_detail::grid_for(rows, threads), threads, 0, stream>>>(hashed.data(), hashed_at.data(),
                                                                                     first, rows, tile_rows.data());
    SPGRAPH_CHECK_LAUNCH("split_rows_kernel");
    const vid_t hashed_rows = vid_t(device::read_value(hashed_at.data() + rows, stream));
    const vid_t dense_rows = rows - hashed_rows;
    info.hashed_rows += hashed_rows;
    TileJob<V> job{A.view(),
                   B.view(),
                   narrowed ? narrowed->data() : nullptr,
                   stats.products.data(),
                   stats.min_col.data(),
                   stats.max_col.data(),
                   tile_rows.data(),
                   dense_rows,
                   first,
                   spec,
                   cap,
                   stage_col.data(),
                   stage_val.data(),
                   kept.data(),
                   overflow_col.data(),
                   overflow_val.data(),
                   overflow_at.data(),
                   overflow_cap,
                   overflow_used,
                   peak,
                   squares,
                   scratch_col.data(),
                   scratch_val.data(),
                   scratch_cap,
                   long_resume.data(),
                   long_end.data(),
                   long_val.data(),
                   long_cap,
                   left_rows.data(),
                   words + 1,
                   words,
                   entries,
                   error};
    if (dense_rows > 0) {
      dense_kernel<<<unsigned(blocks), kTileThreads, Tile<V>::kSharedBytes, stream>>>(job);
      SPGRAPH_CHECK_LAUNCH("tile_prune_kernel (dense)");
    }
    if (hashed_rows > 0) {
      SPGRAPH_CUDA(cudaMemsetAsync(words, 0, sizeof(vid_t), stream));  // the next row, from 0 again
      job.rows = tile_rows.data() + dense_rows;
      job.row_count = hashed_rows;
      hashed_kernel<<<unsigned(blocks), kTileThreads, Tile<V>::kSharedBytes, stream>>>(job);
      SPGRAPH_CHECK_LAUNCH("tile_prune_kernel (hashed)");
    }
    spgemm_detail::check_kernel_error(device::read_value(error, stream), "mxm_prune_rows (tiles)");
    const vid_t left_count = device::read_value(words + 1, stream);
    device::DeviceCsr<V> left_product;
    if (left_count > 0) {
      std::vector<vid_t> listed(static_cast<std::size_t>(left_count));
      device::copy_to_host(listed.data(), left_rows.data(), listed.size() * sizeof(vid_t), stream);
      left_product = left(listed, info);
      left_over_counts_kernel<V><<<spgemm_detail::grid_for(left_count, threads), threads, 0, stream>>>(
          left_rows.data(), left_count, first, left_product.view(), kept.data(), left_slot.data());
      SPGRAPH_CHECK_LAUNCH("left_over_counts_kernel");
    }
    device::DeviceCsr<V> piece;
    piece.nrows = rows;
    piece.ncols = B.ncols;
    piece.rowptr = device::Buffer<eid_t>(std::size_t(rows) + 1, stream);
    exclusive_scan(kept.data(), piece.rowptr.data(), eid_t(rows) + 1, stream);
    const eid_t nnz = device::read_value(piece.rowptr.data() + rows, stream);
    piece.col = device::Buffer<vid_t>(nnz, stream);
    piece.val = device::Buffer<V>(nnz, stream);
    if (nnz > 0) {
      assemble_kernel<V><<<spgemm_detail::grid_for(eid_t(rows) * 32, threads), threads, 0, stream>>>(
          rows, piece.rowptr.data(), stage_col.data(), stage_val.data(), cap, overflow_col.data(), overflow_val.data(),
          overflow_at.data(), left_slot.data(), left_product.view(), piece.col.data(), piece.val.data());
      SPGRAPH_CHECK_LAUNCH("assemble_kernel");
    }
    pieces.push_back(std::move(piece));
  }
  info.panels = int(pieces.size());
  info.nnz += static_cast<eid_t>(device::read_value(entries, stream));
  return pieces;
}

}  // namespace spgraph::gpu::prune_detail
