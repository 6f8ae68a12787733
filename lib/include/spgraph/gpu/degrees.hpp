#pragma once
// Row degrees of a GPU matrix: the entries stored in each row (a graph's out-degrees).
#include "spgraph/gpu/matrix.hpp"

namespace spgraph::gpu {

// d(i) = entries of row i, for every row of A (one kernel over the row offsets).
template <class V>
void row_degrees(Vector<vid_t>& d, const Matrix<V>& A);

}  // namespace spgraph::gpu
