#pragma once
// Definitions of gpu::MxvLoop (contract in mxv_loop.hpp): one cooperative kernel, one block of
// kLoopBlock threads an SM, runs every iteration. Each block loads its slice of the matrix
// (loop_slices.hpp: column ids and row ends) into shared memory once. An iteration then reads
// from global memory only x_{k-1} (one gather an entry, all of a thread's issued together), f's
// per-row inputs (F::load, issued with the gathers so the two round trips overlap) and the
// previous iteration's per-block sums (copied into shared memory meanwhile); sums the rows from
// shared memory, each thread over an equal share of the slice's merge path; hands every row to
// f; and meets the other blocks at one grid-wide barrier. Every block adds all blocks' sums in
// the same order, so all of them take the same decision. Of what the kernel writes, x and the
// sums are copied by cp.async through L1, which the grid barrier's acquire empties of older
// lines, and the pieces of split rows are polled in L2; none goes through the read-only path,
// whose cache is not kept coherent with the kernel's own stores.
#include <cooperative_groups.h>
#include <cuda/atomic>
#include <cuda_pipeline.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>

#include "device/cache_hints.hpp"
#include "device/cooperative_launch.hpp"
#include "spgraph/error.hpp"
#include "gpu/fused/dense_map_reduce_impl.cuh"
#include "spgraph/gpu/mxv_loop.hpp"
#include "gpu/spmv/spmv_formats.hpp"
#include "gpu/spmv/spmv_kernels_impl.cuh"

