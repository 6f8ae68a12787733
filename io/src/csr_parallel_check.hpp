#pragma once
// Csr::validate's checks (offsets from 0 to nnz and never decreasing, columns in range and
// strictly increasing within each row) spread over threads. It only answers yes or no: on a
// no the caller runs Csr::validate, whose message names the first violation.
#include "spgraph/csr.hpp"

namespace spgraph::io::detail {

// Requires rowptr.size() == nrows + 1 and val empty or the size of col.
bool csr_structure_valid(const Csr<double>& a, int threads);

}  // namespace spgraph::io::detail
