#include "csr_parallel_check.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "generator_parallel.hpp"
#include "spgraph/error.hpp"

namespace spgraph::io::detail {
namespace {

// Elements per task: large enough that scheduling costs nothing, small enough that a block's
// columns (256 KiB) are still in the core's cache when the second loop over them runs.
constexpr std::int64_t kCheckBlock = std::int64_t{1} << 16;

std::int64_t blocks_of(std::int64_t elements) { return (elements + kCheckBlock - 1) / kCheckBlock; }

// The loops below have no branches, so they vectorise; the 64-bit compares need AVX2 (SSE2,
// the build's baseline, has none), hence a clone for it picked at load time.
#define SPGRAPH_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))

// How many i in [first, last) have rowptr[i] > rowptr[i + 1].
SPGRAPH_VECTOR_CLONES std::int64_t offset_decreases(const eid_t* rowptr, std::int64_t first, std::int64_t last) {
  std::int64_t n = 0;
  for (std::int64_t i = first; i < last; ++i) n += rowptr[i] > rowptr[i + 1];
  return n;
}

struct ColumnCounts {
  std::uint32_t out_of_range = 0;
  std::uint32_t descents = 0;  // q with col[q] <= col[q - 1]
};

// Over entries [first, last), first >= 1, at most 2^32 of them.
SPGRAPH_VECTOR_CLONES ColumnCounts column_counts(const vid_t* col, eid_t first, eid_t last, vid_t ncols) {
  ColumnCounts c;
  for (eid_t q = first; q < last; ++q) {
    c.out_of_range += static_cast<std::uint32_t>(col[q]) >= static_cast<std::uint32_t>(ncols);
    c.descents += col[q] <= col[q - 1];
  }
  return c;
}

// How many non-empty rows in [first_row, last_row) have their first entry q at or below the
// entry before it (col[q] <= col[q - 1]). The rows' first entries must lie in [1, nnz).
SPGRAPH_VECTOR_CLONES std::uint32_t row_start_descents(const eid_t* rowptr, const vid_t* col, std::int64_t first_row,
                                                       std::int64_t last_row) {
  std::uint32_t n = 0;
  for (std::int64_t row = first_row; row < last_row; ++row) {
    const eid_t q = rowptr[row];
    n += (q < rowptr[row + 1]) & (col[q] <= col[q - 1]);
  }
  return n;
}

// The checks behind Csr::validate's size checks, which `a` must have passed.
bool structure_valid(const Csr<double>& a, int threads) {
  const eid_t* rowptr = a.rowptr.data();
  const vid_t* col = a.col.data();
  const std::int64_t nrows = a.nrows;
  const auto nnz = static_cast<eid_t>(a.col.size());
  const vid_t ncols = a.ncols;
  if (rowptr[0] != 0 || rowptr[nrows] != nnz) return false;
  if (nnz > 0 && static_cast<std::uint32_t>(col[0]) >= static_cast<std::uint32_t>(ncols)) return false;
  std::atomic<bool> valid{true};
  // Offsets first: the column pass below trusts them to stay inside [0, nnz].
  parallel_blocks(blocks_of(nrows), threads, [&](std::int64_t b, int) {
    if (offset_decreases(rowptr, b * kCheckBlock, std::min(nrows, (b + 1) * kCheckBlock)) != 0) valid = false;
  });
  if (!valid) return false;
  // Entries [first, last) of each block: all columns in range, and every descent
  // (col[q] <= col[q - 1]) at the first entry of a row, which is checked by counting the
  // descents, then the descents at row starts; the rows starting in the block are found by
  // binary search.
  parallel_blocks(blocks_of(nnz), threads, [&](std::int64_t b, int) {
    const eid_t first = std::max<eid_t>(1, b * kCheckBlock), last = std::min<eid_t>(nnz, (b + 1) * kCheckBlock);
    const ColumnCounts c = column_counts(col, first, last, ncols);
    const std::int64_t first_row = std::lower_bound(rowptr, rowptr + nrows, first) - rowptr;
    const std::int64_t last_row = std::lower_bound(rowptr + first_row, rowptr + nrows, last) - rowptr;
    if (c.out_of_range != 0 || c.descents != row_start_descents(rowptr, col, first_row, last_row)) valid = false;
  });
  return valid;
}

}  // namespace

void validate_csr(const Csr<double>& a, int threads) {
  const bool sizes_valid = a.nrows >= 0 && a.ncols >= 0 && a.rowptr.size() == static_cast<std::size_t>(a.nrows) + 1 &&
                           (a.val.empty() || a.val.size() == a.col.size());
  if (sizes_valid && structure_valid(a, threads)) return;
  a.validate(/*require_sorted=*/true);
  throw Error("Csr::validate: invalid structure");  // only if the two checks disagreed
}

}  // namespace spgraph::io::detail
