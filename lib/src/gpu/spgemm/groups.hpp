#pragma once
// Row groups of the hash SpGEMM and their table sizes, re-derived for the H200 (227 KiB of
// shared memory per block, 228 KiB per SM, at most 32 resident blocks and 2048 threads per SM).
//
// The symbolic pass groups rows by an upper bound on their nonzeros, b = min(products, column
// span), and stores only column keys (4 bytes per slot). The numeric pass groups rows by their
// exact nonzero count n and stores a key and a value per slot.
//
// In the numeric pass, rows of at most 512 products go to the sort tiers, whatever n, unless
// their column span is too wide for the tier's sort keys (sort_tier_takes_span):
//   sort 0   products <= 32    4 lanes/row, 8 products a lane   span < 2^27
//   sort 1   products <= 64    8 lanes/row                      span < 2^26
//   sort 2   products <= 128  16 lanes/row                      span < 2^25
//   sort 3   products <= 256  32 lanes/row                      span < 2^24
//   sort 4   products <= 512  32 lanes/row, 16 products a lane  span < 2^23
// The others (all rows in the symbolic pass):
//   symbolic                                   numeric
//   group    rows (b)      slots  threads      rows (n)        slots  threads  bytes (double)
//   tier 0   b <= 32          64  4/row        (tiers 0-2: their rows are in the sort tiers,
//                                              unless too wide)
//   tier 1   b <= 64         128  8/row
//   tier 2   b <= 128        256  8/row
//   tier 3   b <= 256        512  16/row       n <= 128          256  16/row   3 KiB/row (rows
//                                              too wide for the sort tiers)
//   block 1  b <= 256        512     64        n <= 128          256     64    3 KiB
//   block 2  b <= 512       1024    128        n <= 256          512    128    6 KiB
//   block 3  b <= 1024      2048    256        n <= 512         1024    256   12 KiB
//   block 4  b <= 2048      4096    256 (512)  n <= 1024        2048    256 (512)  24 KiB
//   block 5  b <= 4096      8192    256 (1024) n <= 2048        4096    512 (1024) 48 KiB
//   block 6  b <= 8192     16384    256 (1024) n <= 4096        8192   1024   96 KiB
//   block 7  b > 8192      32768   1024        n <= 12288      16384   1024  192 KiB
//   global (rows that fail block 7)            n > 12288: global memory (internal.hpp)
// Threads in parentheses: what a row's products are measured against (kProductsPerThread
// each) when it is placed; the kernel runs with fewer, see below.
//
// Why these numbers:
// - Tables are powers of two at most half full (hash probes stay short), except numeric block
//   7, allowed to 3/4 full: a row that misses it pays the global path, which costs far more
//   than the extra probes.
// - Short rows (most rows of graph products) are latency-bound: a row's time is a chain of
//   dependent loads (rows, A's row, B's rows). The warp and sort tiers give a row 4 to 32
//   lanes of a warp, so one SM keeps 64 to 512 such rows in flight, where one block per row
//   would keep at most 32 (the SM's block limit). A warp tier takes a row only while its
//   threads have at most 32 products each. Tiers 1 and 2 split the 8-lane rows at 32 entries:
//   a tier's time goes mostly to ranking every key against the others, and the smaller tables
//   fit twice the rows per SM (docs/performance/spgemm.md).
// - Several rows share an SM: a block's row is a chain of dependent phases (table set-up,
//   walk, sort or scan, write) with barriers between them, so an SM holding one row idles
//   while its slowest warp catches up. The 1024-thread kernels hold 56-64 registers a thread,
//   which is one block per SM. Symbolic blocks 4-6 run 256 threads (40 registers: 3-6 blocks
//   per SM); numeric blocks 4 and 5 run slots / 8 threads (256 and 512), so the radix sort
//   keeps 8 keys a thread (16 take 95 registers, 32 take 254); docs/performance/spgemm.md has
//   the measurements. Block 7 keeps 1024 threads: its 192 KiB table is one block per SM
//   anyway.
// - The largest tables are what 227 KiB allows: 32768 keys (128 KiB) in the symbolic pass,
//   16384 key-value pairs (192 KiB for double, plus the radix sort's scratch in the key part)
//   in the numeric pass. The paper's 48 KB capped it at 8192 and 4096.
// - A row also moves up a group until its threads have at most 32 products each, so a row with
//   few distinct columns but many products (hub rows of web graphs) is not left to few threads.
//   (Also moving a row up until its threads have at most 8 entries of A each was slower:
//   docs/performance/spgemm.md.)
// - Symbolic block 7 takes every larger row: most of them have far fewer distinct columns than
//   products. It counts in shared memory with a bitmap when the span fits 2^20 columns and
//   otherwise with the hash table; a row that fills 7/8 of it is redone with a bitmap over its
//   span in global memory (L2-resident: a span of 10M columns is 1.2 MiB).
// - Dense accumulation: a numeric block-group row whose column span is at most its group's slot
//   count accumulates into an array indexed by column - min column, plus a presence bitmap, and
//   writes its output in column order with a block scan instead of a sort.
#include "spgraph/types.hpp"

