#pragma once
// Definitions of gpu::MxvLoop (contract in mxv_loop.hpp): one cooperative kernel, one block of
// kLoopBlock threads an SM, runs every iteration. Each warp takes its items (loop_items.hpp),
// computes their rows' sums and hands each finished row to f; each block then writes its sums,
// all wait at one grid-wide barrier, and every block adds all blocks' sums in the same order,
// so all of them take the same decision. Vectors written inside the kernel (x, the long rows'
// accumulators) are read through L2, never the read-only path, whose cache is not kept
// coherent with the kernel's own stores.
#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <string>

#include "spgraph/device/cooperative_launch.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/dense_map_reduce_impl.cuh"
#include "spgraph/gpu/mxv_loop.hpp"
#include "spgraph/gpu/spmv.hpp"
#include "spgraph/gpu/spmv_kernels_impl.cuh"

namespace spgraph::gpu::detail {

// One block an SM of 32 warps (64 registers a thread fill the SM): a grid-wide barrier costs an
// arrival per block, so the fewest blocks that keep an SM's warps busy. Two blocks an SM at 32
// registers, with items of 64 nonzeros, spilled and were slower (PageRank on cit-HepPh, H200:
// 11.7 against 8.7-8.9 us an iteration; on cnr-2000 32.5 against 25.3).
inline constexpr int kLoopBlock = 1024;
// A warp's items (loop_items.hpp) are at most kLoopTileNnz = 32 * kLoopBatch nonzeros: each
// lane issues the loads of its kLoopBatch before using any.
inline constexpr int kLoopBatch = int(kLoopTileNnz / 32);

// The long rows' accumulators in device memory: a piece's warp adds its sum into
// long_sums[slot] and counts itself in long_arrivals[slot]; the last one puts both back. (A
// tile's rows meet in the warp's slots in shared memory instead.)
template <class V>
struct LoopScratch {
  V* long_sums;
  unsigned* long_arrivals;
};

// Iteration k's work on one item, by a whole warp: the product's rows, each handed to f with
// its full sum w_i as the warp (or, for a long row, the last of its pieces' warps) finishes it.
// The COO row ids and columns are never written, so they go through the read-only path; x
// through L2 (the product's x reads x_{k-1} with XWrittenInKernel).
template <class SR, class V, int R, class Product, class F, class... T>
__device__ __forceinline__ void loop_item(const LoopItem& item, const vid_t* __restrict__ row_ids,
                                          const vid_t* __restrict__ col, const Product& product,
                                          Partial<SR, V>* row_sums, const LoopScratch<V>& scratch, const F& f,
                                          double (&acc)[R], const double (&prev)[R], T*... data) {
  using P = Partial<SR, V>;
  const int lane = int(threadIdx.x) & 31;
  vid_t rows[kLoopBatch], cols[kLoopBatch];
  V a[kLoopBatch], x[kLoopBatch];
#pragma unroll
  for (int u = 0; u < kLoopBatch; ++u) {
    const eid_t p = item.begin + u * 32 + lane;
    const bool valid = p < item.end;
    rows[u] = valid ? __ldg(row_ids + p) : ~vid_t(0);  // no row: its run is dropped
    cols[u] = valid ? __ldg(col + p) : 0;
    a[u] = valid ? product.matrix_value(p) : V(0);
  }
#pragma unroll
  for (int u = 0; u < kLoopBatch; ++u)
    x[u] = item.begin + u * 32 + lane < item.end ? product.vector_value(cols[u]) : V(0);

  if (item.rows == 0) {  // a piece of a long row: add it to the row's accumulator
    P piece = P::empty();
#pragma unroll
    for (int u = 0; u < kLoopBatch; ++u)
      if (item.begin + u * 32 + lane < item.end) piece.add(product.times(a[u], x[u], cols[u]));
    piece = warp_merge<SR>(piece, 32);
    if (lane == 0) {
      if (piece.present()) atomic_merge<SR>(scratch.long_sums + item.slot, piece);
      __threadfence();  // the piece is in before it is counted
      if (atomicAdd(scratch.long_arrivals + item.slot, 1u) == unsigned(item.chunks - 1)) {
        __threadfence();
        const V wi = __ldcg(scratch.long_sums + item.slot);
        scratch.long_sums[item.slot] = SR::template identity<V>();  // for the next iteration
        scratch.long_arrivals[item.slot] = 0;
        f(std::size_t(item.first_row), wi, acc, prev, data...);
      }
    }
    return;
  }
  row_sums[lane] = P::empty();
  __syncwarp();
#pragma unroll
  for (int u = 0; u < kLoopBatch; ++u) {
    if (item.begin + u * 32 >= item.end) break;  // the same for the whole warp
    P term = P::empty();
    if (rows[u] != ~vid_t(0)) term.add(product.times(a[u], x[u], cols[u]));
    // A row can continue from one step to the next, so its runs merge into its slot.
    reduce_row_segments<SR>(rows[u], term, [&](vid_t r, const P& run) {
      if (unsigned(r - item.first_row) < unsigned(kLoopTileRows)) row_sums[r - item.first_row].merge(run);
    });
    __syncwarp();
  }
  if (lane < item.rows) f(std::size_t(item.first_row) + lane, row_sums[lane].result(), acc, prev, data...);
  __syncwarp();  // row_sums is reset by the next item
}

// R sums as one value, so a block adds all of them in one reduction.
template <int R>
struct LoopSums {
  double v[R];
  __device__ LoopSums operator+(const LoopSums& o) const {
    LoopSums s;
#pragma unroll
    for (int r = 0; r < R; ++r) s.v[r] = v[r] + o.v[r];
    return s;
  }
};
struct AddLoopSums {
  template <class S>
  __device__ S operator()(const S& a, const S& b) const { return a + b; }
};

// This block's sum of acc over its threads, into partials[blockIdx.x * R + r].
template <int R>
__device__ void write_block_sums(const double (&acc)[R], double* partials) {
  using BlockReduce = cub::BlockReduce<LoopSums<R>, kLoopBlock>;
  __shared__ typename BlockReduce::TempStorage storage;
  LoopSums<R> mine;
#pragma unroll
  for (int r = 0; r < R; ++r) mine.v[r] = acc[r];
  const LoopSums<R> block = BlockReduce(storage).Reduce(mine, AddLoopSums{});  // valid in thread 0
  if (threadIdx.x == 0)
#pragma unroll
    for (int r = 0; r < R; ++r) partials[std::size_t(blockIdx.x) * R + r] = block.v[r];
}

// The totals of every block's partials[block * R + r], in every block alike: the first warp's
// lane l adds the partials of blocks l, l + 32, ... and a butterfly of shuffles, the same in
// every block, adds the lanes, so every block, and every run on the same grid, gets the same
// bits.
template <int R>
__device__ void add_all_blocks(const double* partials, double (&totals)[R]) {
  __shared__ double shared_totals[R];
  if (threadIdx.x < 32) {
    double s[R];
#pragma unroll
    for (int r = 0; r < R; ++r) s[r] = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += 32)
#pragma unroll
      for (int r = 0; r < R; ++r) s[r] += __ldcg(partials + std::size_t(b) * R + r);
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
#pragma unroll
      for (int r = 0; r < R; ++r) s[r] += __shfl_xor_sync(kFullWarp, s[r], offset);
    if (threadIdx.x == 0)
#pragma unroll
      for (int r = 0; r < R; ++r) shared_totals[r] = s[r];
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < R; ++r) totals[r] = shared_totals[r];
  __syncthreads();  // shared_totals is rewritten by the next call
}

