// The GPU element-wise operations over bool (one file per type keeps each compile small).
#include "elementwise_impl.cuh"

namespace spgraph::gpu::detail {
SPGRAPH_INSTANTIATE_ELEMENTWISE(bool)
}  // namespace spgraph::gpu::detail
