#pragma once
// Triangle counting (spgraph/algorithms/triangle_count.hpp) written once over the operations
// contract, in the manner of LAGraph's LAGr_TriangleCount; instantiated for each backend by
// triangle_count_gpu.cu and triangle_count_cpu.cpp.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "spgraph/algorithms/triangle_count.hpp"
#include "spgraph/operations.hpp"

namespace spgraph::algorithms {
namespace triangle_detail {

using V = std::int32_t;  // the structures are patterns; the counts are int64_t sums

template <class B>
using Matrix = typename B::template Matrix<V>;
template <class B>
using Vector = typename B::template Vector<std::int64_t>;

// sum((X * Y) .* M), or sum((X * Y') .* M) with transpose_y, with the plus-pair semiring: the
// masked product reduced on the fly, or (materialize) formed first.
template <class B>
std::int64_t masked_sum(const Matrix<B>& M, const Matrix<B>& X, const Matrix<B>& Y, bool transpose_y,
                        bool materialize) {
  const Descriptor desc{.mask_structural = true, .transpose_b = transpose_y};
  if (materialize) {
    Matrix<B> C;
    B::mxm(C, &M, X, Y, PlusPair{}, desc);
    return B::template reduce_scalar<monoid::Plus, std::int64_t>(C);
  }
  Vector<B> row_sums;
  B::mxm_reduce_rows(row_sums, M, X, Y, PlusPair{}, desc);
  return B::template reduce_scalar<monoid::Plus>(row_sums);
}

// LAGraph's rule: relabel by degree when the graph is large and dense enough (n > 1000, mean
// degree >= 10) and its degrees are skewed (the mean of 1000 sampled degrees above 4 times their
// median); ascending for the L-masked Sandia methods, descending for the U-masked ones.
template <class B>
TrianglePresort choose_presort(const typename B::template Vector<vid_t>& degree, vid_t n, eid_t nnz,
                               const TriangleCountOptions& options) {
  const bool lower = options.method == TriangleMethod::Sandia || options.method == TriangleMethod::SandiaDot;
  const bool upper = options.method == TriangleMethod::Sandia2 || options.method == TriangleMethod::SandiaDot2;
  if (options.presort != TrianglePresort::Auto) return options.presort;
  if (!(lower || upper)) return TrianglePresort::None;
  constexpr int kSamples = 1000;
  if (n <= kSamples || double(nnz) / double(n) < 10) return TrianglePresort::None;
  std::mt19937_64 random(static_cast<std::uint64_t>(n));
  std::uniform_int_distribution<vid_t> pick(0, n - 1);
  std::vector<vid_t> ids(kSamples);
  for (vid_t& id : ids) id = pick(random);
  typename B::template Vector<vid_t> sampled;
  B::extract(sampled, degree, ids);
  std::vector<vid_t> d = B::to_host(sampled);
  double mean = 0;
  for (vid_t x : d) mean += x;
  mean /= kSamples;
  std::nth_element(d.begin(), d.begin() + kSamples / 2, d.end());
  const double median = d[kSamples / 2];
  if (mean <= 4 * median) return TrianglePresort::None;
  return lower ? TrianglePresort::Ascending : TrianglePresort::Descending;
}

}  // namespace triangle_detail

template <class B>
TriangleCountResult triangle_count_on_graph(Graph<B>& graph, const TriangleCountOptions& options) {
  using namespace triangle_detail;
  using Kind = SelectSpec::Kind;
  TriangleCountResult result;
  result.method = options.method;
  typename B::Stopwatch clock;
  clock.start();
  const Matrix<B>& simple = graph.template undirected<V>();  // A: symmetric, no self-loops
  result.build_seconds = clock.seconds();
  result.undirected_edges = simple.nnz() / 2;
  clock.start();

  // Relabel: A = P A P', P ordering the vertices by degree.
  std::optional<Matrix<B>> relabeled;
  const bool may_presort = options.presort != TrianglePresort::None && options.method != TriangleMethod::Burkhardt &&
                           options.method != TriangleMethod::Cohen;
  if (may_presort) {
    typename B::template Vector<vid_t> degree;
    B::row_degrees(degree, simple);
    result.presort = choose_presort<B>(degree, simple.nrows(), simple.nnz(), options);
    if (result.presort != TrianglePresort::None) {
      typename B::template Vector<vid_t> p;
      B::sort_order(p, degree, result.presort == TrianglePresort::Ascending);
      relabeled.emplace();
      B::permute(*relabeled, simple, p);
    }
  }
  const Matrix<B>& A = relabeled ? *relabeled : simple;

  Matrix<B> L, U;  // L = tril(A, -1), U = triu(A, 1)
  const TriangleMethod m = options.method;
  if (m != TriangleMethod::Burkhardt && m != TriangleMethod::Sandia2)
    B::select(L, nullptr, A, SelectSpec::position(Kind::Lower, -1));
  if (m != TriangleMethod::Burkhardt && m != TriangleMethod::Sandia)
    B::select(U, nullptr, A, SelectSpec::position(Kind::Upper, 1));
  const bool mat = options.materialize;
  switch (m) {
    case TriangleMethod::Burkhardt:  result.triangles = masked_sum<B>(A, A, A, false, mat) / 6; break;
    case TriangleMethod::Cohen:      result.triangles = masked_sum<B>(A, L, U, false, mat) / 2; break;
    case TriangleMethod::Sandia:     result.triangles = masked_sum<B>(L, L, L, false, mat); break;
    case TriangleMethod::Sandia2:    result.triangles = masked_sum<B>(U, U, U, false, mat); break;
    case TriangleMethod::SandiaDot:  result.triangles = masked_sum<B>(L, L, U, true, mat); break;
    case TriangleMethod::SandiaDot2: result.triangles = masked_sum<B>(U, U, L, true, mat); break;
  }
  result.count_seconds = clock.seconds();

  if (options.per_vertex) {
    // t = rowsum((A * A') .* A) / 2 on the graph as numbered in the input.
    clock.start();
    const Descriptor desc{.mask_structural = true, .transpose_b = true};
    Vector<B> twice;
    if (mat) {
      Matrix<B> C;
      B::mxm(C, &simple, simple, simple, PlusPair{}, desc);
      B::template reduce_rows<monoid::Plus>(twice, C);
    } else {
      B::mxm_reduce_rows(twice, simple, simple, simple, PlusPair{}, desc);
    }
    result.per_vertex = B::to_host(twice);
    for (std::int64_t& t : result.per_vertex) t /= 2;
    result.per_vertex_seconds = clock.seconds();
  }
  return result;
}

}  // namespace spgraph::algorithms
