// The GPU element-wise operations over int32 (one file per type keeps each compile small).
#include "elementwise_impl.cuh"

namespace spgraph::gpu::detail {
SPGRAPH_INSTANTIATE_ELEMENTWISE(std::int32_t)
}  // namespace spgraph::gpu::detail
