#pragma once
// Device transpose (CSR of A' from CSR of A), used by vxm, by mxm's transpose descriptors
// and by PageRank's pull formulation. Columns of the result come out sorted.
//
// A stable CUB radix sort of the entries by column (lib/src/gpu/common/transpose.cu); about
// 30 bytes of temporary device memory per entry. Everything runs on `stream`, which the
// caller orders after the work that produced a; the result's buffers belong to `stream`.
// Instantiated for float, double, int32_t, int64_t and bool.
#include "spgraph/gpu/matrix.hpp"

namespace spgraph::gpu {

template <class V>
Matrix<V> transpose(const Matrix<V>& a, cudaStream_t stream = 0);

}  // namespace spgraph::gpu
