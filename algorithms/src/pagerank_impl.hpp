#pragma once
// PageRank written once over a backend B (gpu::GpuBackend, graphblas::GraphBlasBackend):
// the definition is in pagerank.hpp. Each iteration k is one value-free SpMV and one pass over
// its result (B::MxvReducer): for each vertex i,
//
//   w_k(i) = (A' t_{k-1})(i)      pull over in-links: plus-second on A's pattern, transposed
//                                 once before iterating, so no matrix values are read
//   r_k(i) = base_k + d * w_k(i)  base_k = (1-d)/n + d * dangling_{k-1} / n
//   change   += |r_k(i) - r_{k-1}(i)|
//   t_k(i)  = r_k(i) / outdeg(i), or r_k(i) itself for a dangling vertex
//   dangling += r_k(i) where outdeg(i) = 0
//
// The ranks are not stored while iterating. r_{k-1}(i) is read back from t_{k-1}, which the
// product reads anyway, as t_{k-1}(i) * max(outdeg(i), 1); a dangling vertex keeps its rank in
// t because no row of A' lists it (it has no out-link), so the product never reads it there.
// The pass then reads w_k(i), t_{k-1}(i) and the out-degree's one-byte code (OutDegreeCode) and
// writes t_k(i): 13 bytes a vertex in float, 25 in double (the one-kernel loop below reads the
// 4-byte out-degree instead). dangling_{k-1} reaches the pass as the previous pass's total
// (prev[1]), so on a backend whose passes run behind the host (MxvReducer::deferred), iteration
// k+1 is queued before the host waits for iteration k's sums and the device never waits for the
// host. t lives in three buffers, t_k in t[k % 3], so the iteration queued ahead leaves
// t_{k-1}, from which one more product gives the last iteration's ranks exactly.
// On the small graphs the host's time to queue each kernel bounds the iteration: queueing two
// iterations ahead, or running them as CUDA graphs with the stopping test on the device,
// gained nothing (docs/performance/pagerank.md).
// What did help there: every iteration in one cooperative kernel (B::MxvLoop, gpu/mxv_loop.hpp),
// its blocks resident throughout, the stopping test made on the device. PageRankLoop::Auto takes
// it where B::MxvLoop::suits the graph; the host loop above runs otherwise, and on the cpu.
//
// Included by the one .cu (gpu) or .cpp (graphblas) file that instantiates it, after the
// backend's header and, for the gpu, gpu/mxv_reduce_impl.cuh.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "spgraph/algorithms/pagerank.hpp"
#include "spgraph/descriptor.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph.hpp"
#include "spgraph/operations.hpp"
#include "spgraph/semiring.hpp"
#include "spgraph/unary_ops.hpp"

namespace spgraph::algorithms {
namespace detail {

// The rank every vertex gets before its in-links: teleport (1-d)/n plus the dangling mass
// spread, d/n per unit. Both constants are divided out once on the host, so the pass, which
// evaluates this for every vertex, divides by nothing; on the device without contracting the
// product and sum into one FMA, so host and device compute the same bits.
struct RankBase {
  double teleport;      // (1 - d) / n
  double per_dangling;  // d / n

  RankBase(double damping, double n) : teleport((1 - damping) / n), per_dangling(damping / n) {}
  SPGRAPH_HD double operator()(double dangling) const {
#ifdef __CUDA_ARCH__
    return __dadd_rn(teleport, __dmul_rn(per_dangling, dangling));
#else
    return teleport + per_dangling * dangling;
#endif
  }
};

// q / d rounded to nearest, for q >= 0 finite and d a count in [1, 2^31). On the device by
// Markstein's sequence (correctly rounded reciprocal, product, one FMA correction), which gives
// the correctly rounded quotient as the division operator does, without the operator's call to
// its slow path: that call kept the pass from issuing later rows' loads ahead of it and held
// PageRank's pass at a third of the memory bandwidth (docs/performance/pagerank.md).
SPGRAPH_HD double divide_by_count(double q, double d) {
#ifdef __CUDA_ARCH__
  const double y = __drcp_rn(d);
  const double q0 = __dmul_rn(q, y);
  return __fma_rn(__fma_rn(-q0, d, q), y, q0);
#else
  return q / d;
#endif
}

// r_k(i), rounded to V as the ranks are; one expression, so the final ranks computed after the
// last iteration have the bits the iteration had.
template <class V>
SPGRAPH_HD V rank_from_in_sum(double base, double damping, V in_sum) {
  return V(base + damping * double(in_sum));
}

// An out-degree in one byte where it is below kEscape, as almost all are; kEscape sends the
// reader to the vertex's 4-byte out-degree, read for those vertices alone. The host loop's pass
// is bound by memory, and the byte instead of 4 takes 1-3% off an iteration. The
// one-kernel loop (gpu::MxvLoop), bound by latency, reads the 4-byte out-degrees: its row
// loads, issued ahead of the product, would wait on the code before the escape's load
// (docs/performance/pagerank.md).
struct OutDegreeCode {
  static constexpr std::uint8_t kEscape = 255;

