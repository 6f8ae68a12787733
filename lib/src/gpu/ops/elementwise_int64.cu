// The GPU element-wise operations over int64 (one file per type keeps each compile small).
#include "elementwise_impl.cuh"

namespace spgraph::gpu::detail {
SPGRAPH_INSTANTIATE_ELEMENTWISE(std::int64_t)
}  // namespace spgraph::gpu::detail
