#pragma once
// Placing the set bits of a presence bitmap in column order: the numeric kernels that mark a
// row's columns in a bitmap over its span write or rank the row's entries from it.
#include <cub/block/block_scan.cuh>

#include <cstddef>

#include "spgraph/types.hpp"

namespace spgraph::gpu::spgemm_detail {

template <int THREADS>
using BitmapScan = cub::BlockScan<int, THREADS, cub::BLOCK_SCAN_WARP_SCANS>;

// The calling thread's run of the bitmap's words, [w0, w1), and pos: how many bits are set
// before the run; total: how many in all. Every thread of the block calls it.
struct BitmapRun {
  int w0, w1, pos, total;
};
template <int THREADS>
__device__ __forceinline__ BitmapRun scan_bitmap_runs(typename BitmapScan<THREADS>::TempStorage& storage,
                                                     const unsigned* words, int nwords) {
  const int per = (nwords + THREADS - 1) / THREADS;
  BitmapRun run;
  run.w0 = min(static_cast<int>(threadIdx.x) * per, nwords);
  run.w1 = min(run.w0 + per, nwords);
  int count = 0;
  for (int w = run.w0; w < run.w1; ++w) count += __popc(words[w]);
  BitmapScan<THREADS>(storage).ExclusiveSum(count, run.pos, run.total);
  return run;
}

// Where a row's entries wait, in rank order, before the block stores them, in `bytes` of
// shared memory at `at` (16-byte aligned): `capacity` columns, then as many values. Stored
// straight from the thread that placed them, each 4- or 8-byte store was a sector of its own
// (~28% of numeric block 7's stall samples on email-Enron A*A). Staging the 16-lane warp
// tier's rows and the global path's dense rows as well gained nothing measurable, so those
// store straight (docs/performance/spgemm.md).
template <class V>
struct RowStage {
  vid_t* col;
  V* val;
  int capacity;  // a multiple of 4, so that the values start 16-byte aligned

  __device__ RowStage(unsigned char* at, std::size_t bytes)
      : col(reinterpret_cast<vid_t*>(at)),
        capacity(static_cast<int>(bytes / (sizeof(vid_t) + sizeof(V))) & ~3) {
    val = reinterpret_cast<V*>(at + std::size_t(capacity) * sizeof(vid_t));
  }
  // Block-wide, between barriers: entries [0, count) of the stage to out_col / out_val, from
  // consecutive threads, so that the stores coalesce.
  template <int THREADS>
  __device__ void flush(int count, vid_t* out_col, V* out_val) const {
    __syncthreads();
    for (int r = static_cast<int>(threadIdx.x); r < count; r += THREADS) {
      out_col[r] = col[r];
      out_val[r] = val[r];
    }
    __syncthreads();
  }
};

}  // namespace spgraph::gpu::spgemm_detail
