#pragma once
// Walking the intermediate products of A*B: in row-major order by their global index t, for
// the ESC expansion and the masked product (every thread takes a run of consecutive products,
// finds the first with two binary searches, then steps; balances any row-length skew), and
// within one row by a block, for the hash SpGEMM's block kernels.
#include <cub/block/block_scan.cuh>

#include <type_traits>

#include "spgraph/device/cuda_check.hpp"
#include "gpu/spgemm/device_ops.cuh"
#include "gpu/spgemm/structure.hpp"

namespace spgraph::gpu::spgemm_detail {

// ap: entry_product_offsets(A, B) (internal.hpp).
struct ProductWalk {
  const eid_t* a_rowptr;
  const vid_t* a_col;
  const eid_t* b_rowptr;
  const eid_t* ap;
  vid_t row = 0;     // i of the current product A(i,k) * B(k,j)
  eid_t entry = 0;   // index of A(i,k) in A's arrays
  vid_t k = 0;
  eid_t q = 0;       // index of B(k,j) in B's arrays
  eid_t q_end = 0;

  __device__ ProductWalk(const Structure& a, const Structure& b, const eid_t* entry_offsets)
      : a_rowptr(a.rowptr), a_col(a.col), b_rowptr(b.rowptr), ap(entry_offsets) {}

  // Positions on product t, which must lie in rows [first_row, last_row).
  __device__ void seek(vid_t first_row, vid_t last_row, eid_t t) {
    // The last entry starting at or before t is the one holding t: entries without products
    // start where their successor does, and the search returns the last of equal starts.
    entry = last_not_greater(ap, a_rowptr[first_row], a_rowptr[last_row], t);
    row = static_cast<vid_t>(last_not_greater(a_rowptr, eid_t(first_row), eid_t(last_row), entry));
    k = a_col[entry];
    q = b_rowptr[k] + (t - ap[entry]);
    q_end = b_rowptr[k + 1];
  }

  // Steps to the next product; only valid when one exists in the walked range.
  __device__ void next() {
    if (++q < q_end) return;
    do {
      ++entry;
    } while (ap[entry + 1] == ap[entry]);  // skip entries whose row of B is empty
    k = a_col[entry];
    q = b_rowptr[k];
    q_end = b_rowptr[k + 1];
    while (a_rowptr[row + 1] <= entry) ++row;
  }
};

// Every product of rows [first, last) numbered [first_product, first_product + count), in
// runs of ITEMS consecutive products per thread, grid-stride: one binary-search seek per run,
// then next(). visit(t, walk) for each, t counted from first_product (walk.row, .entry, .k,
// .q name the product).
template <int ITEMS, class Visit>
__device__ __forceinline__ void for_each_product(const Structure& a, const Structure& b, const eid_t* entry_offsets,
                                                 vid_t first, vid_t last, eid_t first_product, eid_t count,
                                                 Visit visit) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x * ITEMS;
  for (eid_t base = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) * ITEMS; base < count; base += stride) {
    ProductWalk w(a, b, entry_offsets);
    w.seek(first, last, first_product + base);
    const int items = static_cast<int>(min(eid_t(ITEMS), count - base));
    for (int i = 0; i < items; ++i) {
      visit(base + i, w);
      if (i + 1 < items) w.next();
    }
  }
}

// The walks below hand each product to two callbacks: load(q) reads what the product needs of
// B's entry q (its column, its value), visit(j, item, av) uses it (j: the entry of A, av:
// A's value there). A thread loads kWalkBatch products before visiting them, so that their
// loads overlap instead of each waiting for the previous product's.
inline constexpr int kWalkBatch = 4;

// A's value for walks that do not need it (symbolic passes).
struct NoValue {};

// v through a warp shuffle, shfl(x) (a __shfl*_sync call), for any value type: types
// narrower than int travel as int, empty ones (NoValue) not at all.
template <class T, class Shfl>
__device__ __forceinline__ T shuffled(T v, Shfl shfl) {
  if constexpr (std::is_empty_v<T>) return v;
  else if constexpr (sizeof(T) < sizeof(int)) return static_cast<T>(shfl(static_cast<int>(v)));
  else return shfl(v);
}

