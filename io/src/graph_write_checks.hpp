#pragma once
// Refusals shared by the text writers (edge lists, .abc; save_graph for Matrix Market), made
// before the output file is created, so that none leaves a file its reader would refuse.
#include <cmath>
#include <string>

#include "spgraph/csr.hpp"
#include "spgraph/error.hpp"

namespace spgraph::io::detail {

// `format` names the output: "an edge list".
inline void require_square(const std::string& path, const Csr<double>& a, const char* format) {
  if (a.nrows != a.ncols)
    throw Error("cannot write " + path + ": the matrix is " + std::to_string(a.nrows) + " x " +
                std::to_string(a.ncols) + " and " + format + " holds a square adjacency matrix");
}

// Every text reader refuses NaN and infinite weights; name(v) is what the file calls vertex v.
template <class Name>
void require_finite_weights(const std::string& path, const Csr<double>& a, Name name) {
  if (a.is_pattern()) return;
  for (vid_t i = 0; i < a.nrows; ++i)
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (!std::isfinite(a.val[p]))
        throw Error("cannot write " + path + ": the weight of " + name(i) + " -> " + name(a.col[p]) +
                    " is not a finite number, which the readers refuse");
}

}  // namespace spgraph::io::detail
