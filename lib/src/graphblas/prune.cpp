// mxm_prune_rows on the CPU: row panels of A, sized by their intermediate products, multiplied
// by GraphBLAS; each product read back to the host, its rows pruned in parallel with the rule
// the GPU kernels share (host/prune_rule.hpp), and appended to the result.
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "host/prune_rule.hpp"
#include "internal.hpp"

namespace spgraph::graphblas::detail {
namespace {

using spgraph::detail::PruneCase;

constexpr std::size_t kBytesPerProduct = 32;  // GraphBLAS's product and workspace, the host copy

std::size_t default_budget() {
  const std::size_t host = std::size_t(sysconf(_SC_PHYS_PAGES)) * std::size_t(sysconf(_SC_PAGE_SIZE));
  return std::min<std::size_t>(host / 4, std::size_t(8) << 30);
}

// The bar of one row: its entries >= the bar are kept (Loop is decided by the caller).
template <class V>
double row_bar(const V* v, eid_t n, eid_t kept, PruneCase c, const PruneSpec& s, std::vector<V>& sorted) {
  if (c == PruneCase::Threshold) return s.threshold;
  if (c == PruneCase::KeepAll) return -std::numeric_limits<double>::infinity();
  // The caller keeps the diagonal alone; no bar (the select path below would read sorted[select-1]
  // of a row that may be shorter, or empty).
  if (c == PruneCase::Loop) return std::numeric_limits<double>::infinity();
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

// The rows of `full` (rows first_row.. of the product) pruned and appended to `out`; their peak
// and sum of squares appended to peak and squares.
template <class V>
void prune_panel(const Csr<V>& full, vid_t first_row, const PruneSpec& spec, Csr<V>& out, std::vector<V>& peak,
                 std::vector<V>& squares) {
  const vid_t n = full.nrows;
  std::vector<double> bar(n);
  std::vector<PruneCase> cases(n);
  std::vector<eid_t> counts(std::size_t(n) + 1, 0);
  const std::size_t base = peak.size();
  peak.resize(base + n);
  squares.resize(base + n);
  const auto on_diagonal = [&](vid_t i, eid_t p) { return full.col[p] == first_row + i; };
#pragma omp parallel
  {
    std::vector<V> sorted;
#pragma omp for schedule(dynamic, 64)
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
      peak[base + i] = V(peak_i);
      squares[base + i] = V(squares_i);
      cases[i] = spgraph::detail::prune_case(len, kept, kept_mass, spec);
      bar[i] = row_bar(v, len, kept, cases[i], spec, sorted);
      eid_t count = 0;
      for (eid_t k = 0; k < len; ++k)
        count += cases[i] == PruneCase::Loop ? on_diagonal(i, p0 + k) : double(v[k]) >= bar[i];
      counts[std::size_t(i) + 1] = count;
    }
  }
  std::partial_sum(counts.begin(), counts.end(), counts.begin());
  const eid_t at = out.nnz();
  out.col.resize(std::size_t(at + counts[n]));
  out.val.resize(std::size_t(at + counts[n]));
  for (vid_t i = 0; i < n; ++i) out.rowptr.push_back(at + counts[std::size_t(i) + 1]);
  out.nrows += n;
#pragma omp parallel for schedule(dynamic, 64)
  for (vid_t i = 0; i < n; ++i) {
    eid_t to = at + counts[i];
    const bool loop = cases[i] == PruneCase::Loop;
    for (eid_t p = full.rowptr[i]; p < full.rowptr[i + 1]; ++p) {
      if (loop ? !on_diagonal(i, p) : double(full.val[p]) < bar[i]) continue;
      out.col[to] = full.col[p];
      out.val[to++] = loop ? V(1) : full.val[p];
    }
  }
}

}  // namespace

template <class V>
void mxm_prune_rows(Matrix<V>& C, Vector<V>& peak, Vector<V>& squares, const Matrix<V>& A, const Matrix<V>& B,
                    SemiringId sr, const PruneSpec& spec, std::size_t memory_budget) {
  internal::require(A.handle(), "mxm_prune_rows", "A");
  internal::require(B.handle(), "mxm_prune_rows", "B");
  const Csr<V> a = to_host(A);
  Vector<vid_t> b_degrees;
  row_degrees(b_degrees, B);
  const std::vector<vid_t> b_rows = to_host(b_degrees);
  if (std::size_t(a.ncols) != b_rows.size())
    throw Error("graphblas: mxm_prune_rows: A is " + std::to_string(a.nrows) + " x " + std::to_string(a.ncols) +
                " but B has " + std::to_string(b_rows.size()) + " rows");
  // Row panels whose intermediate products fit the budget (a row that alone exceeds it is a
  // panel of its own).
  const std::uint64_t room = (memory_budget ? memory_budget : default_budget()) / kBytesPerProduct;
  Csr<V> out;
  out.ncols = static_cast<vid_t>(internal::ncols(B.handle()));
  std::vector<V> peak_h, squares_h;
  vid_t first = 0;
  while (first < a.nrows) {
    vid_t last = first;
    std::uint64_t products = 0;
    while (last < a.nrows) {
      std::uint64_t row = 0;
      for (eid_t p = a.rowptr[last]; p < a.rowptr[last + 1]; ++p) row += std::uint64_t(b_rows[a.col[p]]);
      if (last > first && products + row > room) break;
      products += row;
      ++last;
    }
    std::vector<vid_t> rows(std::size_t(last - first));
    std::iota(rows.begin(), rows.end(), first);
    Matrix<V> panel, product;
    extract_rows(panel, A, rows);
    detail::mxm<V>(product, nullptr, panel, B, sr, Descriptor{});
    prune_panel(to_host(product), first, spec, out, peak_h, squares_h);
    first = last;
  }
  C = from_host(out);
  peak = from_host(peak_h);
  squares = from_host(squares_h);
}

#define SPGRAPH_INSTANTIATE(V)                                                                                  \
  template void mxm_prune_rows<V>(Matrix<V>&, Vector<V>&, Vector<V>&, const Matrix<V>&, const Matrix<V>&,      \
                                  SemiringId, const PruneSpec&, std::size_t);
SPGRAPH_INSTANTIATE(float)
SPGRAPH_INSTANTIATE(double)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::graphblas::detail
