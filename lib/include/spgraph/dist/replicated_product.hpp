#pragma once
// Products whose operands fit every rank, as H-INDEX and TRUST start triangle counting: no
// SUMMA, no panels, each rank computing its share of the rows on whole operands with the local
// backend.
//
// dist::Backend::mxm_reduce_rows (triangle counting): every rank gathers M, A and B whole, sums
// the rows of (A B) .* M in its range of rows (the ranges hold about equal shares of the
// estimated work), and the sums are all-gathered. One all-gather of the operands replaces SUMMA's
// panels, and no rank waits on another until the sums.
//
// dist::Backend::mxm_prune_rows (MCL's expansion): every rank gathers B whole and its vector
// piece's rows of A, and the local backend's own pruned product (the lean CPU expansion, the
// GPU's tiles) prunes each row as it is produced: no unpruned product is formed in phases, nor
// moved. The kept entries go to their blocks; the peaks and squares are the piece's already.
//
// A row's work: without transpose_b, its multiplications (the sum over A's entries a_ik of B's
// row k's length); with transpose_b (dot products), the sum over M's entries (i, j) of
// |A_i| + |B_j|, the lengths merged.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/descriptor.hpp"
#include "spgraph/dist/containers.hpp"
#include "spgraph/dist/exchange.hpp"
#include "spgraph/dist/pruned_product.hpp"
#include "spgraph/sum_type.hpp"

namespace spgraph::dist::detail {

// The bytes a rank holds to replicate these operands (each once, however often it is passed):
// the gathered host CSR and the local backend's copy of it.
template <class V, class... Ms>
std::size_t replicated_bytes(const Ms&... operands) {
  const void* seen[sizeof...(Ms)] = {};
  std::size_t k = 0, bytes = 0;
  auto add = [&](const auto& m) {
    if (std::find(seen, seen + k, &m) != seen + k) return;
    seen[k++] = &m;
    bytes += 2 * (std::size_t(m.nnz()) * (sizeof(vid_t) + sizeof(V)) + std::size_t(m.nrows() + 1) * sizeof(eid_t));
  };
  (add(operands), ...);
  return bytes;
}

// The first row of each rank's range: P + 1 cuts of [0, rows) into runs of about equal work.
inline std::vector<std::int64_t> equal_work_cuts(const std::vector<std::int64_t>& work, int ranks) {
  std::vector<std::int64_t> prefix(work.size() + 1, 0);
  for (std::size_t i = 0; i < work.size(); ++i) prefix[i + 1] = prefix[i] + work[i] + 1;  // + 1: every row costs
  std::vector<std::int64_t> cuts(std::size_t(ranks) + 1, std::int64_t(work.size()));
  cuts[0] = 0;
  for (int r = 1; r < ranks; ++r) {
    const std::int64_t goal = prefix.back() * r / ranks;
    cuts[std::size_t(r)] = std::int64_t(std::lower_bound(prefix.begin(), prefix.end(), goal) - prefix.begin());
    cuts[std::size_t(r)] = std::clamp(cuts[std::size_t(r)], cuts[std::size_t(r) - 1], std::int64_t(work.size()));
  }
  return cuts;
}

template <class V>
std::vector<std::int64_t> row_work(const Csr<V>& m, const Csr<V>& a, const Csr<V>& b, bool transpose_b) {
  std::vector<std::int64_t> work(std::size_t(a.nrows), 0);
  for (vid_t i = 0; i < a.nrows; ++i) {
    std::int64_t w = 0;
    if (transpose_b) {
      for (eid_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p) w += a.row_length(i) + b.row_length(m.col[p]);
    } else {
      for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) w += b.row_length(a.col[p]);
    }
    work[std::size_t(i)] = w;
  }
  return work;
}

