#pragma once
// Placing the set bits of a presence bitmap in column order: the numeric kernels that mark a
// row's columns in a bitmap over its span write or rank the row's entries from it.
#include <cub/block/block_scan.cuh>

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

}  // namespace spgraph::gpu::spgemm_detail
