#pragma once
// Keeping a subset of a matrix's entries (select, assign's mask pattern): the kept entries
// are numbered by a CUB scan of 0/1 flags and scattered in order, so rows stay sorted.
#include "spgraph/device/memory.hpp"
#include "spgraph/gpu/matrix.hpp"

namespace spgraph::gpu::detail {

// keep has A.nnz() + 1 slots, keep[p] = 1 for the entries of A to keep and 0 for the others
// (the last slot is scratch); it is overwritten. Returns those entries, A's shape; with
// with_values false, or for a pattern A, the result is a pattern.
template <class V>
device::DeviceCsr<V> compact(const Matrix<V>& A, device::Buffer<eid_t>& keep, bool with_values = true);

}  // namespace spgraph::gpu::detail