// Shared memory of walk_row_products: per entry of A in the current chunk, where its row of B
// starts less where its products start in the chunk, and A's value (AV); per product of the
// current window, the entry it belongs to. Chunks are at most 512 entries (the owner map holds
// an entry in 9 bits).
template <int THREADS, class AV>
struct RowWalkStorage {
  static constexpr int kChunk = THREADS < 512 ? THREADS : 512;
  static constexpr int kWindow = THREADS * kWalkBatch;  // products placed per pass
  static constexpr int kEntryBits = 9;
  static_assert(kChunk <= (1 << kEntryBits));
  using Scan = cub::BlockScan<eid_t, THREADS, cub::BLOCK_SCAN_WARP_SCANS>;  // the smallest scratch
  using OwnerScan = cub::BlockScan<unsigned, THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  union {
    typename Scan::TempStorage scan;
    typename OwnerScan::TempStorage owner_scan;
  };
  eid_t b_shift[kChunk];
  AV av[kChunk];
  // (pass << kEntryBits) | entry at the product where the entry's products start in the current
  // pass's window, older passes' values elsewhere; a running maximum then gives every product
  // its entry. Passes count up, so no clearing between them.
  alignas(16) unsigned owner[kWindow];
};

// Walks every product A(row,k) * B(k,q) of a row's entries [a0, a1) of A with a block; all
// THREADS threads call it. The work is balanced whatever the lengths of B's rows (one long row
// of B among short ones would leave most threads idle if each took whole rows of B): A's
// entries are taken a chunk at a time and their B-row lengths scanned; then, a window of
// THREADS * kWalkBatch products at a time, each entry marks where its products start, a
// block-wide running maximum hands every product its entry, and thread t takes the window's
// products t, t + THREADS, ... (consecutive threads read consecutive entries of B's rows).
// The running maximum replaced a binary search per product over the chunk's entries: with
// B's rows a few entries long (email-Enron's hub rows) nearly every product needed one, and
// they were 37% of numeric block 7's instructions.
// visit returns false to stop: the walk then ends after the current window and returns false.
template <int THREADS, class AV, class AValue, class Load, class Visit>
__device__ __forceinline__ bool walk_row_products(RowWalkStorage<THREADS, AV>& ts, eid_t a0, eid_t a1,
                                                  const vid_t* a_col, const eid_t* b_rowptr, AValue a_value,
                                                  Load load, Visit visit) {
  using Storage = RowWalkStorage<THREADS, AV>;
  using Item = decltype(load(eid_t()));
  constexpr int kWindow = Storage::kWindow;
  constexpr unsigned kLastPass = (1u << (32 - Storage::kEntryBits)) - 1;
  constexpr unsigned kEntryMask = (1u << Storage::kEntryBits) - 1;
  static_assert(kWalkBatch == 4, "each thread's run of the owner map is one uint4");
  const int tid = static_cast<int>(threadIdx.x);
  unsigned pass = kLastPass;  // the owner map is cleared before the first window
  for (eid_t c0 = a0; c0 < a1; c0 += Storage::kChunk) {
    const int count = static_cast<int>(a1 - c0 < Storage::kChunk ? a1 - c0 : Storage::kChunk);
    eid_t len = 0, b0 = 0;
    AV av{};
    if (tid < count) {
      const eid_t j = c0 + tid;
      const vid_t k = a_col[j];
      b0 = b_rowptr[k];
      len = b_rowptr[k + 1] - b0;
      av = a_value(j);
    }
    eid_t end = 0, total = 0;
    typename Storage::Scan(ts.scan).InclusiveSum(len, end, total);
    const eid_t begin = end - len;  // this thread's entry's first product in the chunk
    if (tid < count) {
      ts.b_shift[tid] = b0 - begin;
      ts.av[tid] = av;
    }
    for (eid_t w0 = 0; w0 < total; w0 += kWindow) {
      if (pass == kLastPass) {
        for (int i = 0; i < kWalkBatch; ++i) ts.owner[tid + i * THREADS] = 0;
        pass = 0;
        __syncthreads();
      }
      ++pass;
      if (len > 0 && begin < w0 + kWindow && end > w0)
        ts.owner[begin > w0 ? begin - w0 : 0] = (pass << Storage::kEntryBits) | unsigned(tid);
      __syncthreads();  // also ends the scan scratch's use before owner_scan takes it
      // Thread t's run is products 4t .. 4t + 3 of the window, loaded and stored as one uint4.
      uint4 held = reinterpret_cast<const uint4*>(ts.owner)[tid];
      unsigned run[kWalkBatch] = {held.x, held.y, held.z, held.w};
      typename Storage::OwnerScan(ts.owner_scan)
          .InclusiveScan(run, run, [](unsigned x, unsigned y) { return x > y ? x : y; });
      held = make_uint4(run[0], run[1], run[2], run[3]);
      reinterpret_cast<uint4*>(ts.owner)[tid] = held;  // after the scan's barrier: every load is done
      __syncthreads();
      bool go = true;
      Item item[kWalkBatch];
      int entry[kWalkBatch];
      for (int i = 0; i < kWalkBatch; ++i) {
        const eid_t p = w0 + tid + i * THREADS;
        entry[i] = p < total ? static_cast<int>(ts.owner[tid + i * THREADS] & kEntryMask) : -1;
        if (entry[i] >= 0) item[i] = load(ts.b_shift[entry[i]] + p);
      }
      for (int i = 0; i < kWalkBatch; ++i)
        if (go && entry[i] >= 0) go = visit(c0 + entry[i], item[i], ts.av[entry[i]]);
      if (__syncthreads_or(!go)) return false;  // also keeps ts until every thread is done with it
    }
    __syncthreads();  // b_shift, av and the scan scratch are rewritten by the next chunk
  }
  return true;
}

