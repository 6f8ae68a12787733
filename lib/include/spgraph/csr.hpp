#pragma once
// Host compressed sparse row matrix. Column ids 32-bit, row offsets 64-bit.
// A pattern matrix (unweighted graph) stores no values: kernels then read 1 for every entry,
// which halves the bytes an SpMV moves.
#include <vector>

#include "spgraph/types.hpp"

namespace spgraph {

template <class V>
struct Csr {
  vid_t nrows = 0;
  vid_t ncols = 0;
  std::vector<eid_t> rowptr = {0};  // nrows + 1 entries
  std::vector<vid_t> col;
  std::vector<V> val;  // empty means pattern (every stored entry is 1)

  eid_t nnz() const { return rowptr.empty() ? 0 : rowptr.back(); }
  bool is_pattern() const { return val.empty(); }
  eid_t row_length(vid_t i) const { return rowptr[i + 1] - rowptr[i]; }
  // Throws spgraph::Error naming the first violation: offsets not monotone or not ending at
  // nnz, a column out of range, value count mismatch; with require_sorted, columns not
  // strictly increasing within a row (unsorted or duplicate).
  void validate(bool require_sorted = true) const;
};

}  // namespace spgraph
