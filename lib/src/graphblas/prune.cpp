// mxm_prune_rows's pruning on the CPU: the product, formed whole by GraphBLAS, is read back to
// the host and each row pruned there (rows in parallel) with the rule the GPU kernels share
// (host/prune_rule.hpp), then handed back to GraphBLAS.
#include <omp.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <vector>

#include "host/prune_rule.hpp"
#include "internal.hpp"

namespace spgraph::graphblas::detail {
namespace {

// The bar of one row: its entries >= the bar are kept (Loop is decided by the caller).
template <class V>
double row_bar(const V* v, eid_t n, eid_t kept, double kept_mass, spgraph::detail::PruneCase c, const PruneSpec& s,
               std::vector<V>& sorted) {
  using spgraph::detail::PruneCase;
  if (c == PruneCase::Threshold) return s.threshold;
  if (c == PruneCase::KeepAll) return -std::numeric_limits<double>::infinity();
  sorted.assign(v, v + n);
  std::sort(sorted.begin(), sorted.end(), std::greater<V>());
  if (c == PruneCase::RecoverAll) return double(sorted[s.recover - 1]);
  const double sbar = double(sorted[s.select - 1]);
  eid_t selected = 0;
  double selected_mass = 0;
  for (; selected < n && double(sorted[selected]) >= sbar; ++selected) selected_mass += double(sorted[selected]);
  const double recover_bar = kept > s.recover ? double(sorted[s.recover - 1]) : 0.0;
  return spgraph::detail::select_bar(sbar, selected, selected_mass, kept, recover_bar, s);
}

}  // namespace

template <class V>
void prune_rows(Matrix<V>& C, Vector<V>& peak, Vector<V>& squares, const PruneSpec& spec) {
  using spgraph::detail::PruneCase;
  const Csr<V> full = to_host(C);
  const vid_t n = full.nrows;
  std::vector<V> row_peak(n, V(0)), row_squares(n, V(0));
  std::vector<double> bar(n);
  std::vector<PruneCase> cases(n);
  std::vector<eid_t> rowptr(std::size_t(n) + 1, 0);
#pragma omp parallel
  {
    std::vector<V> sorted;
#pragma omp for schedule(dynamic, 256)
    for (vid_t i = 0; i < n; ++i) {
      const eid_t p0 = full.rowptr[i], len = full.rowptr[i + 1] - p0;
      const V* v = full.val.data() + p0;
      double peak_i = 0, squares_i = 0, kept_mass = 0;
      eid_t kept = 0;
      for (eid_t k = 0; k < len; ++k) {
        const double x = double(v[k]);
        peak_i = std::max(peak_i, x);
        squares_i += x * x;
        if (x >= spec.threshold) ++kept, kept_mass += x;
      }
      row_peak[i] = V(peak_i);
      row_squares[i] = V(squares_i);
      cases[i] = spgraph::detail::prune_case(len, kept, kept_mass, spec);
      bar[i] = row_bar(v, len, kept, kept_mass, cases[i], spec, sorted);
      eid_t count = 0;
      for (eid_t k = 0; k < len; ++k)
        count += cases[i] == PruneCase::Loop ? full.col[p0 + k] == i : double(v[k]) >= bar[i];
      rowptr[std::size_t(i) + 1] = count;
    }
  }
  for (vid_t i = 0; i < n; ++i) rowptr[std::size_t(i) + 1] += rowptr[i];
  Csr<V> pruned;
  pruned.nrows = n;
  pruned.ncols = full.ncols;
  pruned.rowptr = std::move(rowptr);
  pruned.col.resize(pruned.rowptr.back());
  pruned.val.resize(pruned.rowptr.back());
#pragma omp parallel for schedule(dynamic, 256)
  for (vid_t i = 0; i < n; ++i) {
    eid_t at = pruned.rowptr[i];
    for (eid_t k = full.rowptr[i]; k < full.rowptr[i + 1]; ++k) {
      const bool loop = cases[i] == PruneCase::Loop;
      if (loop ? full.col[k] != i : double(full.val[k]) < bar[i]) continue;
      pruned.col[at] = full.col[k];
      pruned.val[at++] = loop ? V(1) : full.val[k];
    }
  }
  C = from_host(pruned);
  peak = from_host(row_peak);
  squares = from_host(row_squares);
}

template void prune_rows<float>(Matrix<float>&, Vector<float>&, Vector<float>&, const PruneSpec&);
template void prune_rows<double>(Matrix<double>&, Vector<double>&, Vector<double>&, const PruneSpec&);

}  // namespace spgraph::graphblas::detail
