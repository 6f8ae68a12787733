// The GPU element-wise operations over float (one file per type keeps each compile small).
#include "elementwise_impl.cuh"

namespace spgraph::gpu::detail {
SPGRAPH_INSTANTIATE_ELEMENTWISE(float)
}  // namespace spgraph::gpu::detail