namespace spgraph::gpu::spgemm_detail {

struct BlockGroup {
  int slots;
  int threads;        // what the row's products are measured against (kProductsPerThread each)
  int block_threads;  // what the kernel is launched with
};

inline constexpr eid_t kProductsPerThread = 32;

// Warp tiers t = 0..3 of the table above: several rows per warp, `threads` lanes per row.
inline constexpr int kWarpTiers = 4;
inline constexpr int kWarpTierBlockThreads = 128;
// Blocks of kWarpTierBlockThreads that give `rows` rows `threads` lanes each (warp and sort
// tiers).
inline unsigned lane_tier_blocks(eid_t rows, int threads) {
  const int per_block = kWarpTierBlockThreads / threads;
  return static_cast<unsigned>((rows + per_block - 1) / per_block);
}
struct WarpTier {
  int threads;         // per row
  int symbolic_slots;  // keys per row in the symbolic pass
  int numeric_slots;   // key-value pairs per row in the numeric pass; 0: symbolic only
};
SPGRAPH_HD constexpr WarpTier warp_tier(int t) {
  return t == 0   ? WarpTier{4, 64, 0}
         : t == 1 ? WarpTier{8, 128, 0}
         : t == 2 ? WarpTier{8, 256, 0}
                  : WarpTier{16, 512, 256};
}
// The numeric pass's first warp tier: the rows of tiers 0-2 (at most 256 products) are in the
// sort tiers there, and so are tier 3's unless their span is too wide for the sort keys.
// (No numeric warp tier, its rows in block group 1, was measured level: docs/performance/spgemm.md.)
inline constexpr int kFirstNumericWarpTier = 3;

// Sort tiers s = 0..4 of the numeric pass: rows of at most threads * items products (whatever
// their entries), which are gathered into registers, items per lane, and sorted by a bitonic
// sort across the row's lanes; equal columns are then combined (warp_sort.cuh). No table, no
// shared atomics: a warp tier's inserts (a compare-and-swap loop per double added), packing
// and ranking were ~80% of its instructions. The symbolic pass keeps its hash tables, which
// hold keys only and were faster there. The network sorts 32-bit keys that carry each
// product's index, each value fetched once after the sort; with such keys the fifth tier (32
// lanes of 16 items) pays, and a sixth (32 x 32) did not (docs/performance/spgemm.md).
inline constexpr int kSortTiers = 5;
struct SortTier {
  int threads;  // per row
  int items;    // per lane
};
SPGRAPH_HD constexpr SortTier sort_tier(int s) {
  return s == 0   ? SortTier{4, 8}
         : s == 1 ? SortTier{8, 8}
         : s == 2 ? SortTier{16, 8}
         : s == 3 ? SortTier{32, 8}
                  : SortTier{32, 16};
}
SPGRAPH_HD constexpr eid_t sort_tier_products(int s) { return eid_t(sort_tier(s).threads) * sort_tier(s).items; }
static_assert(eid_t(warp_tier(kFirstNumericWarpTier - 1).threads) * kProductsPerThread <=
                  sort_tier_products(kSortTiers - 1),
              "warp tiers before kFirstNumericWarpTier are symbolic only: the sort tiers take their rows "
              "(unless too wide)");

inline constexpr int kBlockGroups = 7;
inline constexpr int kMaxBlockThreads = 1024;
// Block groups g = 1..7 of the table above.
SPGRAPH_HD constexpr int group_threads(int g) { return (32 << g) < kMaxBlockThreads ? (32 << g) : kMaxBlockThreads; }
SPGRAPH_HD constexpr BlockGroup symbolic_shape(int g) {
  const int threads = group_threads(g);
  return {256 << g, threads, g < kBlockGroups && threads > 256 ? 256 : threads};
}
SPGRAPH_HD constexpr BlockGroup numeric_shape(int g) {
  const int threads = group_threads(g), slots = 128 << g;
  const int sorted_by = slots / 8 > 256 ? slots / 8 : 256;
  return {slots, threads, threads < sorted_by ? threads : sorted_by};
}
inline constexpr eid_t kNumericLastGroupMaxNnz = numeric_shape(kBlockGroups).slots / 4 * 3;
// A symbolic block-7 row whose distinct count reaches this many keys goes to the global path.
inline constexpr int kSymbolicLastGroupFailAt = symbolic_shape(kBlockGroups).slots / 8 * 7;

// Group ids: 0..3 the warp tiers, then the sort tiers, then block groups 1..7, then the global
// tables; kNoWork for rows without products.
SPGRAPH_HD constexpr int sort_tier_id(int s) { return kWarpTiers + s; }
SPGRAPH_HD constexpr int block_group_id(int g) { return kWarpTiers + kSortTiers + g - 1; }
inline constexpr int kLastBlockGroup = block_group_id(kBlockGroups);
inline constexpr int kGlobalGroup = kLastBlockGroup + 1;
inline constexpr int kGroups = kGlobalGroup + 1;
inline constexpr int kNoWork = 255;  // stored in a byte per row
static_assert(kGroups < kNoWork);

// A sort tier of N = sort_tier_products(s) elements sorts 32-bit keys (column - the row's first
// column) * N + the product's index (warp_sort.cuh), so it takes a row whose column span keeps
// them below kEmptyKey: span * N < 2^32.
SPGRAPH_HD constexpr bool sort_tier_takes_span(int s, eid_t span) {
  return span < (eid_t(1) << 32) / sort_tier_products(s);
}

// The sort tier of a row of `products` products over `span` columns in the numeric pass, or -1
// when none takes it. A row too wide for the smallest tier that holds its products is too wide
// for the larger ones too; the warp tier or a block group takes it.
SPGRAPH_HD int sort_group(eid_t products, eid_t span) {
  for (int s = 0; s < kSortTiers; ++s)
    if (products <= sort_tier_products(s)) return sort_tier_takes_span(s, span) ? sort_tier_id(s) : -1;
  return -1;
}

SPGRAPH_HD int symbolic_group(eid_t products, eid_t bound, bool force_global) {
  if (products == 0) return kNoWork;
  if (force_global) return kGlobalGroup;
  for (int t = 0; t < kWarpTiers; ++t) {
    const WarpTier T = warp_tier(t);
    if (bound <= T.symbolic_slots / 2 && products <= T.threads * kProductsPerThread) return t;
  }
  for (int g = 1; g < kBlockGroups; ++g) {
    const BlockGroup G = symbolic_shape(g);
    if (bound <= G.slots / 2 && (products <= G.threads * kProductsPerThread || G.threads == kMaxBlockThreads))
      return block_group_id(g);
  }
  return kLastBlockGroup;
}

SPGRAPH_HD int numeric_group(eid_t products, eid_t nnz, eid_t span, bool force_global) {
  if (nnz == 0) return kNoWork;
  if (force_global) return kGlobalGroup;
  if (const int s = sort_group(products, span); s >= 0) return s;
  for (int t = kFirstNumericWarpTier; t < kWarpTiers; ++t) {
    const WarpTier T = warp_tier(t);
    if (nnz <= T.numeric_slots / 2 && products <= T.threads * kProductsPerThread) return t;
  }
  for (int g = 1; g < kBlockGroups; ++g) {
    const BlockGroup G = numeric_shape(g);
    if (nnz <= G.slots / 2 && (products <= G.threads * kProductsPerThread || G.threads == kMaxBlockThreads))
      return block_group_id(g);
  }
  return nnz <= kNumericLastGroupMaxNnz ? kLastBlockGroup : kGlobalGroup;
}

}  // namespace spgraph::gpu::spgemm_detail
