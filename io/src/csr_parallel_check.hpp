#pragma once
// Csr::validate(require_sorted = true) spread over threads: offsets from 0 to nnz and never
// decreasing, columns in range and strictly increasing within each row. The parallel pass only
// finds out whether something is wrong; Csr::validate then runs to name the first violation.
#include "spgraph/csr.hpp"

namespace spgraph::io::detail {

// Throws Csr::validate's spgraph::Error when `a` is not a valid CSR with sorted rows.
void validate_csr(const Csr<double>& a, int threads);

}  // namespace spgraph::io::detail
