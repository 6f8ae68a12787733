#pragma once
// select on the GPU: C<mask> = the entries of A that a SelectSpec keeps (operations.hpp), by
// value, by position, or the k largest per row or column. Compiled once per value type
// (lib/src/gpu/ops/select_<type>.cu); the mask is applied as in gpu/elementwise.hpp.
#include "spgraph/descriptor.hpp"
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/operation_options.hpp"

namespace spgraph::gpu {

// desc.transpose_a selects from A'; transpose_b throws (one input). Throws Error for k < 0
// (TopKPerRow, TopKPerCol). A pattern A (no values) gives a pattern result.
template <class V>
void select(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const SelectSpec& spec,
            const Descriptor& desc = {});

}  // namespace spgraph::gpu