  static SPGRAPH_HD std::uint8_t of(vid_t degree) { return degree < kEscape ? std::uint8_t(degree) : kEscape; }
  template <class Codes, class Degrees>
  static SPGRAPH_HD vid_t read(const Codes& code, const Degrees& outdeg, std::size_t i) {
    const std::uint8_t c = code[i];
    return c == kEscape ? vid_t(outdeg[i]) : vid_t(c);
  }
};

// Iteration k's pass over row i of the product, w_k(i) = in_sum; vectors t_k (written),
// t_{k-1}, the out-degree codes and the out-degrees, as pointers or as the backend's views of
// them (which give each read and write its cache hint: gpu/mxv_reduce.hpp, gpu/mxv_loop.hpp);
// prev = iteration k-1's sums (change, dangling). Without branches on data (but the rare
// escaped out-degree's load), so loads for consecutive rows can overlap. load() reads the row's
// inputs, which do not depend on the product, so gpu::MxvLoop fetches them ahead of it.
// InOneKernel: every iteration runs in one kernel (gpu::MxvLoop), which reads the 4-byte
// out-degrees (OutDegreeCode says why).
template <class V, bool InOneKernel = false>
struct PageRankStep {
  double damping;
  RankBase base;

  struct Row {
    vid_t degree;
    V prev_scaled;
  };
  template <class Out, class In, class Codes, class Degrees>
  SPGRAPH_HD Row load(std::size_t i, const Out&, const In& prev_scaled, const Codes& code,
                      const Degrees& outdeg) const {
    if constexpr (InOneKernel) return {vid_t(outdeg[i]), V(prev_scaled[i])};
    else return {OutDegreeCode::read(code, outdeg, i), V(prev_scaled[i])};
  }