namespace spgraph::gpu::detail {

// f's per-row inputs (F::load): a thread's first row's are fetched with the gathers, so they
// are held in registers through the summing; its further rows' are loaded in batches of
// kLoopRowBatch, each batch's loads issued before any is used: 4 in double, whose row-heavy
// slices have 5-7 rows a thread, 1 in float, where larger batches were slower
// (docs/performance/pagerank.md).
template <class V>
inline constexpr int kLoopRowBatch = sizeof(V) == 4 ? 1 : 4;

// The stage of terms has one unused element after every 128 bytes, so that the threads of a
// warp, each summing its own run of consecutive terms, read them from different banks: runs of
// 16 or 32 terms (a common share of the slice) otherwise all start in the same bank.
inline constexpr unsigned kTermPadEvery = 128;  // bytes
template <class V>
__device__ __forceinline__ int term_slot(int p) {
  return int(unsigned(p) + unsigned(p) / (kTermPadEvery / sizeof(V)));
}

// Where a block's slice lives in its dynamic shared memory (byte offsets), for a slice of nnz
// entries and `rows` rows on `blocks` blocks, row sums of sum_bytes each and sums_per_block
// sums of f a block. Each block lays out its own slice; the launch gives every block the most
// any one needs.
struct LoopLayout {
  unsigned col, term, end, sums, partials, bytes;
};

SPGRAPH_HD LoopLayout loop_layout(eid_t nnz, eid_t rows, int blocks, int sums_per_block,
                                  std::size_t value_bytes, std::size_t sum_bytes) {
  LoopLayout l{};
  std::size_t at = 0;
  auto take = [&](std::size_t bytes) {
    const unsigned here = unsigned(at);
    at += (bytes + 15) / 16 * 16;
    return here;
  };
  l.col = take(std::size_t(nnz) * sizeof(vid_t));
  l.term = take(std::size_t(nnz + nnz / (kTermPadEvery / value_bytes) + 1) * value_bytes);
  l.end = take(std::size_t(rows) * sizeof(unsigned));
  l.sums = take(std::size_t(rows) * sum_bytes);
  l.partials = take(std::size_t(blocks) * sums_per_block * sizeof(double));
  l.bytes = unsigned(at);
  return l;
}

// The most dynamic shared memory a block of the loop may take: the device's opt-in limit less
// what the kernel declares statically (a few hundred bytes).
inline std::size_t loop_shared_limit() {
  static device::PerDevice<std::size_t> limit;
  return limit.get([](int dev) {
    int bytes = 0;
    SPGRAPH_CUDA(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    return std::size_t(bytes) - 2048;
  });
}

// A split row's pieces: block b's tail, a Partial of at most kPieceWords 32-bit words, in
// words[b * kPieceWords + w], each word stored with the iteration's number in its upper half.
// A 64-bit store is seen whole or not at all, so the block that adds the piece polls the words
// until every one carries its iteration: no fence on either side, and one round trip.
inline constexpr int kPieceWords = 4;

template <class P>
__device__ __forceinline__ void publish_piece(unsigned long long* words, const P& piece, unsigned iteration) {
  static_assert(sizeof(P) % 4 == 0 && sizeof(P) <= 4 * kPieceWords, "a piece is whole 32-bit words");
  unsigned w[sizeof(P) / 4];
  memcpy(w, &piece, sizeof(P));
#pragma unroll
  for (int i = 0; i < int(sizeof(P) / 4); ++i)
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[i])
        .store((static_cast<unsigned long long>(iteration) << 32) | w[i], cuda::memory_order_relaxed);
}

template <class P>
__device__ __forceinline__ P await_piece(unsigned long long* words, unsigned iteration) {
  unsigned long long v[sizeof(P) / 4];
  bool ready;
  do {
    ready = true;
#pragma unroll
    for (int i = 0; i < int(sizeof(P) / 4); ++i) {
      v[i] = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(words[i]).load(cuda::memory_order_relaxed);
      ready = ready && unsigned(v[i] >> 32) == iteration;
    }
  } while (!ready);
  unsigned w[sizeof(P) / 4];
#pragma unroll
  for (int i = 0; i < int(sizeof(P) / 4); ++i) w[i] = unsigned(v[i]);
  P piece;
  memcpy(&piece, w, sizeof(P));
  return piece;
}

// The loop's vectors as f sees them: x_k as a plain pointer; x_{k-1}, which the kernel's
// previous iteration wrote, read from L2; the vectors passed const through the read-only path
// (nothing in the loop writes them); the others as plain pointers.
template <class T>
__device__ device::ReadOnlyView<T> loop_view(const T* v) {
  return {v};
}
template <class T>
__device__ T* loop_view(T* v) {
  return v;
}
template <class T>
using LoopView = decltype(loop_view(std::declval<T*>()));

// Whether F has load(i, x_k, x_{k-1}, data...), and what it returns for a row (int, unused,
// for an f without load).
template <class F, class V, class... T>
concept LoadsRows = LoadsAheadFrom<F, V*, device::WrittenInKernelView<V>, LoopView<T>...>;

template <class F, class V, class... T>
struct LoopRow {
  using type = int;
};
template <class F, class V, class... T>
  requires LoadsRows<F, V, T...>
struct LoopRow<F, V, T...> {
  using type = decltype(std::declval<const F&>().load(std::size_t(0), std::declval<V*>(),
                                                      std::declval<device::WrittenInKernelView<V>>(),
                                                      std::declval<LoopView<T>>()...));
};

// s summed over the warp's lanes, in every lane, by a butterfly of shuffles: the same order in
// every warp and every run.
template <int R>
__device__ __forceinline__ void add_over_warp(double (&s)[R]) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
#pragma unroll
    for (int r = 0; r < R; ++r) s[r] += __shfl_xor_sync(kFullWarp, s[r], offset);
}

// The block's sum of acc over its threads, into partials[blockIdx.x * R + r]: shuffles within
// each warp, then the first warp over the warps' sums, in a fixed order.
template <int R>
__device__ void write_block_sums(const double (&acc)[R], double* partials) {
  __shared__ double warp_sums[kLoopBlock / 32][R];
  const int lane = int(threadIdx.x) & 31, warp = int(threadIdx.x) >> 5;
  double s[R];
#pragma unroll
  for (int r = 0; r < R; ++r) s[r] = acc[r];
  add_over_warp(s);
  if (lane == 0)
#pragma unroll
    for (int r = 0; r < R; ++r) warp_sums[warp][r] = s[r];
  __syncthreads();
  if (warp == 0) {
#pragma unroll
    for (int r = 0; r < R; ++r) s[r] = warp_sums[lane][r];
    add_over_warp(s);
    if (lane == 0)
#pragma unroll
      for (int r = 0; r < R; ++r) partials[std::size_t(blockIdx.x) * R + r] = s[r];
  }
}

