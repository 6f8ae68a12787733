// The GPU element-wise operations over double (one file per type keeps each compile small).
#include "elementwise_impl.cuh"

namespace spgraph::gpu::detail {
SPGRAPH_INSTANTIATE_ELEMENTWISE(double)
}  // namespace spgraph::gpu::detail