  template <class Out, class... Ins>
  SPGRAPH_HD void operator()(std::size_t i, V in_sum, const Row& row, double (&acc)[2], const double (&prev)[2],
                             const Out& scaled, const Ins&...) const {
    const V r = rank_from_in_sum(base(prev[1]), damping, in_sum);
    const bool dangling = row.degree == 0;
    const double share = double(dangling ? 1 : row.degree);
    const double diff = double(r) - double(row.prev_scaled) * share;
    acc[0] += diff < 0 ? -diff : diff;
    scaled[i] = dangling ? r : V(divide_by_count(double(r), share));
    acc[1] += dangling ? double(r) : 0.0;  // + 0.0 leaves the (non-negative) sum as it was
  }
  template <class Out, class In, class Codes, class Degrees>
  SPGRAPH_HD void operator()(std::size_t i, V in_sum, double (&acc)[2], const double (&prev)[2], const Out& scaled,
                             const In& prev_scaled, const Codes& code, const Degrees& outdeg) const {
    (*this)(i, in_sum, load(i, scaled, prev_scaled, code, outdeg), acc, prev, scaled, prev_scaled, code, outdeg);
  }
};

// Before the first iteration, r_0 = 1/n everywhere: t_0 = r_0 / outdeg (r_0 itself for a
// dangling vertex), the out-degree codes, and dangling_0, the rank dangling vertices hold.
template <class V>
struct PageRankStart {
  V r0;
  SPGRAPH_HD void operator()(std::size_t i, double (&acc)[1], V* scaled, std::uint8_t* code, const vid_t* degree) const {
    const vid_t d = degree[i];
    code[i] = OutDegreeCode::of(d);
    scaled[i] = d == 0 ? r0 : V(double(r0) / double(d));
    acc[0] += d == 0 ? double(r0) : 0.0;
  }
};

// Stops a loop of iterations on the device (gpu::MxvLoop) as the host loop stops.
struct PageRankStop {
  bool fixed;
  double threshold;
  SPGRAPH_HD bool operator()(int, const double (&sums)[2]) const { return !fixed && sums[0] < threshold; }
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

inline void check_pagerank_options(vid_t vertices, const PageRankOptions& o) {
  if (vertices == 0) throw Error("PageRank needs a graph with at least one vertex; this one has none");
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

// Whether B can run every iteration in one kernel (B::MxvLoop, the gpu backend), and whether
// it will for this graph.
template <class B, class V>
bool use_device_loop(const typename B::template Matrix<V>& in_links, PageRankLoop loop) {
  if constexpr (DeviceLoop<B>) {
    return loop == PageRankLoop::Device ||
           (loop == PageRankLoop::Auto && B::template MxvLoop<V, 2>::template suits<PlusSecond>(in_links));
  } else {
    if (loop == PageRankLoop::Device)
      throw Error(std::string("PageRank: the ") + B::name +
                  " backend iterates from the host only (PageRankLoop::Device needs the gpu backend)");
    return false;
  }
}

// What either loop iterates on: A' (pattern), t_k in scaled[k % scaled.size()] (t_0 given),
// the out-degrees, dangling_0, and the definition's constants.
template <class B, class V>
struct PageRankIterations {
  const typename B::template Matrix<V>& in_links;
  std::vector<typename B::template Vector<V>>& scaled;
  const typename B::template Vector<std::uint8_t>& degree_code;  // OutDegreeCode::of(outdeg)
  const typename B::template Vector<vid_t>& degree;
  double dangling;
  double damping;
  RankBase rank_base;
  bool fixed;      // fixed_iterations: no tolerance test
  int last;        // the most iterations
  double threshold;
};

// The loops: each builds what it reads, calls uploaded() (the upload ends there), runs the
// iterations, fills result's iterations, change, converged and iterate_seconds, and returns
// base_K of the last iteration. t_{K-1} stays in its buffer.
//
// Each iteration queued by the host (B::MxvReducer), one ahead where the backend defers its
// passes; three buffers of t, since the iteration queued ahead must leave t_{k-1}.
template <class B, class V, class Uploaded>
double iterate_from_host(const PageRankIterations<B, V>& it, PageRankResult<V>& result, Uploaded uploaded) {
  typename B::template MxvReducer<V, 2> pass;
  constexpr bool overlap = decltype(pass)::deferred;
  double dangling = it.dangling;
  pass.seed({0.0, dangling});
  // What the product reads besides A' (the gpu kernel's format), built with the upload, not in
  // the first iteration: iterate_seconds is the iterations' time alone.
  pass.prepare(it.in_links, SpmvOptions{});
  uploaded();
  const PageRankStep<V> step{it.damping, it.rank_base};
  auto& t = it.scaled;
  auto iteration = [&](int k) {
    pass.start(step, it.in_links, t[(k - 1) % 3], PlusSecond{}, SpmvOptions{}, t[k % 3],
               std::as_const(t[(k - 1) % 3]), it.degree_code, it.degree);
  };
  typename B::Stopwatch clock;
  clock.start();
  double base = 0;
  iteration(1);
  for (int k = 1; k <= it.last; ++k) {
    // Queued ahead, iteration k+1 writes t_{k+1} only; if iteration k is the last, its
    // result goes unused.
    if (overlap && k < it.last) iteration(k + 1);
    const auto sums = pass.finish();
    result.iterations = k;
    result.change = sums[0];
    base = it.rank_base(dangling);  // dangling_{k-1}
    dangling = sums[1];
    if (!it.fixed && result.change < it.threshold) {
      result.converged = true;
      break;
    }
    if (!overlap && k < it.last) iteration(k + 1);
  }
  result.iterate_seconds = clock.seconds();
  if (it.fixed) result.converged = true;
  return base;
}

// Every iteration in one kernel (B::MxvLoop), the stopping test on the device; two buffers.
template <class B, class V, class Uploaded>
double iterate_on_device(const PageRankIterations<B, V>& it, PageRankResult<V>& result, Uploaded uploaded) {
  typename B::template MxvLoop<V, 2> loop;
  loop.prepare(it.in_links);
  uploaded();
  typename B::Stopwatch clock;
  clock.start();
  const auto run = loop.run(PageRankStep<V, true>{it.damping, it.rank_base}, PageRankStop{it.fixed, it.threshold},
                            it.in_links, it.scaled[0], it.scaled[1], PlusSecond{}, it.last, {0.0, it.dangling},
                            it.degree_code, it.degree);
  result.iterate_seconds = clock.seconds();
  result.iterations = run.iterations;
  result.change = run.sums[0];
  result.converged = it.fixed || result.change < it.threshold;
  return it.rank_base(run.previous[1]);  // dangling_{K-1}
}

// The definition as a sequence of operations of the contract, one iteration at a time:
// unfused, so slower than the loops above, and the reference they are tested against.
//   t      = r .* inv_out       (inv_out(i) = 1/outdeg(i), 0 for a dangling vertex)
//   w      = A' t               (plus-second: the sum of t over in-links)
//   r_next = d w + base_k       (base_k = (1-d)/n + d/n * sum of r over dangling vertices)
//   change = sum |r_next - r|
template <class B, class V>
double iterate_with_operations(Graph<B>& g, const PageRankIterations<B, V>& it, PageRankResult<V>& result,
                               typename B::template Vector<V>& rank) {
  const std::size_t n = std::size_t(g.vertices());
  const std::vector<vid_t> degree = B::to_host(g.template out_degree<V>());
  std::vector<V> inv_out(n), dangling(n);
  for (std::size_t i = 0; i < n; ++i) {
    const vid_t deg = degree[i];
    inv_out[i] = deg == 0 ? V(0) : V(1.0 / double(deg));
    dangling[i] = deg == 0 ? V(1) : V(0);
  }
  const auto inv_out_d = B::from_host(inv_out), is_dangling = B::from_host(dangling);
  rank = B::from_host(std::vector<V>(n, V(1.0 / double(n))));
  typename B::template Vector<V> t, w, next, diff, held;
  typename B::Stopwatch clock;
  clock.start();
  double base = 0;
  for (int k = 1; k <= it.last; ++k) {
    B::template ewise_mult<mult::Times>(t, nullptr, rank, inv_out_d);
    B::mxv(w, nullptr, it.in_links, t, PlusSecond{});
    B::template ewise_mult<mult::Times>(held, nullptr, rank, is_dangling);
    base = it.rank_base(double(B::template reduce_scalar<monoid::Plus>(held)));
    B::apply(next, nullptr, w, unary::Scale{it.damping});
    B::apply(next, nullptr, next, unary::AddScalar{base});
    B::apply(diff, nullptr, rank, unary::Negate{});
    B::template ewise_add<monoid::Plus>(diff, nullptr, next, diff);
    B::apply(diff, nullptr, diff, unary::Abs{});
    result.change = double(B::template reduce_scalar<monoid::Plus>(diff));
    std::swap(rank, next);
    result.iterations = k;
    if (!it.fixed && result.change < it.threshold) {
      result.converged = true;
      break;
    }
  }
  result.iterate_seconds = clock.seconds();
  if (it.fixed) result.converged = true;
  return base;
}

}  // namespace detail

template <class B, class V>
PageRankResult<V> pagerank_on_graph(Graph<B>& g, const PageRankOptions& options) {
  detail::check_pagerank_options(g.vertices(), options);
  const vid_t n = g.vertices();
  const double n_d = double(n);
  const double d = options.damping;
  auto start = std::chrono::steady_clock::now();

  const auto& in_links = g.template in_links<V>();  // A', pattern only
  const auto& degree = g.template out_degree<V>();  // the passes read it: const
  PageRankResult<V> result;
  const bool fixed = options.fixed_iterations > 0;
  std::vector<typename B::template Vector<V>> scaled;
  typename B::template Vector<std::uint8_t> degree_code;
  detail::PageRankIterations<B, V> iterations{
      in_links, scaled, degree_code, degree, 0.0, d, detail::RankBase(d, n_d), fixed,
      fixed ? options.fixed_iterations : options.max_iterations,
      options.tolerance_mode == ToleranceMode::NetworkX ? n_d * options.tolerance : options.tolerance};
  auto uploaded = [&] {
    result.upload_seconds = detail::seconds_since(start);
    start = std::chrono::steady_clock::now();
  };
  if (options.loop == PageRankLoop::Operations) {
    uploaded();
    auto rank = B::template zeros<V>(std::size_t(n));
    detail::iterate_with_operations(g, iterations, result, rank);
    result.rank = B::to_host(rank);
    result.solve_seconds = detail::seconds_since(start);
    return result;
  }

  result.device_loop = detail::use_device_loop<B, V>(in_links, options.loop);
  for (int b = 0; b < (result.device_loop ? 2 : 3); ++b) scaled.push_back(B::template zeros<V>(std::size_t(n)));
  degree_code = B::template zeros<std::uint8_t>(std::size_t(n));
  iterations.dangling = B::template map_reduce<1>(detail::PageRankStart<V>{V(1.0 / n_d)}, scaled[0], degree_code, degree)[0];

  double base = 0;  // base_K
  if constexpr (DeviceLoop<B>)
    if (result.device_loop) base = detail::iterate_on_device(iterations, result, uploaded);
  if (!result.device_loop) base = detail::iterate_from_host(iterations, result, uploaded);

  // r_K from t_{K-1}, which neither loop overwrote.
  auto in_sum = B::template zeros<V>(std::size_t(n));
  B::mxv(in_sum, nullptr, in_links, scaled[std::size_t(result.iterations - 1) % scaled.size()], PlusSecond{},
         Descriptor{}, SpmvOptions{});
  auto rank = B::template zeros<V>(std::size_t(n));
  B::template map_reduce<1>(detail::PageRankRanks<V>{base, d}, rank, in_sum);
  result.rank = B::to_host(rank);
  result.solve_seconds = detail::seconds_since(start);
  return result;
}

}  // namespace spgraph::algorithms