// Copies the blocks' partials (R doubles each) from global into shared memory by cp.async,
// which holds no register while a copy is in flight. (Through L1, as the gathers of x: the grid
// barrier's acquire has emptied it of older lines.)
template <int R>
__device__ __forceinline__ void fetch_partials(const double* partials, double* shared) {
  for (unsigned q = threadIdx.x; q < gridDim.x * R; q += kLoopBlock)
    __pipeline_memcpy_async(shared + q, partials + q, sizeof(double));
}

// The totals of every block's partials[block * R + r] (in shared memory) into totals[r]
// (shared), in every block alike, by one warp: lane l adds the partials of blocks l, l + 32, ...
// and a butterfly of shuffles, the same in every block, adds the lanes, so every block, and
// every run on the same grid, gets the same bits.
template <int R>
__device__ void add_all_blocks_in_warp(const double* partials, double* totals) {
  double s[R];
#pragma unroll
  for (int r = 0; r < R; ++r) s[r] = 0;
  for (unsigned b = threadIdx.x & 31; b < gridDim.x; b += 32)
#pragma unroll
    for (int r = 0; r < R; ++r) s[r] += partials[std::size_t(b) * R + r];
  add_over_warp(s);
  if ((threadIdx.x & 31) == 0)
#pragma unroll
    for (int r = 0; r < R; ++r) totals[r] = s[r];
}

// A run of a row's entries: the row and their sum. Joining the runs of consecutive threads in
// order (a scan) sums each row cut between threads; the join is associative because runs come
// in row order.
template <class P>
struct RowRun {
  int row;
  P sum;
};
struct JoinRuns {
  template <class Run>
  __device__ Run operator()(const Run& earlier, const Run& later) const {
    if (earlier.row != later.row) return later;
    Run joined = earlier;
    joined.sum.merge(later.sum);
    return joined;
  }
};

// A warp's inclusive scan of runs in lane order, by shuffles. Every lane must take part.
template <class P>
__device__ __forceinline__ RowRun<P> warp_scan_runs(RowRun<P> run) {
  const int lane = int(threadIdx.x) & 31;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const RowRun<P> up{__shfl_up_sync(kFullWarp, run.row, d), run.sum.shfl_up(d)};
    if (lane >= d) run = JoinRuns{}(up, run);
  }
  return run;
}

// The join of the runs of all threads before this one, in thread order ({-1, empty} in thread
// 0): a scan within each warp, then one over the warps' totals. (CUB's block scan spent most
// of its time in the second step, which it runs in every thread.) warp_runs: 32 in shared
// memory, free on entry and on return.
template <class P>
__device__ RowRun<P> scan_runs(const RowRun<P>& mine, RowRun<P>* warp_runs) {
  const int lane = int(threadIdx.x) & 31, warp = int(threadIdx.x) >> 5;
  const RowRun<P> inclusive = warp_scan_runs(mine);
  const RowRun<P> before{__shfl_up_sync(kFullWarp, inclusive.row, 1), inclusive.sum.shfl_up(1)};
  if (lane == 31) warp_runs[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    const RowRun<P> total = warp_scan_runs(warp_runs[lane]);
    RowRun<P> earlier{__shfl_up_sync(kFullWarp, total.row, 1), total.sum.shfl_up(1)};
    if (lane == 0) earlier = {-1, P::empty()};
    __syncwarp();
    warp_runs[lane] = earlier;  // the join of the warps before warp `lane`
  }
  __syncthreads();
  const RowRun<P> earlier_warps = warp_runs[warp];
  return lane == 0 ? earlier_warps : JoinRuns{}(earlier_warps, before);
}

template <class V>
struct LoopMatrix {
  const LoopSlice* slices;
  const unsigned* rowptr_low;  // rowptr mod 2^32: offsets within a slice are below 2^32
  const vid_t* col;
  const V* val;
  unsigned long long* piece_words;  // kPieceWords a block
};

