#pragma once
// inflate_rows (operations.hpp, InflateSpec) on the GPU: MCL's inflation in one kernel, a warp
// a row, where the contract's steps take five passes and three copies of the pattern. In place
// where C is A. lib/src/gpu/ops/inflate_rows.cu, for float and double.
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/operation_options.hpp"

namespace spgraph::gpu {

template <class V>
void inflate_rows(Matrix<V>& C, const Matrix<V>& A, const InflateSpec& spec);

}  // namespace spgraph::gpu
