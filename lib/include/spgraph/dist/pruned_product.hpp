#pragma once
// MCL's expansion across the grid, HipMCL's way (dist::Backend::mxm_prune_rows): C = A B with each
// row pruned as PruneSpec says, formed in phases so that only one phase of the unpruned product
// exists at a time.
//
// A phase is a range of rows of each grid row's block of A (HipMCL's phases are ranges of B's
// columns: it prunes columns, this layout prunes rows). Phase k, on every rank:
//   - Sparse SUMMA (Backend::mxm) of A's rows of the phase, the other rows empty, by all of B,
//     so B's panels are broadcast again each phase, as HipMCL broadcasts A's;
//   - the whole rows of this rank's vector piece in the phase, gathered from its grid row
//     (piece_rows), pruned by the local backend (a pruned product by the identity, each row at its
//     global position so that mcl's diagonal rule sees the right column);
//   - only the kept entries, peaks and sums of squares outlive the phase.
// The kept entries then go to their owners (matrix_from_entries). A row's pruning reads that row's
// whole product alone, so phases change the memory, not a bit of the result.
//
// Sizing: row i of A B has at most b_i = min(f_i, ncols) entries, f_i the sum over A's entries
// a_ik of B's row length k (its multiplications). A grid row's block bounds its phase's product
// by the b_i of the phase's rows, each entry taking about kPhaseBytesPerEntry at the phase's peak,
// so the phases are the most over ranks of ceil(bytes of the block's bound / budget), at most the
// longest row block's rows; the budget is MxmOptions::memory_budget, or a quarter of the host's
// memory shared by the job's ranks on the host. Each grid row cuts its block where the running
// bound crosses k / phases of its total, so a grid row's phases are about equal.
//
// Included by dist/backend.hpp, whose public operations it calls (instantiated with Backend).
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/descriptor.hpp"
#include "spgraph/dist/containers.hpp"
#include "spgraph/dist/exchange.hpp"
#include "spgraph/dist/layout.hpp"
#include "spgraph/error.hpp"
#include "spgraph/operation_options.hpp"
#include "spgraph/semiring.hpp"
#include "spgraph/types.hpp"