// The lanes of the calling thread's warp that serve its row, when THREADS consecutive lanes
// serve each row (1-D blocks).
template <int THREADS>
__device__ __forceinline__ unsigned row_lanes_mask() {
  if constexpr (THREADS == 32) return kFullMask;
  else return ((1u << THREADS) - 1) << (threadIdx.x % 32 / THREADS * THREADS);
}

// The row a lane-tier kernel's thread serves (THREADS lanes per row, kRowsPerBlock rows per
// block, launched by launch_lane_tier): rows[block * kRowsPerBlock + local], block being
// blockIdx.x unless several tiers share a launch. Past the last row, valid is false and the
// row is empty (its lanes still take part in the warp's shuffles).
template <int THREADS>
struct LaneRow {
  static constexpr int kRowsPerBlock = kWarpTierBlockThreads / THREADS;
  int local = static_cast<int>(threadIdx.x) / THREADS;  // the row's index in the block
  int lane = static_cast<int>(threadIdx.x) % THREADS;
  bool valid = false;
  vid_t row = 0;
  eid_t a0 = 0, a1 = 0;  // its entries of A
  __device__ LaneRow(const vid_t* rows, eid_t count, const eid_t* a_rowptr)
      : LaneRow(rows, count, a_rowptr, blockIdx.x) {}
  __device__ LaneRow(const vid_t* rows, eid_t count, const eid_t* a_rowptr, eid_t block) {
    const eid_t r = block * kRowsPerBlock + local;
    valid = r < count;
    if (valid) {
      row = rows[r];
      a0 = a_rowptr[row];
      a1 = a_rowptr[row + 1];
    }
  }
};

// Launches a lane-tier kernel, kernel(a, b, rows, count, rest...), over the rows of group `id`
// at `threads` lanes each; nothing when the group is empty.
template <class... Params, class M, class... Rest>
void launch_lane_tier(void (*kernel)(Params...), const char* name, int threads, const Buckets& buckets, int id,
                      cudaStream_t stream, const M& a, const M& b, Rest... rest) {
  const eid_t count = buckets.count(id);
  if (count == 0) return;
  kernel<<<lane_tier_blocks(count, threads), kWarpTierBlockThreads, 0, stream>>>(a, b, buckets.begin(id), count,
                                                                               rest...);
  SPGRAPH_CHECK_LAUNCH(name);
}

