#pragma once
// Markov clustering (spgraph/algorithms/mcl.hpp) written once over the operations contract;
// instantiated for each backend by mcl_gpu.cu and mcl_cpu.cpp. The iterate T is mcl's matrix
// transposed, so mcl's per-column steps are per-row steps here.
#include <cstdint>

#include "mcl_support.hpp"
#include "spgraph/algorithms/mcl.hpp"
#include "spgraph/operations.hpp"

namespace spgraph::algorithms {
namespace mcl_detail {

// mcl sums each product in double (impala/compose.c) and stores the result as float: the sums'
// rounding errors vanish in the float, so flows that are equal stay exactly equal. Float sums
// broke such ties (hep-th: 31 iterations to mcl's 20); double without the rounding let GPU
// sums in varying order drift apart (web-NotreDame: 68 to 75 to mcl's 32). So: double, and
// each iterate rounded to float.
using V = double;

template <class B>
using Matrix = typename B::template Matrix<V>;
template <class B>
using Vector = typename B::template Vector<V>;

// mcl's start: S = max(A, A') without loops or zero weights, each vertex's loop set to its
// largest weight (1 where it has no link), rows normalised: T = M'.
template <class B>
Matrix<B> stochastic_start(const Matrix<B>& A, vid_t n) {
  using Kind = SelectSpec::Kind;
  Matrix<B> both, links, S;
  B::template ewise_add<monoid::Max>(both, nullptr, A, A, Descriptor{.transpose_b = true});
  B::select(links, nullptr, both, SelectSpec::position(Kind::OffDiagonal));
  B::select(S, nullptr, links, SelectSpec::value(Kind::Greater, 0));
  Matrix<B> zero_diagonal, with_zeros, loop_matrix;
  B::diag(zero_diagonal, B::template zeros<V>(n));
  B::template ewise_add<monoid::Max>(with_zeros, nullptr, S, zero_diagonal);
  Vector<B> loops;
  B::template reduce_rows<monoid::Max>(loops, with_zeros);       // 0 where a vertex has no link
  B::assign(loops, &loops, V(1), Descriptor{.mask_complement = true});  // ... there 1
  B::diag(loop_matrix, loops);
  Matrix<B> T;
  B::template ewise_add<monoid::Plus>(T, nullptr, S, loop_matrix);
  B::inflate_rows(T, T, InflateSpec{.power = 1});  // rows scaled to sum 1
  return T;
}

// max over rows of (peak - squares) * entries kept: mcl's chaos of one expansion (E is n x n).
template <class B>
double chaos(const Matrix<B>& E, vid_t n, const Vector<B>& peak, const Vector<B>& squares) {
  Vector<B> kept, minus_squares, spread;
  B::mxv(kept, nullptr, E, B::template zeros<V>(n), PlusPair{});  // kept = E (+.pair) x: each entry counts 1
  B::apply(minus_squares, nullptr, squares, unary::Negate{});
  B::template ewise_add<monoid::Plus>(spread, nullptr, peak, minus_squares);
  B::template ewise_mult<mult::Times>(spread, nullptr, spread, kept);
  return B::template reduce_scalar<monoid::Max>(spread);
}

}  // namespace mcl_detail

template <class B>
MclResult mcl_on_graph(Graph<B>& graph, const MclOptions& options, const MclProgress& progress) {
  using namespace mcl_detail;
  check_mcl_options(options);
  check_mcl_weights(graph.host());
  MclResult result;
  const vid_t n = graph.vertices();
  if (n == 0) {
    result.converged = true;
    return result;
  }
  typename B::Stopwatch clock, iteration_clock;
  clock.start();
  Matrix<B> T = stochastic_start<B>(graph.template weighted<V>(), n);
  result.build_seconds = clock.seconds();

  clock.start();
  // mcl's precision 0.99999 / P (no threshold for P = 0), and pct as a fraction.
  const double threshold = options.prune_number > 0 ? 0.99999 / double(options.prune_number) : 0.0;
  const PruneSpec prune{threshold, options.select_number, options.recover_number, options.recover_percent / 100.0};
  const MxmOptions expand{.memory_budget = options.memory_budget};
  double inflation = options.inflation;
  for (int it = 1; it <= options.max_iterations; ++it) {
    iteration_clock.start();
    Matrix<B> E;
    Vector<B> peak, squares;
    B::mxm_prune_rows(E, peak, squares, T, T, PlusTimes{}, prune, expand);  // expansion, pruned per row
    T = Matrix<B>();  // released: what follows reads and rewrites E alone
    MclIteration step{.iteration = it};
    step.chaos = chaos<B>(E, n, peak, squares);
    step.entries = std::int64_t(E.nnz());
    B::inflate_rows(E, E, InflateSpec{.power = inflation, .float_values = true});  // held as mcl holds it
    T = std::move(E);
    step.seconds = iteration_clock.seconds();
    result.iterations = it;
    result.final_chaos = step.chaos;
    if (progress) progress(step);
    if (it >= 40) inflation *= 1.001;  // mcl's nudge for the rare cases that never settle
    if (step.chaos < kMclChaosLimit) {
      result.converged = true;
      break;
    }
  }
  result.iterate_seconds = clock.seconds();

  clock.start();
  result.clusters = clusters_from_limit(B::to_host(T));
  result.interpret_seconds = clock.seconds();
  return result;
}

}  // namespace spgraph::algorithms