// y = the row sums of (A B) .* M (transpose_b: A B'), every rank computing its range of rows on
// the whole operands. Collective over the grid.
template <class Local, class SR, class V>
Vector<Local, sum_type_t<V>> replicated_reduce_rows(const ProcessGrid& g, const Matrix<Local, V>& mask,
                                                    const Matrix<Local, V>& A, const Matrix<Local, V>& B, SR sr,
                                                    const Descriptor& desc) {
  using T = sum_type_t<V>;
  // An operand passed twice is gathered (and held) once.
  const Csr<V> a = Backend<Local>::to_host(A);
  std::optional<Csr<V>> b_own, m_own;
  const Csr<V>& b = &B == &A ? a : b_own.emplace(Backend<Local>::to_host(B));
  const Csr<V>& m = &mask == &A ? a : &mask == &B ? b : m_own.emplace(Backend<Local>::to_host(mask));
  const int ranks = g.world().size(), me = g.world().rank();
  const std::vector<std::int64_t> cuts = equal_work_cuts(row_work(m, a, b, desc.transpose_b), ranks);
  const std::int64_t r0 = cuts[std::size_t(me)], r1 = cuts[std::size_t(me) + 1];
  std::vector<T> mine;
  if (r1 > r0 && a.ncols > 0 && m.ncols > 0) {
    typename Local::template Vector<T> sums;
    Local::mxm_reduce_rows(sums, Local::from_host(host_block(m, r0, r1, 0, m.ncols)),
                           Local::from_host(host_block(a, r0, r1, 0, a.ncols)), Local::from_host(b), sr, desc);
    mine = Local::to_host(sums);
  } else {
    mine.assign(std::size_t(r1 - r0), T(0));
  }
  std::vector<std::int64_t> counts(std::size_t(ranks), 0);
  for (int r = 0; r < ranks; ++r) counts[std::size_t(r)] = cuts[std::size_t(r) + 1] - cuts[std::size_t(r)];
  std::vector<T> all(std::size_t(A.nrows()));
  g.world().allgatherv(mine.data(), all.data(), counts, offsets_of(counts));
  const BlockRange piece = vector_piece(A.nrows(), g.shape(), me);
  return Vector<Local, T>(g, A.nrows(),
                          Local::from_host(std::vector<T>(all.begin() + piece.begin, all.begin() + piece.end)));
}

// C, peak and squares as Backend::mxm_prune_rows (operations.hpp), each rank pruning its vector
// piece's rows of A times the whole of B with the local backend: the rows one process computes,
// term for term. Collective over the grid.
template <class Local, class SR, class V>
void replicated_pruned_product(Matrix<Local, V>& C, Vector<Local, V>& peak, Vector<Local, V>& squares,
                               const Matrix<Local, V>& A, const Matrix<Local, V>& B, SR sr, const PruneSpec& spec,
                               const MxmOptions& opt) {
  const ProcessGrid& g = *A.grid();
  const std::int64_t n = A.nrows(), m = B.ncols();
  const BlockRange piece = vector_piece(n, g.shape(), g.world().rank());
  const Csr<V> b = Backend<Local>::to_host(B);
  // The piece's rows at their global positions, the other rows empty, so that mcl's diagonal rule
  // sees the right column. MCL's A is B: its rows are then cut from the gathered copy.
  const Csr<V> rows = &A == &B ? rows_only(b, piece.begin, piece.end) : piece_rows(A);
  typename Local::template Matrix<V> pruned;
  typename Local::template Vector<V> peak_rows, squares_rows;
  Local::mxm_prune_rows(pruned, peak_rows, squares_rows, Local::from_host(rows), Local::from_host(b), sr, spec, opt);
  const Csr<V> h = Local::to_host(pruned);
  Entries<V> kept;
  for (std::int64_t i = piece.begin; i < piece.end; ++i)
    for (eid_t e = h.rowptr[std::size_t(i)]; e < h.rowptr[std::size_t(i) + 1]; ++e) {
      kept.push(i, h.col[std::size_t(e)]);
      kept.val.push_back(h.val[std::size_t(e)]);
    }
  C = matrix_from_entries<Local, V>(g, n, m, kept);
  const auto of_piece = [&](const typename Local::template Vector<V>& all) {
    const std::vector<V> h_all = Local::to_host(all);
    return Vector<Local, V>(g, n,
                            Local::from_host(std::vector<V>(h_all.begin() + piece.begin, h_all.begin() + piece.end)));
  };
  peak = of_piece(peak_rows);
  squares = of_piece(squares_rows);
  pruned_product_tally.products += 1;
  pruned_product_tally.replicated += 1;
}

}  // namespace spgraph::dist::detail
