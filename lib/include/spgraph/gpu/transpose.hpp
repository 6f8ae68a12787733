#pragma once
// Device transpose (CSR of A' from CSR of A), used by vxm, by mxm's transpose descriptors
// and by PageRank's pull formulation. Columns of the result come out sorted.
#include "spgraph/gpu/matrix.hpp"

namespace spgraph::gpu {

template <class V>
Matrix<V> transpose(const Matrix<V>& a, cudaStream_t stream = 0);

}  // namespace spgraph::gpu