// Every block takes the same branch at the end of each iteration, so none leaves while others
// wait at the barrier. One barrier an iteration: iteration k+1's product reads x_k, which all
// of iteration k's items wrote; the sums ride across it, written before and read after it, in
// two sets by the iteration's parity (a block can write iteration k+1's while a slower one
// still reads iteration k's).
template <class SR, class V, int R, class Product, class F, class Stop, class... T>
__global__ void __launch_bounds__(kLoopBlock, 1)
    mxv_loop_kernel(const LoopItem* __restrict__ items, eid_t nitems, const vid_t* __restrict__ row_ids,
                    const vid_t* __restrict__ col, const V* val, LoopScratch<V> scratch, V* x0, V* x1,
                    int max_iterations, F f, Stop stop, double* partials, MxvLoopState<R>* state, T*... data) {
  __shared__ Partial<SR, V> row_sums[kLoopBlock / 32][32];
  auto grid = cooperative_groups::this_grid();
  const int warp = int(threadIdx.x) >> 5;
  const eid_t first_item = eid_t(blockIdx.x) * (kLoopBlock / 32) + warp;
  const eid_t warps = eid_t(gridDim.x) * (kLoopBlock / 32);
  // A warp's first item, the only one on small graphs, kept from one iteration to the next.
  const LoopItem mine = first_item < nitems ? items[first_item] : LoopItem{};
  double prev[R];
#pragma unroll
  for (int r = 0; r < R; ++r) prev[r] = state->seed[r];
  for (int k = 1;; ++k) {
    V* next = k % 2 ? x1 : x0;
    V* cur = k % 2 ? x0 : x1;
    double acc[R];
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r] = 0;
    for (eid_t t = first_item; t < nitems; t += warps) {
      const LoopItem item = t == first_item ? mine : items[t];
      loop_item<SR, V, R>(item, row_ids, col, Product{val, cur}, row_sums[warp], scratch, f, acc, prev, next, cur,
                          data...);
    }
    double* sums_k = partials + std::size_t(k % 2) * gridDim.x * R;
    write_block_sums<R>(acc, sums_k);
    grid.sync();
    double sums[R];
    add_all_blocks<R>(sums_k, sums);
    if (k == max_iterations || stop(k, sums)) {
      if (blockIdx.x == 0 && threadIdx.x == 0) {
        for (int r = 0; r < R; ++r) {
          state->sums[r] = sums[r];
          state->previous[r] = prev[r];
        }
        state->iterations = k;
      }
      return;
    }
#pragma unroll
    for (int r = 0; r < R; ++r) prev[r] = sums[r];
  }
}

}  // namespace spgraph::gpu::detail

