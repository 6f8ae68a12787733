#pragma once
// PageRank written once over a backend B (gpu::GpuBackend, graphblas::GraphBlasBackend):
// the definition is in pagerank.hpp. Each iteration k is one value-free SpMV and one fused
// vector pass:
//
//   w_k = A' t_{k-1}              pull over in-links: plus-second on A's pattern, transposed
//                                 once before iterating, so no matrix values are read
//   for each i (B::MapReducer):   r_k(i) = base_k + d * w_k(i)    base_k = (1-d)/n + d*dangling/n
//                                 change   += |r_k(i) - r_{k-1}(i)|
//                                 t_k(i)  = r_k(i) / outdeg(i), or 0 for a dangling vertex
//                                 dangling += r_k(i) where outdeg(i) = 0
//
// The ranks are not stored while iterating: r_{k-1}(i) is recomputed, to the same bits, from
// w_{k-1}, which the SpMVs leave in the other of two buffers. A pass then reads w_k, w_{k-1}
// and the out-degree (32-bit) and writes t_k, and the ranks are written once, after the last
// iteration. On a backend whose passes run behind the host (MapReducer::deferred), the SpMV
// of iteration k+1, which needs only t_k, is queued before the host waits for pass k's sums,
// so the device does not sit idle while the host decides whether to go on.
//
// Included by the one .cu (gpu) or .cpp (graphblas) file that instantiates it, after the
// backend's header and, for the gpu, gpu/dense_map_reduce_impl.cuh.
#include <chrono>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "spgraph/algorithms/pagerank.hpp"
#include "spgraph/descriptor.hpp"
#include "spgraph/error.hpp"
#include "spgraph/operations.hpp"
#include "spgraph/semiring.hpp"

namespace spgraph::algorithms {
namespace detail {

// r_k(i), rounded to V as the ranks are; one expression, so the pass that recomputes
// r_{k-1}(i) gets the same bits as the pass that made it.
template <class V>
SPGRAPH_HD V rank_from_in_sum(double base, double damping, V in_sum) {
  return V(base + damping * double(in_sum));
}

// Element i of a vector that no index of the pass writes. On the device the load goes
// through the read-only data path, which tells the compiler that no store of the pass can
// change it, so loads for later indices may be issued ahead of earlier indices' stores.
template <class T>
SPGRAPH_HD T read_only(const T* v, std::size_t i) {
#ifdef __CUDA_ARCH__
  return __ldg(v + i);
#else
  return v[i];
#endif
}

// The fused pass of iteration k; vectors in the order t_k (written), w_k, w_{k-1}, outdeg.
// Without branches, so the loads of consecutive indices can overlap (see read_only).
template <class V>
struct PageRankStep {
  double base;     // teleport plus the spread dangling mass, the same for every vertex
  double damping;  // weight of the in-link sum
  double prev_base, prev_damping;  // iteration k-1's, to recompute r_{k-1} from w_{k-1}

  SPGRAPH_HD void operator()(std::size_t i, double (&acc)[2], V* scaled, const V* in_sum, const V* prev_in_sum,
                             const vid_t* outdeg) const {
    const V r = rank_from_in_sum(base, damping, read_only(in_sum, i));
    const double diff = double(r) - double(rank_from_in_sum(prev_base, prev_damping, read_only(prev_in_sum, i)));
    acc[0] += diff < 0 ? -diff : diff;
    const vid_t degree = read_only(outdeg, i);
    const bool dangling = degree == 0;
    const V share = V(double(r) / double(dangling ? 1 : degree));
    scaled[i] = dangling ? V(0) : share;
    acc[1] += dangling ? double(r) : 0.0;  // + 0.0 leaves the (non-negative) sum as it was
  }
};

// After the last iteration: the ranks themselves (the sum, their total, is not needed).
template <class V>
struct PageRankRanks {
  double base, damping;  // the last iteration's

