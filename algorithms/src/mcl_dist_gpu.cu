// Markov clustering across the GPU ranks of an MPI job: the shared template (mcl_impl.hpp)
// instantiated for the distributed backend on GPU ranks.
#include "spgraph/config.hpp"
#if SPGRAPH_HAVE_MPI
#include "mcl_impl.hpp"
#include "spgraph/dist/gpu_backend.hpp"

namespace spgraph::algorithms {

MclResult mcl(Graph<dist::GpuBackend>& graph, const MclOptions& options, const MclProgress& progress) {
  return mcl_on_graph(graph, options, progress);
}

}  // namespace spgraph::algorithms
#endif
