// Triangle counting on this project's GPU kernels: the shared template (triangle_count_impl.hpp)
// instantiated for the gpu backend.
#include "spgraph/gpu/backend.hpp"
#include "triangle_count_impl.hpp"

namespace spgraph::algorithms {

TriangleCountResult triangle_count(Graph<gpu::GpuBackend>& graph, const TriangleCountOptions& options) {
  return triangle_count_on_graph(graph, options);
}

}  // namespace spgraph::algorithms
