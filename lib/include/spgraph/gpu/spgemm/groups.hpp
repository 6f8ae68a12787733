#pragma once
// Row groups of the hash SpGEMM and their table sizes, re-derived for the H200 (227 KiB of
// shared memory per block, 228 KiB per SM, at most 32 resident blocks and 2048 threads per SM).
//
// The symbolic pass groups rows by an upper bound on their nonzeros, b = min(products, column
// span), and stores only column keys (4 bytes per slot). The numeric pass groups rows by their
// exact nonzero count n and stores a key and a value per slot.
//
//   symbolic                                   numeric
//   group    rows (b)      slots  threads      rows (n)        slots  threads  bytes (double)
//   tier 0   b <= 32          64  4/row        n <= 16            32  4/row    384/row
//   tier 1   b <= 128        256  8/row        n <= 64           128  8/row    1.5 KiB/row
//   tier 2   b <= 256        512  16/row       n <= 128          256  16/row   3 KiB/row
//   block 1  b <= 256        512     64        n <= 128          256     64    3 KiB
//   block 2  b <= 512       1024    128        n <= 256          512    128    6 KiB
//   block 3  b <= 1024      2048    256        n <= 512         1024    256   12 KiB
//   block 4  b <= 2048      4096    512        n <= 1024        2048    512   24 KiB
//   block 5  b <= 4096      8192   1024        n <= 2048        4096   1024   48 KiB
//   block 6  b <= 8192     16384   1024        n <= 4096        8192   1024   96 KiB
//   block 7  b > 8192      32768   1024        n <= 12288      16384   1024  192 KiB
//   global (rows that fail block 7)            n > 12288: global memory (internal.hpp)
//
// Why these numbers:
// - Tables are powers of two at most half full (hash probes stay short), except numeric block
//   7, allowed to 3/4 full: a row that misses it pays the global path, which costs far more
//   than the extra probes.
// - Short rows (most rows of graph products) are latency-bound: a row's time is a chain of
//   dependent loads (rows, A's row, B's rows). The warp tiers give a row 4 to 16 threads of a
//   warp, so one SM keeps 60 to 500 such rows in flight, where one block per row would keep
//   at most 32 (the SM's block limit). A warp tier takes a row only while its threads have at
//   most 32 products each.
// - Block sizes keep the SM full: blocks 1-4 use 6 KiB of shared memory per 64 threads or
//   less, so 32 blocks (2048 threads) fit an SM; blocks 5-6 fit two 1024-thread blocks; only
//   block 7 runs one block per SM, and it holds the rare long rows.
// - The largest tables are what 227 KiB allows: 32768 keys (128 KiB) in the symbolic pass,
//   16384 key-value pairs (192 KiB for double, plus the radix sort's scratch in the key part)
//   in the numeric pass. The paper's 48 KB capped it at 8192 and 4096.
// - A row also moves up a group until its threads have at most 32 products each, so a row with
//   few distinct columns but many products (hub rows of web graphs) is not left to few threads.
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
  int threads;
};

inline constexpr eid_t kProductsPerThread = 32;

// Warp tiers t = 0..2 of the table above: several rows per warp, `threads` lanes per row.
inline constexpr int kWarpTiers = 3;
inline constexpr int kWarpTierBlockThreads = 128;
struct WarpTier {
  int threads;         // per row
  int symbolic_slots;  // keys per row in the symbolic pass
  int numeric_slots;   // key-value pairs per row in the numeric pass
};
SPGRAPH_HD constexpr WarpTier warp_tier(int t) {
  return t == 0 ? WarpTier{4, 64, 32} : t == 1 ? WarpTier{8, 256, 128} : WarpTier{16, 512, 256};
}

inline constexpr int kBlockGroups = 7;
inline constexpr int kMaxBlockThreads = 1024;
// Block groups g = 1..7 of the table above.
SPGRAPH_HD constexpr BlockGroup symbolic_shape(int g) {
  return {256 << g, (32 << g) < kMaxBlockThreads ? (32 << g) : kMaxBlockThreads};
}
SPGRAPH_HD constexpr BlockGroup numeric_shape(int g) {
  return {128 << g, (32 << g) < kMaxBlockThreads ? (32 << g) : kMaxBlockThreads};
}
inline constexpr eid_t kNumericLastGroupMaxNnz = numeric_shape(kBlockGroups).slots / 4 * 3;
// A symbolic block-7 row whose distinct count reaches this many keys goes to the global path.
inline constexpr int kSymbolicLastGroupFailAt = symbolic_shape(kBlockGroups).slots / 8 * 7;

// Group ids: 0..2 the warp tiers, then block groups 1..7, then the global tables; kNoWork for
// rows without products.
SPGRAPH_HD constexpr int block_group_id(int g) { return kWarpTiers + g - 1; }
inline constexpr int kLastBlockGroup = block_group_id(kBlockGroups);
inline constexpr int kGlobalGroup = kLastBlockGroup + 1;
inline constexpr int kGroups = kGlobalGroup + 1;
inline constexpr int kNoWork = 15;

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

SPGRAPH_HD int numeric_group(eid_t products, eid_t nnz, bool force_global) {
  if (nnz == 0) return kNoWork;
  if (force_global) return kGlobalGroup;
  for (int t = 0; t < kWarpTiers; ++t) {
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