  SPGRAPH_HD void operator()(std::size_t i, double (&acc)[1], V* rank, const V* in_sum) const {
    rank[i] = rank_from_in_sum(base, damping, in_sum[i]);
    acc[0] += double(rank[i]);
  }
};

inline void check_pagerank_input(const Csr<double>& graph, const PageRankOptions& o) {
  if (graph.nrows != graph.ncols)
    throw Error("PageRank needs a square adjacency matrix; this one is " + std::to_string(graph.nrows) + " x " +
                std::to_string(graph.ncols));
  if (graph.nrows == 0) throw Error("PageRank needs a graph with at least one vertex; this one has none");
  if (!(o.damping >= 0 && o.damping <= 1))
    throw Error("PageRank: damping must be in [0, 1]; got " + std::to_string(o.damping));
  if (o.fixed_iterations < 0)
    throw Error("PageRank: the number of fixed iterations must be positive; got " +
                std::to_string(o.fixed_iterations));
  if (o.fixed_iterations == 0) {
    if (!(o.tolerance > 0) || !std::isfinite(o.tolerance))
      throw Error("PageRank: the tolerance must be a positive number; got " + std::to_string(o.tolerance));
    if (o.max_iterations < 1)
      throw Error("PageRank: the maximum number of iterations must be at least 1; got " +
                  std::to_string(o.max_iterations));
  }
}

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace detail

template <class B, class V>
PageRankResult<V> pagerank_on_backend(const Csr<double>& graph, const PageRankOptions& options) {
  detail::check_pagerank_input(graph, options);
  const vid_t n = graph.nrows;
  const double n_d = double(n);
  auto start = std::chrono::steady_clock::now();

  typename B::template Matrix<V> in_links;  // A', pattern only
  {
    Csr<V> pattern;
    pattern.nrows = pattern.ncols = n;
    pattern.rowptr = graph.rowptr;
    pattern.col = graph.col;
    B::transpose(in_links, B::from_host(pattern));
  }
  std::vector<vid_t> outdeg(static_cast<std::size_t>(n));
  for (vid_t i = 0; i < n; ++i) outdeg[i] = static_cast<vid_t>(graph.row_length(i));
  auto degree = B::from_host(outdeg);
  auto rank = B::from_host(std::vector<V>(n, V(0)));
  auto scaled = B::from_host(std::vector<V>(n, V(0)));
  // w_k lives in in_sum[k % 2]; zeros at first, so the first pass reads finite values.
  typename B::template Vector<V> in_sum[2] = {B::from_host(std::vector<V>(n, V(0))),
                                              B::from_host(std::vector<V>(n, V(0)))};
  typename B::template MapReducer<2> pass;
  constexpr bool overlap = decltype(pass)::deferred;

  // The first pass is a step with no link term: r_0 = 1/n, and it yields t_0 and the
  // dangling mass for iteration 1 (its change, from zero, is not an iteration's).
  detail::PageRankStep<V> step{1.0 / n_d, 0.0, 0.0, 0.0};
  pass.start(step, scaled, in_sum[0], in_sum[1], degree);
  double dangling = pass.finish()[1];

  PageRankResult<V> result;
  result.upload_seconds = detail::seconds_since(start);
  start = std::chrono::steady_clock::now();

  const bool fixed = options.fixed_iterations > 0;
  const int last = fixed ? options.fixed_iterations : options.max_iterations;
  const double threshold =
      options.tolerance_mode == ToleranceMode::NetworkX ? n_d * options.tolerance : options.tolerance;
  const double d = options.damping;
  auto product = [&](typename B::template Vector<V>& w) {
    B::mxv(w, nullptr, in_links, scaled, PlusSecond{}, Descriptor{}, SpmvOptions{});
  };
  for (int k = 1; k <= last; ++k) {
    if (k == 1 || !overlap) product(in_sum[k % 2]);
    step = {(1 - d) / n_d + d * dangling / n_d, d, step.base, step.damping};
    pass.start(step, scaled, in_sum[k % 2], in_sum[(k + 1) % 2], degree);
    // Queued behind the pass, this product overwrites w_{k-1} only after the pass has read it;
    // if iteration k turns out to be the last, its result goes unused.
    if (overlap && k < last) product(in_sum[(k + 1) % 2]);
    const auto sums = pass.finish();
    result.iterations = k;
    result.change = sums[0];
    dangling = sums[1];
    if (!fixed && result.change < threshold) {
      result.converged = true;
      break;
    }
  }
  if (fixed) result.converged = true;
  B::template map_reduce<1>(detail::PageRankRanks<V>{step.base, step.damping}, rank,
                            in_sum[result.iterations % 2]);
  result.rank = B::to_host(rank);
  result.solve_seconds = detail::seconds_since(start);
  return result;
}

}  // namespace spgraph::algorithms
