#pragma once
// Many iterations of "one SpMV, then one pass over its rows" in one kernel, for small graphs,
// where a launch costs more than the work of an iteration. Each iteration k = 1, 2, ...:
//
//   w_i = row i of A (+).(x) x_{k-1}
//   f(i, w_i, acc, prev, x_k, x_{k-1}, v1, v2, ...)    for every row i; acc a double[R]
//   sums_k = the totals of acc;  stop when stop(k, sums_k) or k == max_iterations
//
//   gpu::MxvLoop<V, R> loop;
//   loop.prepare(A);                                      // optional: A's work items, now
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
// x0 and x1. The sums are deterministic for a given device and matrix, up to the order in
// which the pieces of a row longer than 128 nonzeros are added (atomics, as in MxvReducer).
//
// Against MxvReducer (mxv_reduce.hpp), which runs each iteration as its own kernels: one
// cooperative kernel for all of them, a block an SM resident throughout, and one grid-wide
// barrier an iteration. The rows are cut into warp items of at most 32 rows and 128 nonzeros
// (longer rows into pieces that meet in an accumulator, the last piece's warp finishing the
// row), so a warp finishes every row it starts and hands it to f at once: the product's sums
// never go through memory, no second barrier separates product and pass, and no iteration
// waits for a launch or for the host. Each block's sums cross the barrier, and every block adds
// them all in the same order. A warp's items take one after another, each a few round trips
// to L2, so it suits graphs with few items a warp (suits()); on larger ones MxvReducer's
// kernels, made for bandwidth, win.
//
// Declared here for host code (gpu/backend.hpp); prepare() and run() are defined in
// mxv_loop_impl.cuh, which the .cu file instantiating them includes.
#include <array>

#include "spgraph/device/memory.hpp"
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/types.hpp"

namespace spgraph::gpu {

// Up to this many nonzeros, suits() holds. PageRank on the H200, an iteration, float / double
// (bench/spmv, over five runs), the loop against MxvReducer's: cit-HepPh (421k nonzeros)
// 8.5-8.9 / 9.2-9.8 us against 11.2-11.6 / 11.5-12.0, email-Enron (367k) 7.0-8.2 / 7.2-8.5
// against 9.3-9.6 / 9.7-9.9; web-NotreDame (1.5M) 15.4-16.4 / 16.7-18.3 against 15.1-15.5 /
// 17.0-17.6, cnr-2000 (3.2M) 25.2-25.6 / 25.6-27.0 against 21.3-21.4 / 23.4-23.6,
// cit-Patents-like (16.5M) 117-118 / 137-147 against 76 / 149.
inline constexpr eid_t kMxvLoopMaxNnz = 1'000'000;

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
  // Whether the loop is the faster way to iterate on A, on this device: cooperative launches
  // supported and at most kMxvLoopMaxNnz nonzeros.
  static bool suits(const Matrix<V>& A);

  // Optional: builds what run() reads besides A (the COO row ids, the scratch) ahead.
  void prepare(const Matrix<V>& A);

  // Throws spgraph::Error for vectors whose lengths do not match A (square), for
  // max_iterations < 1, and where cooperative launches are not supported.
  template <class SR, class F, class Stop, class... T>
  MxvLoopResult<R> run(F f, Stop stop, const Matrix<V>& A, Vector<V>& x0, Vector<V>& x1, SR, int max_iterations,
                       const std::array<double, R>& seed, Vector<T>&... vectors);

 private:
  Vector<V> long_sums_;                    // a long row's pieces' sum, the identity between iterations
  device::Buffer<unsigned> long_arrivals_;  // a long row's pieces done in this iteration
  device::Buffer<double> partials_;        // one sum per block and r, for two iterations
  device::Buffer<detail::MxvLoopState<R>> state_;
};

}  // namespace spgraph::gpu
