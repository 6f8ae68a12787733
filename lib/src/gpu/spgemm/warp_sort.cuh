#pragma once
// The numeric pass's sort tiers' building blocks (groups.hpp): a row's products, gathered in
// shared memory by their index in the row, are sorted as 32-bit keys (the column relative to
// the row's first, above the product's index: sort_tier_key), ITEMS per lane (lane L holds
// elements L*ITEMS ... L*ITEMS + ITEMS - 1), across the row's THREADS lanes with a bitonic
// network; each sorted key then fetches its value from shared memory by the index it carries,
// and runs of equal columns are combined. Padding elements carry kEmptyKey, which sorts last
// and is never emitted.
// The network works in registers and shuffles; CUB's WarpMergeSort (the same layout, merged
// through shared memory) was slower (docs/performance/spgemm.md).
// CUDA translation units only.
#include <cuda_runtime.h>

#include "gpu/spgemm/device_ops.cuh"
#include "gpu/spgemm/product_walk.cuh"

namespace spgraph::gpu::spgemm_detail {

// Lane `lane`'s ITEMS consecutive elements of a row gathered at `row` in shared memory.
template <int ITEMS, class T>
__device__ __forceinline__ void load_lane_items(const T* row, int lane, T (&out)[ITEMS]) {
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) out[i] = row[lane * ITEMS + i];
}

// The sort key of a row's product `index` (of N) at column `col`, for a row whose columns start
// at `first` (groups.hpp's sort_group admits only rows whose span keeps every key below
// kEmptyKey). Keys are distinct, so the sort needs no tie-break and moves no values.
template <int N>
__device__ __forceinline__ unsigned sort_tier_key(vid_t col, vid_t first, int index) {
  return (static_cast<unsigned>(col - first) << exact_log2(N)) | static_cast<unsigned>(index);
}
// A key's product index and its column - first.
template <int N>
__device__ __forceinline__ int sort_key_index(unsigned key) {
  return static_cast<int>(key & (N - 1));
}
template <int N>
__device__ __forceinline__ unsigned sort_key_offset(unsigned key) {
  return key >> exact_log2(N);
}

// Sorts the THREADS * ITEMS keys of a row ascending. Every lane of the warp calls it (the
// shuffles name the whole warp).
template <int THREADS, int ITEMS>
__device__ __forceinline__ void warp_bitonic_sort(unsigned (&key)[ITEMS], int lane) {
  constexpr int N = THREADS * ITEMS;
  static_assert((N & (N - 1)) == 0 && (ITEMS & (ITEMS - 1)) == 0 && 32 % THREADS == 0);
#pragma unroll
  for (int k = 2; k <= N; k <<= 1) {
#pragma unroll
    for (int j = k >> 1; j > 0; j >>= 1) {
      if (j >= ITEMS) {
        // Partner elements sit at the same item of lane ^ (j / ITEMS): the lower lane keeps
        // the smaller key where this block of k elements ascends.
        const int lane_bit = j / ITEMS;
        const bool keep_smaller = ((lane & lane_bit) == 0) == (((lane * ITEMS) & k) == 0);
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
          const unsigned other = __shfl_xor_sync(kFullMask, key[i], lane_bit, THREADS);
          key[i] = keep_smaller ? min(key[i], other) : max(key[i], other);
        }
      } else {
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
          if (i & j) continue;
          const bool ascending = ((lane * ITEMS + i) & k) == 0;
          const unsigned lo = min(key[i], key[i | j]), hi = max(key[i], key[i | j]);
          key[i] = ascending ? lo : hi;
          key[i | j] = ascending ? hi : lo;
        }
      }
    }
  }
}

// Combines the runs of equal keys of a sorted row (warp_bitonic_sort's layout) under `add`
// and calls emit(rank, key, value) once per distinct key other than kEmptyKey, rank counting
// them in key order. Returns how many there are, on every lane. Every lane of the warp calls it.
template <int THREADS, int ITEMS, class V, class Add, class Emit>
__device__ __forceinline__ int combine_sorted_runs(const unsigned (&key)[ITEMS], const V (&val)[ITEMS], int lane,
                                                   Add add, Emit emit) {
  const unsigned before = __shfl_up_sync(kFullMask, key[ITEMS - 1], 1, THREADS);
  const unsigned after = __shfl_down_sync(kFullMask, key[0], 1, THREADS);
  bool head[ITEMS], tail[ITEMS];
  bool lane_head = false;
  int heads = 0;  // distinct keys starting in this lane
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    head[i] = i == 0 ? lane == 0 || key[0] != before : key[i] != key[i - 1];
    tail[i] = i == ITEMS - 1 ? lane == THREADS - 1 || key[i] != after : key[i] != key[i + 1];
    lane_head |= head[i];
    heads += head[i] && key[i] != kEmptyKey;
  }
  // Each element's value becomes the sum of its run up to it: within the lane first, then the
  // run that reaches into the lane from the lanes before gets their total (a segmented scan
  // over the lanes of each lane's last run).
  V acc[ITEMS];
  acc[0] = val[0];
#pragma unroll
  for (int i = 1; i < ITEMS; ++i) acc[i] = head[i] ? val[i] : add(acc[i - 1], val[i]);
  V run = acc[ITEMS - 1];
  bool closed = lane_head;
#pragma unroll
  for (int off = 1; off < THREADS; off <<= 1) {
    const V up = shuffled(run, [&](auto x) { return __shfl_up_sync(kFullMask, x, off, THREADS); });
    const bool up_closed = __shfl_up_sync(kFullMask, closed, off, THREADS);
    if (lane >= off) {
      if (!closed) run = add(up, run);
      closed = closed || up_closed;
    }
  }
  const V carry = shuffled(run, [&](auto x) { return __shfl_up_sync(kFullMask, x, 1, THREADS); });
  bool open = lane > 0;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    open = open && !head[i];
    if (open) acc[i] = add(carry, acc[i]);
  }
  int rank = heads;  // inclusive scan of the lanes' distinct keys
#pragma unroll
  for (int off = 1; off < THREADS; off <<= 1) {
    const int up = __shfl_up_sync(kFullMask, rank, off, THREADS);
    if (lane >= off) rank += up;
  }
  const int total = __shfl_sync(kFullMask, rank, THREADS - 1, THREADS);
  rank -= heads;
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    if (key[i] == kEmptyKey) continue;
    rank += head[i];
    if (tail[i]) emit(rank - 1, key[i], acc[i]);
  }
  return total;
}

}  // namespace spgraph::gpu::spgemm_detail
