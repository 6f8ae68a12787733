#pragma once
// Multi-source BFS (spgraph/algorithms/msbfs.hpp) written once over the operations contract;
// instantiated for each backend by msbfs_gpu.cu and msbfs_cpu.cpp.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "spgraph/algorithms/msbfs.hpp"
#include "spgraph/error.hpp"
#include "spgraph/operations.hpp"

namespace spgraph::algorithms {
namespace msbfs_detail {

using V = std::int32_t;  // levels and parents are vertex ids or small counts

// A rows x n matrix with one entry per row s, at column sources[first + s], holding value(s).
template <class F>
Csr<V> one_per_row(const std::vector<vid_t>& sources, std::size_t first, std::size_t rows, vid_t n, F value) {
  Csr<V> m;
  m.nrows = static_cast<vid_t>(rows);
  m.ncols = n;
  m.rowptr.resize(rows + 1);
  for (std::size_t s = 0; s < rows; ++s) {
    m.rowptr[s + 1] = static_cast<eid_t>(s + 1);
    m.col.push_back(sources[first + s]);
    m.val.push_back(value(sources[first + s]));
  }
  return m;
}

// Row s of a host matrix spread over a dense row of n, `absent` where it has no entry.
template <class T>
void spread(const Csr<V>& m, vid_t n, T absent, std::vector<T>& out) {
  out.assign(static_cast<std::size_t>(m.nrows) * static_cast<std::size_t>(n), absent);
  for (vid_t s = 0; s < m.nrows; ++s)
    for (eid_t p = m.rowptr[s]; p < m.rowptr[s + 1]; ++p)
      out[static_cast<std::size_t>(s) * static_cast<std::size_t>(n) + static_cast<std::size_t>(m.col[p])] =
          static_cast<T>(m.val[p]);
}

// The bit-parallel form (WordBfs): batches of at most 64 sources, a bit each; parents as found.
template <class B>
void search_by_words(Graph<B>& graph, const std::vector<vid_t>& sources, const MsbfsSink& sink,
                     const MsbfsOptions& options, MsbfsSummary& summary) {
  using WordBfs = typename B::WordBfs;
  // Row u of `out` lists the v with a link u -> v that the search follows; `in` is its transpose.
  const bool forward = options.direction == BfsDirection::Out;
  const auto& out = forward ? graph.template pattern<V>() : graph.template in_links<V>();
  const auto& in = forward ? graph.template in_links<V>() : graph.template pattern<V>();
  const std::size_t batch = std::min<std::size_t>(static_cast<std::size_t>(options.batch), WordBfs::kSources);
  typename B::Stopwatch clock;
  for (std::size_t first = 0; first < sources.size(); first += batch) {
    const std::size_t b = std::min(batch, sources.size() - first);
    const std::vector<vid_t> these(sources.begin() + first, sources.begin() + first + b);
    typename B::template Vector<std::int32_t> levels;
    typename B::template Vector<vid_t> parents;
    clock.start();
    const typename WordBfs::Result r =
        WordBfs::run(out, in, these, sink ? &levels : nullptr, sink && options.parents ? &parents : nullptr);
    summary.seconds += clock.seconds();
    summary.reached.insert(summary.reached.end(), r.reached.begin(), r.reached.end());
    summary.depth.insert(summary.depth.end(), r.depth.begin(), r.depth.end());
    summary.edges_traversed += r.edges_traversed;
    if (sink) {
      MsbfsBatch out;
      out.first = first;
      out.count = b;
      out.level = B::to_host(levels);
      if (options.parents) out.parent = B::to_host(parents);
      sink(out);
    }
  }
}

}  // namespace msbfs_detail

template <class B>
MsbfsSummary msbfs_on_graph(Graph<B>& graph, const std::vector<vid_t>& sources, const MsbfsSink& sink,
                            const MsbfsOptions& options) {
  using namespace msbfs_detail;
  using Matrix = typename B::template Matrix<V>;
  const vid_t n = graph.vertices();
  if (options.batch < 1) throw Error("msbfs: the batch size must be at least 1, got " + std::to_string(options.batch));
  for (std::size_t k = 0; k < sources.size(); ++k)
    if (sources[k] < 0 || sources[k] >= n)
      throw Error("msbfs: source " + std::to_string(sources[k]) + " (sources[" + std::to_string(k) +
                  "]) is not a vertex of the graph (0.." + std::to_string(static_cast<long long>(n) - 1) + ")");

  // A(u, v): a link u -> v the search follows.
  const Matrix& A = options.direction == BfsDirection::Out ? graph.template pattern<V>() : graph.template in_links<V>();
  MsbfsSummary summary;
  summary.reached.reserve(sources.size());
  summary.depth.reserve(sources.size());
  if (sources.empty()) return summary;
  if constexpr (WordFrontierBfs<B>) {
    if (options.form == MsbfsForm::Auto) {
      search_by_words<B>(graph, sources, sink, options, summary);
      return summary;
    }
  }
  std::vector<vid_t> degree;  // of the links followed: edges traversed
  {
    typename B::template Vector<vid_t> d;
    B::row_degrees(d, A);
    degree = B::to_host(d);
  }
  const Descriptor not_visited{.mask_structural = true, .mask_complement = true, .replace = true};
  const Descriptor where_found{.mask_structural = true};
  typename B::Stopwatch clock;

  for (std::size_t first = 0; first < sources.size(); first += static_cast<std::size_t>(options.batch)) {
    const std::size_t b = std::min<std::size_t>(static_cast<std::size_t>(options.batch), sources.size() - first);
    clock.start();
    Matrix F = B::from_host(one_per_row(sources, first, b, n, [](vid_t s) { return s; }));     // frontier
    Matrix L = B::from_host(one_per_row(sources, first, b, n, [](vid_t) { return V(0); }));    // levels
    Matrix P;                                                                                  // parents
    if (options.parents) P = B::from_host(one_per_row(sources, first, b, n, [](vid_t) { return V(kNoParent); }));
    for (V depth = 1;; ++depth) {
      Matrix T;  // T<!L> = F any.secondi A: T(s, v) = a frontier vertex linked to v
      B::mxm(T, &L, F, A, AnySecondI{}, not_visited);
      if (T.nnz() == 0) break;
      B::assign(L, &T, depth, where_found);  // L<T> = depth
      if (options.parents) B::template ewise_add<monoid::Any>(P, nullptr, P, T);  // P<T> = T (disjoint)
      F = std::move(T);
    }
    // The summary on the backend: reached = row degrees of L, depth = its row maxima, and the
    // links out of the reached vertices = degree . (how many sources reached each vertex).
    typename B::template Vector<vid_t> reached;
    typename B::template Vector<V> deepest;
    typename B::template Vector<std::int64_t> reached_by;
    Matrix ones;
    B::row_degrees(reached, L);
    B::template reduce_rows<monoid::Max>(deepest, L);
    B::apply(ones, nullptr, L, unary::One{});
    B::template reduce_cols<monoid::Plus>(reached_by, ones);
    const std::vector<vid_t> reached_h = B::to_host(reached);
    const std::vector<V> deepest_h = B::to_host(deepest);
    const std::vector<std::int64_t> reached_by_h = B::to_host(reached_by);
    summary.seconds += clock.seconds();
    summary.reached.insert(summary.reached.end(), reached_h.begin(), reached_h.end());
    summary.depth.insert(summary.depth.end(), deepest_h.begin(), deepest_h.end());
    for (vid_t v = 0; v < n; ++v) summary.edges_traversed += reached_by_h[v] * degree[v];
    if (sink) {  // the levels leave the backend only for a caller that takes them
      MsbfsBatch batch;
      batch.first = first;
      batch.count = b;
      spread(B::to_host(L), n, kUnreached, batch.level);
      if (options.parents) spread(B::to_host(P), n, kNoParent, batch.parent);
      sink(batch);
    }
  }
  return summary;
}

}  // namespace spgraph::algorithms
