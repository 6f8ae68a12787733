// Markov clustering on this project's GPU kernels: the shared template (mcl_impl.hpp)
// instantiated for the gpu backend.
#include "mcl_impl.hpp"
#include "spgraph/gpu/backend.hpp"

namespace spgraph::algorithms {

MclResult mcl(Graph<gpu::GpuBackend>& graph, const MclOptions& options, const MclProgress& progress) {
  return mcl_on_graph(graph, options, progress);
}

}  // namespace spgraph::algorithms
