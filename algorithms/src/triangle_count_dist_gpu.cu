// Triangle counting across the GPU ranks of an MPI job: the shared template
// (triangle_count_impl.hpp) instantiated for the distributed backend on GPU ranks.
#include "spgraph/config.hpp"
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/gpu_backend.hpp"
#include "triangle_count_impl.hpp"

namespace spgraph::algorithms {

TriangleCountResult triangle_count(Graph<dist::GpuBackend>& graph, const TriangleCountOptions& options) {
  return triangle_count_on_graph(graph, options);
}

}  // namespace spgraph::algorithms
#endif