// Lane tiers that share one launch, because their blocks stage alike and this machine starts
// one kernel every 3.5-4 us: blocks [first[s], first[s+1]) serve tier s (group ids[s], at
// threads[s] lanes a row), block first[s] + k its rows from rows[s][k * rows per block].
template <int K>
struct SharedLaneLaunch {
  const vid_t* rows[K];
  eid_t count[K];
  unsigned first[K + 1];
};
template <int K>
SharedLaneLaunch<K> shared_lane_launch(const Buckets& buckets, const int (&ids)[K], const int (&threads)[K]) {
  SharedLaneLaunch<K> launch{};
  unsigned blocks = 0;
  for (int s = 0; s < K; ++s) {
    launch.rows[s] = buckets.begin(ids[s]);
    launch.count[s] = buckets.count(ids[s]);
    launch.first[s] = blocks;
    if (launch.count[s]) blocks += lane_tier_blocks(launch.count[s], threads[s]);
  }
  launch.first[K] = blocks;
  return launch;
}

// In a kernel of a shared launch: f(std::integral_constant<int, s>{}, rows[s], count[s], k) for
// the tier s and block k of it that this block serves (block-uniform).
template <int S = 0, int K, class F>
__device__ __forceinline__ void serve_shared_lane_block(const SharedLaneLaunch<K>& launch, F&& f) {
  const unsigned block = blockIdx.x;
  if constexpr (S + 1 < K) {
    if (block >= launch.first[S + 1]) return serve_shared_lane_block<S + 1>(launch, f);
  }
  f(std::integral_constant<int, S>{}, launch.rows[S], launch.count[S], eid_t(block - launch.first[S]));
}

// The same walk by the THREADS lanes of one warp that serve a row (lane = 0..THREADS-1; mask:
// those lanes), for rows of fewer than 2^31 products per THREADS entries of A: the lanes load
// THREADS entries of A at a time (one each, so their loads overlap), scan their B-row lengths
// with shuffles, and lane L takes the products L, L + THREADS, ..., finding each one's entry by
// a binary search over the lanes. All of the row's lanes call it. visit also gets the
// product's index within the row (products numbered in walk order).
// (Each lane walking its own entry's row of B, and loading 4 chunks of entries ahead, were
// slower: docs/performance/spgemm.md.)
template <int THREADS, class AV, class AValue, class Load, class Visit>
__device__ __forceinline__ void walk_row_products_lanes(unsigned mask, int lane, eid_t a0, eid_t a1,
                                                        const vid_t* a_col, const eid_t* b_rowptr, AValue a_value,
                                                        Load load, Visit visit) {
  using Item = decltype(load(eid_t()));
  eid_t done = 0;  // products of the previous chunks
  for (eid_t c0 = a0; c0 < a1; c0 += THREADS) {
    const eid_t j = c0 + lane;
    eid_t b0 = 0;
    int len = 0;
    AV av{};
    if (j < a1) {
      const vid_t k = a_col[j];
      b0 = b_rowptr[k];
      len = static_cast<int>(b_rowptr[k + 1] - b0);
      av = a_value(j);
    }
    int end = len;  // inclusive scan over the lanes
    for (int off = 1; off < THREADS; off <<= 1) {
      const int up = __shfl_up_sync(mask, end, off, THREADS);
      if (lane >= off) end += up;
    }
    const int total = __shfl_sync(mask, end, THREADS - 1, THREADS);
    for (int p0 = 0; p0 < total; p0 += THREADS * kWalkBatch) {
      Item item[kWalkBatch];
      int entry[kWalkBatch];
      AV entry_av[kWalkBatch];
      for (int i = 0; i < kWalkBatch; ++i) {
        const int p = p0 + i * THREADS + lane;
        int e = 0;  // lanes whose products end at or before p
        for (int bit = THREADS / 2; bit > 0; bit >>= 1)
          if (__shfl_sync(mask, end, e + bit - 1, THREADS) <= p) e += bit;
        const int e_first = __shfl_sync(mask, end - len, e, THREADS);
        const eid_t e_b0 = __shfl_sync(mask, b0, e, THREADS);
        entry_av[i] = shuffled(av, [&](auto x) { return __shfl_sync(mask, x, e, THREADS); });
        entry[i] = p < total ? e : -1;
        if (p < total) item[i] = load(e_b0 + (p - e_first));
      }
      for (int i = 0; i < kWalkBatch; ++i)
        if (entry[i] >= 0) visit(c0 + entry[i], item[i], entry_av[i], done + p0 + i * THREADS + lane);
    }
    done += total;
  }
}

}  // namespace spgraph::gpu::spgemm_detail
