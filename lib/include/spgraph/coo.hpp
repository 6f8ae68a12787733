#pragma once
// Host coordinate (triplet) matrix: what readers produce before sorting into CSR.
#include <vector>

#include "spgraph/types.hpp"

namespace spgraph {

template <class V>
struct Coo {
  vid_t nrows = 0;
  vid_t ncols = 0;
  std::vector<vid_t> row;
  std::vector<vid_t> col;
  std::vector<V> val;  // empty means a pattern matrix: every stored entry is 1

  eid_t nnz() const { return static_cast<eid_t>(row.size()); }
  bool is_pattern() const { return val.empty() && !row.empty(); }
  // Throws spgraph::Error naming the first bad entry (index out of range, size mismatch).
  void validate() const;
};

}  // namespace spgraph