namespace spgraph::gpu {

template <class V, int R>
bool MxvLoop<V, R>::suits(const Matrix<V>& A) {
  return A.nrows() == A.ncols() && A.nnz() <= kMxvLoopMaxNnz && device::cooperative_launch_supported();
}

template <class V, int R>
void MxvLoop<V, R>::prepare(const Matrix<V>& A) {
  if (A.nnz() > 0) detail::spmv_coo_row_ids(A);
  const int long_rows = detail::spmv_loop_items(A).long_rows;
  if (long_sums_.size() < std::size_t(long_rows)) {
    long_sums_ = Vector<V>(std::size_t(long_rows));
    long_arrivals_ = device::Buffer<unsigned>(std::size_t(long_rows));
  }
}

template <class V, int R>
template <class SR, class F, class Stop, class... T>
MxvLoopResult<R> MxvLoop<V, R>::run(F f, Stop stop, const Matrix<V>& A, Vector<V>& x0, Vector<V>& x1, SR,
                                    int max_iterations, const std::array<double, R>& seed, Vector<T>&... vectors) {
  using namespace detail;
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
  const LoopItems& items = spmv_loop_items(A);
  if (items.long_rows > 0) {
    fill(long_sums_.data(), eid_t(items.long_rows), SR::template identity<V>());
    long_arrivals_.fill_zero();
  }
  MxvLoopState<R> entry{};
  for (int r = 0; r < R; ++r) entry.seed[r] = seed[r];
  state_.upload(&entry, 1);

  const auto& csr = A.csr();
  const vid_t* row_ids = A.nnz() > 0 ? spmv_coo_row_ids(A).data() : nullptr;
  const eid_t nitems = eid_t(items.items.size());
  auto launch = [&](auto product) {
    auto kernel = mxv_loop_kernel<SR, V, R, decltype(product), F, Stop, T...>;
    static const int resident = device::resident_blocks(kernel, kLoopBlock);
    const int grid = int(std::min<eid_t>(resident, (nitems + kLoopBlock / 32 - 1) / (kLoopBlock / 32)));
    if (partials_.size() < std::size_t(2 * grid * R)) partials_ = device::Buffer<double>(std::size_t(2 * grid * R));
    device::launch_cooperative(kernel, grid, kLoopBlock, 0, items.items.data(), nitems, row_ids, csr.col.data(),
                               csr.val.data(), LoopScratch<V>{long_sums_.data(), long_arrivals_.data()},
                               x0.data(), x1.data(), max_iterations, f, stop, partials_.data(), state_.data(),
                               vectors.data()...);
  };
  if (MatrixFirst::reads_matrix<SR> && !A.is_pattern())
    launch(EntryProduct<SR, V, MatrixFirst, true, true>{});
  else
    launch(EntryProduct<SR, V, MatrixFirst, false, true>{});

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
