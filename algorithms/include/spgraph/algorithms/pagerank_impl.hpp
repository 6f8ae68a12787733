#pragma once
// PageRank written once over a backend B (gpu::GpuBackend, graphblas::GraphBlasBackend):
// the definition is in pagerank.hpp. Each iteration is one value-free SpMV and one fused
// vector pass:
//
//   w = A' t                      pull over in-links: plus-second on A's pattern, transposed
//                                 once before iterating, so no matrix values are read
//   for each i (B::map_reduce):   r(i)  = base + d * w(i)       base = (1-d)/n + d*dangling/n
//                                 change   += |r(i) - r_old(i)|
//                                 t(i)  = r(i) / outdeg(i), or 0 for a dangling vertex
//                                 dangling += r(i) where outdeg(i) = 0
//
// so the ranks, the stopping test, the next SpMV input and the next dangling mass come out
// of one read of r, w, outdeg and one write of r and t.
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

// The fused pass; vectors in the order rank, scaled (t), in_sum (w), outdeg.
template <class V>
struct PageRankStep {
  double base;     // teleport plus the spread dangling mass, the same for every vertex
  double damping;  // weight of the in-link sum

  SPGRAPH_HD void operator()(std::size_t i, double (&acc)[2], V* rank, V* scaled, const V* in_sum,
                             const V* outdeg) const {
    const V r = V(base + damping * double(in_sum[i]));
    const double diff = double(r) - double(rank[i]);
    acc[0] += diff < 0 ? -diff : diff;
    rank[i] = r;
    if (outdeg[i] > V(0)) {
      scaled[i] = V(double(r) / double(outdeg[i]));
    } else {
      scaled[i] = V(0);
      acc[1] += double(r);
    }
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
  std::vector<V> outdeg(static_cast<std::size_t>(n));
  for (vid_t i = 0; i < n; ++i) outdeg[i] = V(graph.row_length(i));
  auto degree = B::from_host(outdeg);
  auto rank = B::from_host(std::vector<V>(n, V(0)));
  auto scaled = B::from_host(std::vector<V>(n, V(0)));
  auto in_sum = B::from_host(std::vector<V>(n, V(0)));

  // The first pass is a step with no link term: r = 1/n, and it yields t and the dangling
  // mass for iteration 1 (its change, from the zero vector, is not an iteration's).
  detail::PageRankStep<V> step{1.0 / n_d, 0.0};
  double dangling = B::template map_reduce<2>(step, rank, scaled, in_sum, degree)[1];

  PageRankResult<V> result;
  result.upload_seconds = detail::seconds_since(start);
  start = std::chrono::steady_clock::now();

  const bool fixed = options.fixed_iterations > 0;
  const int last = fixed ? options.fixed_iterations : options.max_iterations;
  const double threshold =
      options.tolerance_mode == ToleranceMode::NetworkX ? n_d * options.tolerance : options.tolerance;
  const double d = options.damping;
  for (int k = 1; k <= last; ++k) {
    B::mxv(in_sum, nullptr, in_links, scaled, PlusSecond{}, Descriptor{}, SpmvOptions{});
    step = {(1 - d) / n_d + d * dangling / n_d, d};
    const auto sums = B::template map_reduce<2>(step, rank, scaled, in_sum, degree);
    result.iterations = k;
    result.change = sums[0];
    dangling = sums[1];
    if (!fixed && result.change < threshold) {
      result.converged = true;
      break;
    }
  }
  if (fixed) result.converged = true;
  result.rank = B::to_host(rank);
  result.solve_seconds = detail::seconds_since(start);
  return result;
}

}  // namespace spgraph::algorithms