// Where iteration k's partial sums go: two sets by parity.
template <int R>
__device__ __forceinline__ double* partials_of(double* partials, int k) {
  return partials + std::size_t(k % 2) * gridDim.x * R;
}

// Iteration k in a block: the product's terms staged in shared memory (every gather of x_{k-1}
// and f's inputs for the thread's first row issued before any is used); then the rows summed,
// each thread over an equal share of the slice's merge path, the runs of rows cut between
// threads joined by a block scan, while the first warp adds the totals of iteration k-1, whose
// partials were fetched with the gathers; the stopping test on those totals, which every block
// takes alike, so none leaves while others wait at the barrier; every row to f; the block's
// sums; one grid-wide barrier, after which iteration k+1 may read x_k. The sums ride across it
// in two sets by parity (a block can write iteration k+1's while a slower one still reads
// iteration k's).
template <class SR, class V, int R, class Product, class F, class Stop, class... T>
__global__ void __launch_bounds__(kLoopBlock, 1)
    mxv_loop_kernel(LoopMatrix<V> m, V* x0, V* x1, int max_iterations, F f, Stop stop, double* partials,
                    MxvLoopState<R>* state, T*... data) {
  using P = Partial<SR, V>;
  using Run = RowRun<P>;
  const LoopSlice c = m.slices[blockIdx.x];
  const int nnz = int(c.end - c.begin);
  const int nrows = int(c.end_row - c.first_row);
  extern __shared__ __align__(16) unsigned char loop_shared[];
  const LoopLayout layout = loop_layout(nnz, nrows, int(gridDim.x), R, sizeof(V), sizeof(P));
  vid_t* s_col = reinterpret_cast<vid_t*>(loop_shared + layout.col);
  V* s_term = reinterpret_cast<V*>(loop_shared + layout.term);
  unsigned* s_end = reinterpret_cast<unsigned*>(loop_shared + layout.end);
  P* s_sum = reinterpret_cast<P*>(loop_shared + layout.sums);
  double* s_partials = reinterpret_cast<double*>(loop_shared + layout.partials);
  __shared__ Run warp_runs[kLoopBlock / 32];
  __shared__ double totals[R];
  auto grid = cooperative_groups::this_grid();
  const int tid = int(threadIdx.x);

  // Once: the slice's columns and row ends.
  for (int p = tid; p < nnz; p += kLoopBlock) __pipeline_memcpy_async(s_col + p, m.col + c.begin + p, sizeof(vid_t));
  for (int k = tid; k < nrows; k += kLoopBlock)
    __pipeline_memcpy_async(s_end + k, m.rowptr_low + c.first_row + 1 + k, sizeof(unsigned));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  // Row k's entries are stage slots [.., stop_of(k)); row nrows is the tail, the first entries
  // of row end_row, which ends in a later slice. This thread's share of the merge path of row
  // ends and entries: items [first_item, last_item), rows ended before item d by rows_before(d).
  const unsigned base_low = unsigned(c.begin);
  auto stop_of = [&](int k) { return k < nrows ? int(s_end[k] - base_low) : nnz; };
  auto rows_before = [&](int d) {
    int lo = d > nnz ? d - nnz : 0, hi = d < nrows ? d : nrows;
    while (lo < hi) {
      const int mid = (lo + hi) >> 1;
      if (stop_of(mid) + mid < d) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const int items = nrows + nnz;
  const int share = (items + kLoopBlock - 1) / kLoopBlock;
  const int first_item = min(items, tid * share), last_item = min(items, first_item + share);
  const int my_first_row = rows_before(first_item), my_last_row = rows_before(last_item);

  constexpr bool kLoads = LoadsRows<F, V, T...>;
  using Row = typename LoopRow<F, V, T...>::type;
  // The term of an entry is x itself (plus-second, PageRank's product): the stage needs no pass.
  constexpr bool kTermIsX = !MatrixFirst::reads_matrix<SR> && std::is_same_v<typename SR::multiply_op, mult::Second>;

  double prev[R];
#pragma unroll
  for (int r = 0; r < R; ++r) prev[r] = state->seed[r];
  for (int k = 1;; ++k) {
    V* next = k % 2 ? x1 : x0;
    V* cur = k % 2 ? x0 : x1;
    const device::WrittenInKernelView<V> prev_x{cur};
    const Product product{m.val, cur};
    if (k > 1) {
      fetch_partials<R>(partials_of<R>(partials, k - 1), s_partials);
      __pipeline_commit();
    }
    Row ahead{};
    if constexpr (kLoads)
      if (tid < nrows) ahead = f.load(std::size_t(c.first_row) + tid, next, prev_x, loop_view(data)...);
    // x_{k-1} gathered into the stage by cp.async, which holds no register while a load is in
    // flight, so a thread issues every gather of its entries before any returns. (These are
    // plain loads: after the grid barrier's acquire, L1 holds no line older than x_{k-1}.)
    if constexpr (MatrixFirst::reads_vector<SR>) {
      // Four consecutive entries a thread, their columns read as one 16-byte word.
      const int quads = (nnz + 3) / 4;
      for (int q = tid; q < quads; q += kLoopBlock) {
        const uint4 k4 = *reinterpret_cast<const uint4*>(s_col + 4 * q);
        const vid_t ks[4] = {vid_t(k4.x), vid_t(k4.y), vid_t(k4.z), vid_t(k4.w)};
#pragma unroll
        for (int u = 0; u < 4; ++u)
          if (4 * q + u < nnz) __pipeline_memcpy_async(s_term + term_slot<V>(4 * q + u), cur + ks[u], sizeof(V));
      }
      __pipeline_commit();
    }
    __pipeline_wait_prior(0);
    if constexpr (!kTermIsX) {  // the entries this thread gathered, so no barrier first
      for (int p0 = 4 * tid; p0 < nnz; p0 += 4 * kLoopBlock)
        for (int p = p0; p < min(p0 + 4, nnz); ++p)
          s_term[term_slot<V>(p)] = product.times(product.matrix_value(c.begin + p),
                                    MatrixFirst::reads_vector<SR> ? s_term[term_slot<V>(p)] : V(0), s_col[p]);
    }
    __syncthreads();

    // Iteration k-1's totals, added by the first warp while the others sum their rows.
    if (k > 1 && tid < 32) add_all_blocks_in_warp<R>(s_partials, totals);

    // This thread's items: rows my_first_row .. my_last_row - 1 end in them, each summed over
    // its entries here; row my_last_row stays open. The first row this thread ends may have
    // begun in earlier threads: its run waits for the scan. One pass over the items, an entry
    // or a row end each, so the warp's threads step together whatever their rows' lengths (a
    // loop over rows with one over each row's entries inside ran each warp's inner loop as long
    // as its longest row, which made row-heavy slices the slowest).
    Run open{my_last_row, P::empty()}, first_ended{-1, P::empty()};
    {
      int row = my_first_row, e = first_item - my_first_row;
      int stop = row < my_last_row ? stop_of(row) : nnz;
      P sum = P::empty();
      for (int item = first_item; item < last_item; ++item) {
        if (row == my_last_row || e < stop) {
          sum.add(s_term[term_slot<V>(e)]);
          ++e;
        } else {
          if (row == my_first_row) first_ended = Run{row, sum};
          else s_sum[row] = sum;
          sum = P::empty();
          ++row;
          if (row < my_last_row) stop = stop_of(row);
        }
      }
      open.sum = sum;
    }
    const Run carried = scan_runs(open, warp_runs);
    if (first_ended.row >= 0) s_sum[first_ended.row] = JoinRuns{}(carried, first_ended).sum;
    if (tid == kLoopBlock - 1 && c.tail) {  // the tail's run is the last one: publish it
      publish_piece(m.piece_words + std::size_t(blockIdx.x) * kPieceWords, JoinRuns{}(carried, open).sum, unsigned(k));
    }
    __syncthreads();

    if (k > 1) {  // stop at iteration k-1, leaving iteration k's sums unused
      double sums[R];
#pragma unroll
      for (int r = 0; r < R; ++r) sums[r] = totals[r];
      if (k - 1 == max_iterations || stop(k - 1, sums)) {
        if (blockIdx.x == 0 && tid == 0) {
          for (int r = 0; r < R; ++r) {
            state->sums[r] = sums[r];
            state->previous[r] = prev[r];
          }
          state->iterations = k - 1;
        }
        return;
      }
#pragma unroll
      for (int r = 0; r < R; ++r) prev[r] = sums[r];
    }

    // Every row to f. The first, when its first pieces lie in earlier blocks, adds theirs
    // (published by now or soon: every block is resident) ahead of its own, in block order; the
    // first warp takes it last, to give them the most time, each lane polling one block's
    // piece. (Polled one after another by one thread, each piece cost a round trip to L2, a
    // quarter of an iteration on cit-HepPh; docs/performance/pagerank.md.)
    double acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = 0;
    // in: the row's inputs, loaded ahead (unused for an f without load).
    auto hand = [&](int row, const P& sum, const Row* in) {
      const std::size_t i = std::size_t(c.first_row) + row;
      if constexpr (kLoads) f(i, sum.result(), *in, acc, prev, next, prev_x, loop_view(data)...);
      else f(i, sum.result(), acc, prev, next, prev_x, loop_view(data)...);
    };
    const bool joins = c.head_from >= 0;
    if (tid < nrows && (tid != 0 || !joins)) hand(tid, s_sum[tid], &ahead);
    constexpr int kBatch = kLoopRowBatch<V>;
    for (int base = tid + kLoopBlock; base < nrows; base += kBatch * kLoopBlock) {
      Row batch[kBatch];
      if constexpr (kLoads) {
#pragma unroll
        for (int j = 0; j < kBatch; ++j) {
          const int row = base + j * kLoopBlock;
          if (row < nrows) batch[j] = f.load(std::size_t(c.first_row) + row, next, prev_x, loop_view(data)...);
        }
      }
#pragma unroll
      for (int j = 0; j < kBatch; ++j) {
        const int row = base + j * kLoopBlock;
        if (row < nrows) hand(row, s_sum[row], &batch[j]);
      }
    }
    if (tid < 32 && nrows > 0 && joins) {
      const int lane = tid;
      P sum = P::empty();
      for (int b0 = c.head_from; b0 < int(blockIdx.x); b0 += 32) {
        const int b = b0 + lane;
        const P piece = b < int(blockIdx.x) ? await_piece<P>(m.piece_words + std::size_t(b) * kPieceWords, unsigned(k))
                                            : P::empty();
        __syncwarp();
        for (int l = 0; l < 32 && b0 + l < int(blockIdx.x); ++l) sum.merge(piece.shfl(l));
      }
      sum.merge(s_sum[0]);
      if (lane == 0) hand(0, sum, &ahead);
    }
    write_block_sums<R>(acc, partials_of<R>(partials, k));
    grid.sync();
  }
}

// The dynamic shared memory the loop's launch gives each block: the most any slice needs.
template <class V, int R>
std::size_t loop_shared_bytes(const LoopSlices& slices, std::size_t sum_bytes) {
  std::size_t most = 0;
  for (const LoopSlice& s : slices.plan.slices)
    most = std::max<std::size_t>(
        most, loop_layout(s.end - s.begin, s.end_row - s.first_row, slices.blocks(), R, sizeof(V), sum_bytes).bytes);
  return most;
}

// The kernel for these data pointers, T deduced (const where a vector was passed const): named
// by deduction, as nvcc's launch stubs cannot spell arguments given through an alias template.
template <class SR, class V, int R, class Product, class F, class Stop, class... T>
constexpr auto mxv_loop_kernel_for(T*...) {
  return mxv_loop_kernel<SR, V, R, Product, F, Stop, T...>;
}

}  // namespace spgraph::gpu::detail

namespace spgraph::gpu {

template <class V, int R>
template <class SR>
bool MxvLoop<V, R>::suits(const Matrix<V>& A) {
  if (A.nrows() != A.ncols() || A.nrows() == 0 || !device::cooperative_launch_supported()) return false;
  return detail::loop_shared_bytes<V, R>(detail::spmv_loop_slices(A), sizeof(detail::Partial<SR, V>)) <=
         detail::loop_shared_limit();
}

template <class V, int R>
void MxvLoop<V, R>::prepare(const Matrix<V>& A) {
  detail::spmv_rowptr_low(A);
  const std::size_t words = std::size_t(detail::spmv_loop_slices(A).blocks()) * detail::kPieceWords;
  if (piece_words_.size() < words) piece_words_ = device::Buffer<unsigned long long>(words);
}

template <class V, int R>
template <class SR, class F, class Stop, class... Vs>
MxvLoopResult<R> MxvLoop<V, R>::run(F f, Stop stop, const Matrix<V>& A, Vector<V>& x0, Vector<V>& x1, SR,
                                    int max_iterations, const std::array<double, R>& seed, Vs&... vectors) {
  using namespace detail;
  using P = Partial<SR, V>;
  if (A.nrows() != A.ncols())
    throw Error("gpu::MxvLoop needs a square matrix; this one is " + std::to_string(A.nrows()) + " x " +
                std::to_string(A.ncols()));
  if (A.nrows() == 0) throw Error("gpu::MxvLoop needs a matrix with at least one row");
  if (max_iterations < 1)
    throw Error("gpu::MxvLoop: max_iterations must be at least 1; got " + std::to_string(max_iterations));
  if (!device::cooperative_launch_supported())
    throw Error("gpu::MxvLoop needs cooperative kernel launches, which this device does not support");
  check_spmv_input("gpu::MxvLoop", x0.size(), A);
  common_length("gpu::MxvLoop (x0, x1, then each vector)", x0, x1, vectors...);
  prepare(A);
  const LoopSlices& slices = spmv_loop_slices(A);
  const std::size_t shared = loop_shared_bytes<V, R>(slices, sizeof(P));
  if (shared > loop_shared_limit())
    throw Error("gpu::MxvLoop: this matrix's slices (up to " + std::to_string(slices.plan.max_nnz) + " nonzeros and " +
                std::to_string(slices.plan.max_rows) + " rows a block) need " + std::to_string(shared) +
                " bytes of shared memory a block, more than the " + std::to_string(loop_shared_limit()) +
                " this device gives one (MxvLoop::suits says whether a matrix fits)");
  piece_words_.fill_zero();
  MxvLoopState<R> entry{};
  for (int r = 0; r < R; ++r) entry.seed[r] = seed[r];
  state_.upload(&entry, 1);

  const auto& csr = A.csr();
  auto launch = [&](auto product) {
    auto kernel = mxv_loop_kernel_for<SR, V, R, decltype(product), F, Stop>(vectors.data()...);
    SPGRAPH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
    const int resident = device::resident_blocks(kernel, kLoopBlock, shared);
    if (resident < slices.blocks())
      throw Error("gpu::MxvLoop: the device holds " + std::to_string(resident) + " blocks of its kernel at once, " +
                  "fewer than the " + std::to_string(slices.blocks()) + " the matrix was cut for");
    if (partials_.size() < 2 * std::size_t(slices.blocks()) * R)
      partials_ = device::Buffer<double>(2 * std::size_t(slices.blocks()) * R);
    const LoopMatrix<V> m{slices.slices.data(), spmv_rowptr_low(A).data(), csr.col.data(), csr.val.data(),
                          piece_words_.data()};
    device::launch_cooperative(kernel, slices.blocks(), kLoopBlock, shared, 0, m, x0.data(), x1.data(),
                               max_iterations, f, stop, partials_.data(), state_.data(), vectors.data()...);
  };
  if (MatrixFirst::reads_matrix<SR> && !A.is_pattern())
    launch(EntryProduct<SR, V, MatrixFirst, true>{});
  else
    launch(EntryProduct<SR, V, MatrixFirst, false>{});

  const MxvLoopState<R> exit = device::read_value(state_.data());
  MxvLoopResult<R> result;
  result.iterations = exit.iterations;
  for (int r = 0; r < R; ++r) {
    result.sums[r] = exit.sums[r];
    result.previous[r] = exit.previous[r];
  }
  return result;
}

}  // namespace spgraph::gpu