namespace spgraph::dist {

template <class Local>
struct Backend;

// What this process's phased products have done since it was last reset, for benchmarks:
// Backend::mxm_prune_rows returns nothing beyond C, peak and squares, so bench_mcl reads the
// phases of MCL's expansions here (reset it, run, read it). Every pruned_product adds to it;
// not thread-safe, as a rank's collectives run on one thread.
struct PrunedProductTally {
  std::int64_t products = 0;          // pruned products formed
  std::int64_t phases = 0;            // their phases, summed
  std::int64_t most_phases = 0;       // of one product
  std::int64_t largest_estimate = 0;  // the largest bound on one unpruned product's entries
  std::int64_t replicated = 0;        // of the products, those formed on replicated operands
};
inline PrunedProductTally pruned_product_tally;

namespace detail {

// What pruned_product did (for tests and benchmarks).
struct PrunedProductStats {
  std::int64_t phases = 0;    // on every rank alike
  std::int64_t estimate = 0;  // the bound on the unpruned product's entries, sum of the b_i
  std::size_t budget = 0;     // this rank's bytes for one phase
};

// Bytes an entry of a phase's unpruned product takes at the phase's peak (in piece_rows): its
// SUMMA block and that block's host copy (column, value), its entry with global indices, the
// entry sent and the entry received (row, column, value each).
template <class V>
inline constexpr std::size_t kPhaseBytesPerEntry =
    2 * (sizeof(vid_t) + sizeof(V)) + 3 * (2 * sizeof(std::int64_t) + sizeof(V));

// A quarter of this host's memory, shared by the job's ranks on it (collective: the ranks tell
// one another their host names).
inline std::size_t default_phase_budget(Communicator& world) {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  const std::uint64_t host = std::hash<std::string_view>{}(name);
  std::vector<std::uint64_t> hosts(std::size_t(world.size()));
  world.allgather(&host, hosts.data(), 1);
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0)
    throw Error("dist::Backend::mxm_prune_rows: the host's memory is unknown; set MxmOptions::memory_budget");
  const auto ranks_here = std::uint64_t(std::count(hosts.begin(), hosts.end(), host));
  return std::size_t(std::uint64_t(pages) * std::uint64_t(page) / 4 / ranks_here);
}

// Rows [r0, r1) of a host CSR, the other rows empty (the same shape).
template <class V>
Csr<V> rows_only(const Csr<V>& h, std::int64_t r0, std::int64_t r1) {
  Csr<V> out;
  out.nrows = h.nrows;
  out.ncols = h.ncols;
  const eid_t first = h.rowptr[std::size_t(r0)], last = h.rowptr[std::size_t(r1)];
  out.rowptr.assign(std::size_t(h.nrows) + 1, 0);
  for (std::int64_t i = r0; i < std::int64_t(h.nrows); ++i)
    out.rowptr[std::size_t(i) + 1] = std::min(h.rowptr[std::size_t(i) + 1], last) - first;
  out.col.assign(h.col.begin() + first, h.col.begin() + last);
  if (!h.val.empty()) out.val.assign(h.val.begin() + first, h.val.begin() + last);
  return out;
}

// C, peak and squares as Backend::mxm_prune_rows (operations.hpp), in the phases above. A's
// columns must be B's rows. Collective.
template <class Local, class SR, class V>
PrunedProductStats pruned_product(Matrix<Local, V>& C, Vector<Local, V>& peak, Vector<Local, V>& squares,
                                  const Matrix<Local, V>& A, const Matrix<Local, V>& B, SR sr, const PruneSpec& spec,
                                  const MxmOptions& opt) {
  using D = Backend<Local>;
  const ProcessGrid& g = *A.grid();
  const std::int64_t n = A.nrows(), m = B.ncols();
  const Csr<V> a = Local::to_host(A.block());
  const std::size_t block_rows = std::size_t(a.nrows);

  // b_i for this rank's row block: B's row lengths at A's column block, summed over each row's
  // entries here, then over the grid row.
  Vector<Local, vid_t> b_lengths;
  D::row_degrees(b_lengths, B);
  const std::vector<vid_t> lengths = col_block_values(b_lengths);
  std::vector<std::int64_t> partial(block_rows, 0), bound(block_rows, 0);
  for (std::size_t i = 0; i < block_rows; ++i)
    for (eid_t k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) partial[i] += lengths[std::size_t(a.col[std::size_t(k)])];
  g.row_comm().allreduce(partial.data(), bound.data(), std::int64_t(block_rows), ReduceOp::Sum);
  std::vector<std::int64_t> prefix(block_rows + 1, 0);
  for (std::size_t i = 0; i < block_rows; ++i) prefix[i + 1] = prefix[i] + std::min(bound[i], m);
  const std::int64_t total = prefix.back();

  PrunedProductStats stats;
  g.col_comm().allreduce(&total, &stats.estimate, 1, ReduceOp::Sum);  // one rank of each grid row
  stats.budget = opt.memory_budget ? opt.memory_budget : default_phase_budget(g.world());
  const std::uint64_t need = std::uint64_t(total) * kPhaseBytesPerEntry<V>;
  const std::int64_t mine = std::int64_t(need / stats.budget + (need % stats.budget != 0));
  g.world().allreduce(&mine, &stats.phases, 1, ReduceOp::Max);
  std::int64_t longest = 1;  // a phase holds a row whole
  for (int i = 0; i < g.rows(); ++i) longest = std::max(longest, matrix_row_block(n, g.shape(), i).size());
  stats.phases = std::clamp<std::int64_t>(stats.phases, 1, longest);
  pruned_product_tally.products += 1;
  pruned_product_tally.phases += stats.phases;
  pruned_product_tally.most_phases = std::max(pruned_product_tally.most_phases, stats.phases);
  pruned_product_tally.largest_estimate = std::max(pruned_product_tally.largest_estimate, stats.estimate);
  std::vector<std::int64_t> cut(std::size_t(stats.phases) + 1, std::int64_t(block_rows));
  for (std::int64_t k = 0; k < stats.phases; ++k)
    cut[std::size_t(k)] = std::partition_point(prefix.begin(), prefix.end(), [&](std::int64_t p) {
                            return double(p) * double(stats.phases) < double(total) * double(k);
                          }) - prefix.begin();

  Csr<V> identity;
  identity.nrows = identity.ncols = vid_t(m);
  identity.rowptr.resize(std::size_t(m) + 1);
  std::iota(identity.rowptr.begin(), identity.rowptr.end(), eid_t(0));
  identity.col.resize(std::size_t(m));
  std::iota(identity.col.begin(), identity.col.end(), vid_t(0));
  const auto by_identity = Local::template pattern_from_host<V>(identity);

  const BlockRange piece = vector_piece(n, g.shape(), g.world().rank());
  const std::int64_t r0 = A.row_range().begin;
  std::vector<V> peak_h(std::size_t(piece.size())), squares_h(std::size_t(piece.size()));
  Entries<V> kept;
  for (std::size_t k = 0; k < std::size_t(stats.phases); ++k) {
    typename Local::template Matrix<V> pruned;
    typename Local::template Vector<V> peak_rows, squares_rows;
    {
      const Matrix<Local, V> phase_rows(g, n, A.ncols(), Local::from_host(rows_only(a, cut[k], cut[k + 1])));
      Matrix<Local, V> product;
      D::mxm(product, nullptr, phase_rows, B, sr, Descriptor{}, opt);
      const auto rows = Local::from_host(piece_rows(product));
      product = Matrix<Local, V>();  // the phase's unpruned product, gone before the pruning
      Local::mxm_prune_rows(pruned, peak_rows, squares_rows, rows, by_identity, PlusTimes{}, spec, opt);
    }
    const Csr<V> h = Local::to_host(pruned);
    const std::vector<V> peaks = Local::to_host(peak_rows), squares_of = Local::to_host(squares_rows);
    const std::int64_t first = std::max(piece.begin, r0 + cut[k]), last = std::min(piece.end, r0 + cut[k + 1]);
    for (std::int64_t i = first; i < last; ++i) {
      for (eid_t e = h.rowptr[std::size_t(i)]; e < h.rowptr[std::size_t(i) + 1]; ++e) {
        kept.push(i, h.col[std::size_t(e)]);
        kept.val.push_back(h.val[std::size_t(e)]);
      }
      peak_h[std::size_t(i - piece.begin)] = peaks[std::size_t(i)];
      squares_h[std::size_t(i - piece.begin)] = squares_of[std::size_t(i)];
    }
  }
  C = matrix_from_entries<Local, V>(g, n, m, kept);
  peak = Vector<Local, V>(g, n, Local::from_host(peak_h));
  squares = Vector<Local, V>(g, n, Local::from_host(squares_h));
  return stats;
}

}  // namespace detail
}  // namespace spgraph::dist
