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
// call writes, but x_{k-1} not through the read-only path (__ldg): an earlier iteration of the
// same kernel wrote it, and that path's cache is not kept coherent with the kernel's stores
// (plain loads and __ldcg see them after the barrier). prev is sums_{k-1} (the seed for
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
// History, PageRank on the H200, an iteration, float / double (bench/spmv): email-Enron 5.1-5.4 /
// 5.2-5.5 us (0.91-0.99 value-free SpMVs), cit-HepPh 8.2-8.6 / 8.5-8.9 (1.05-1.13),
// web-NotreDame 13.8-14.1 / 14.2-14.4 (1.56-1.66 / 1.37-1.46) against 15.3-16.7 / 17.0-18.0
// for MxvReducer, and 11.9 in float (1.43) once a row end weighs 3 entries in the slicing
// (loop_slices.hpp); cnr-2000 float, before that weighting, 21.1-21.5 against 21.3-21.9. The form before this one cut
// the rows into warp items of 32 rows and 128 nonzeros, read from global memory every
// iteration: email-Enron 7.0-8.2 / 7.2-8.5 us, cit-HepPh 8.5-8.9 / 9.2-9.8, web-NotreDame
// 15.4-16.4 / 16.7-18.3. On the way here, measured and not kept: the slices streamed from
// global memory in chunks every iteration, as the CSR-stream kernel streams its tiles
// (email-Enron 10.2-11.6 us); CUB's block scan for the runs (email-Enron 6.1 / 7.6 us: under
// ncu its pass over the 32 warps' totals, made in every thread, was a fifth of the kernel);
// a piece published by a release store after it and awaited by an acquire load (a block with
// a cut first row waited about 2 us more than the others); slices cut with a row end
// weighing 2 or 3 entries (web-NotreDame float 12.0-12.7 us, but double 16.0-17.1); and each
// row handed to f by the thread that sums it, as it sums it, with no row sums kept in shared
// memory (web-NotreDame 15.3 / 18.1 us, cit-HepPh double 10.1, email-Enron double 7.8-8.0).
// Under ncu the SMs of web-NotreDame wait for each other at the grid barrier for about a third
// of the iteration. A per-block globaltimer probe says why, and what it took to even them out
// (web-NotreDame, an iteration, float / double, from 11.9 / 14.2 us):
//  - a block whose first row began in earlier slices waited for their pieces, polled one after
//    another by one thread, a round trip to L2 each; polled by a warp, a lane a piece (and
//    cit-HepPh, whose slices cut many rows, went from 8.1 / 8.3 to 6.1 / 6.6 us). Publishing a
//    piece earlier, summed by the whole block before the walk, had changed nothing; moving cuts
//    to row ends for rows of up to half a slice (kLoopSnapRow) gained little once polled so;
//  - the walk over a slice's items, written as a loop over rows with one over each row's
//    entries inside, ran each warp's inner loop as long as its longest row: row-heavy slices
//    summed in 3-5 us against 2 for the others; one pass over the items, and the stage of
//    terms padded against bank conflicts, 10.4 us in float;
//  - in double, row-heavy slices have 5-7 rows a thread, and the loads of f's inputs for each
//    took a round trip: in batches of 4, 12.0 us (kLoopRowBatch).
// At the end the blocks take 5.4-10.6 us of work and the barrier about 1.1 us more, and
// bench/spmv gives web-NotreDame 10.6-10.7 / 12.4-12.6 us (1.25-1.35 / 1.25-1.27 value-free
// SpMVs: the SpMV itself took 7.9-8.5 us in float from run to run), cit-HepPh 5.6 / 7.5
// (0.75 / 0.93), email-Enron 4.6 / 5.1 (0.85 / 0.87). Also measured and not kept:
// f's inputs for all rows staged in shared memory by cp.async with the gathers (float within
// 0.1-0.3 us either way; double over the shared memory limit with row-heavy slices, or slower
// with heavier row weights that keep slices within it); float rows weighing 4 entries (level
// with 3) or 5-6 (slower); the batch sizes and rows ahead of mxv_loop_impl.cuh; two blocks of
// 512 threads an SM, so that an SM's two slices, from far apart in the matrix, even out
// (web-NotreDame level at 10.7 / 12.4 us, cit-HepPh 5.8 / 7.7, email-Enron 4.4 / 6.0).
// A per-block probe of this form, web-NotreDame float (10.5-10.7 us an iteration): the blocks'
// work ends 5.2-9.1 us into the iteration. The last are the row-heavy slices (4.2-4.7k rows,
// 5-6k entries): gathers 1.9-2.9 us, the walk 1.8-2.7, and the rows handed to f 3.6-4.2 (the
// whole block; its first thread is done in 1.4-1.9), against 0.9 us for slices of 120-470
// rows. With f doing no arithmetic an iteration took 9.75 us, so its double-precision work
// costs 0.8. Not kept: f's quotient in float (reciprocal, product and one FMA correction),
// 0.1-0.2 us faster on web-NotreDame and email-Enron, but not always the double quotient
// rounded to float (the ranks of 143 of cit-HepPh's vertices changed in their last bit); rows
// weighing 4 entries again (web-NotreDame 10.60 against 10.67 us, cit-HepPh 5.80 against
// 5.68); one gather for a run of entries of the same column (one row-heavy slice's 4690
// entries touch 4 lines of x), up to 0.7 us off those slices' gathers but 10.9-11.0 us an
// iteration. However few its entries, a slice's gathers take about 1.8 us.
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
  template <class SR, class F, class Stop, class... T>
  MxvLoopResult<R> run(F f, Stop stop, const Matrix<V>& A, Vector<V>& x0, Vector<V>& x1, SR, int max_iterations,
                       const std::array<double, R>& seed, Vector<T>&... vectors);

 private:
  device::Buffer<unsigned long long> piece_words_;  // each block's piece of the row its slice ends
                                                    // inside, tagged with its iteration
  device::Buffer<double> partials_;        // one sum per block and r, for two iterations
  device::Buffer<detail::MxvLoopState<R>> state_;
};

}  // namespace spgraph::gpu
