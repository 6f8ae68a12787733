#pragma once
// Many iterations of "one SpMV, then one pass over its rows" in one kernel, for small graphs,
// where a launch costs more than the work of an iteration. Each iteration k = 1, 2, ...:
//
//   w_i = row i of A (+).(x) x_{k-1}
//   f(i, w_i, acc, prev, x_k, x_{k-1}, v1, v2, ...)    for every row i; acc a double[R]
//   sums_k = the totals of acc;  stop when stop(k, sums_k) or k == max_iterations
//
//   gpu::MxvLoop<V, R> loop;
//   loop.prepare(A);                                      // optional: A's slices, now
//   auto result = loop.run(f, stop, A, x0, x1, SR{}, max_iterations, seed, v1, v2, ...);
//
// x_k lives in x0 for even k and x1 for odd k (x_0 in x0 on entry), and f computes it: f may
// write element i of x_k and of v1, v2, ..., and read any element of x_{k-1} and of vectors no
// call writes. f gets x_k and the vectors passed non-const as pointers, and as views whose
// v[i] carries the load's hint (device/cache_hints.hpp) the vectors passed const, read through
// the read-only path (__ldg), and x_{k-1}, read from L2: an earlier iteration of the same kernel
// wrote it, and the read-only path's cache is not kept coherent with the kernel's stores. A
// view converts to a const pointer. prev is sums_{k-1} (the seed for
// k = 1), so f's iteration k may depend on iteration k-1's totals, as PageRank's dangling mass
// does; stop(k, sums) is an SPGRAPH_HD predicate evaluated on the device. The host launches
// once and reads back the result: the iterations run, the last sums and the sums before them
// (the seed after one iteration). Afterwards x_{iterations} and x_{iterations-1} are both in
// x0 and x1. The sums are deterministic for a given device and matrix: no atomics add values.
//
// If F also has load(i, x_k, x_{k-1}, v1, v2, ...), returning the inputs f needs of row i
// besides w_i (read under f's contract), the loop calls it at the start of iteration k and
// hands its result to f as f(i, w_i, loaded, acc, prev, x_k, x_{k-1}, v1, v2, ...): those loads
// then overlap the product's instead of waiting for it.
//
// Against MxvReducer (mxv_reduce.hpp), which runs each iteration as its own kernels: one
// cooperative kernel for all of them, a block an SM resident throughout, and one grid-wide
// barrier an iteration. Each block takes an equal slice of the merge path of A's row ends and
// nonzeros (loop_slices.hpp) and keeps its column ids and row ends in shared memory, so an
// iteration reads only x_{k-1}, f's inputs and the sums from global memory; the gathers go to
// shared memory by cp.async, so a thread has all of its in flight at once; each thread then
// sums an equal share of the slice's merge path, and a scan over the threads joins the rows cut
// between them. The product's sums never go through global memory, and no iteration waits for
// a launch or for the host. A row cut between two slices (cuts move to row ends, but for rows
// longer than kLoopSnapRow) is summed in pieces, and the block where it ends adds the others'
// pieces, in block order, as soon as they are published. Each block's sums cross the barrier,
// and every block adds them all in the same order. suits() holds where every slice fits a
// block's shared memory: on the H200 up to about 2M links (web-NotreDame in float and
// double); on larger graphs MxvReducer's kernels, made for bandwidth, run.
//
// On the small graphs a PageRank iteration so costs at most about 1.3 value-free SpMVs (H200).
// How the loop got there (what a per-block timer probe showed: row-heavy slices, cut rows'
// pieces polled one by one, a walk as long as a warp's longest row), and the forms measured and
// not kept, are in docs/performance/pagerank.md.
//
// Declared here for host code (gpu/backend.hpp); prepare() and run() are defined in
// mxv_loop_impl.cuh, which the .cu file instantiating them includes.
#include <array>

#include "spgraph/device/memory.hpp"
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/types.hpp"

namespace spgraph::gpu {

namespace detail {
// What the loop's kernel reads on entry (seed) and leaves for the host (the rest).
template <int R>
struct MxvLoopState {
  double seed[R];
  double sums[R];       // sums_{iterations}
  double previous[R];   // sums_{iterations - 1}
  int iterations;
};
}  // namespace detail

template <int R>
struct MxvLoopResult {
  int iterations = 0;
  std::array<double, R> sums{};      // sums_{iterations}
  std::array<double, R> previous{};  // sums_{iterations - 1}, or the seed
};

template <class V, int R>
class MxvLoop {
  static_assert(R >= 1, "a row pass needs at least one sum");

 public:
  // Whether run() with semiring SR runs on A on this device: A square and not empty,
  // cooperative launches supported, and every block's slice of A within the shared memory a
  // block may take.
  template <class SR>
  static bool suits(const Matrix<V>& A);

  // Optional: builds what run() reads besides A (the slices, the scratch) ahead.
  void prepare(const Matrix<V>& A);

  // Throws spgraph::Error for vectors whose lengths do not match A (square), for
  // max_iterations < 1, where cooperative launches are not supported, and where A does not suit.
  template <class SR, class F, class Stop, class... Vs>
  MxvLoopResult<R> run(F f, Stop stop, const Matrix<V>& A, Vector<V>& x0, Vector<V>& x1, SR, int max_iterations,
                       const std::array<double, R>& seed, Vs&... vectors);

 private:
  device::Buffer<unsigned long long> piece_words_;  // each block's piece of the row its slice ends
                                                    // inside, tagged with its iteration
  device::Buffer<double> partials_;        // one sum per block and r, for two iterations
  device::Buffer<detail::MxvLoopState<R>> state_;
};

}  // namespace spgraph::gpu
