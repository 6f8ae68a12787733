// Markov clustering across the ranks of an MPI job: the shared template (mcl_impl.hpp)
// instantiated for the distributed backend on CPU ranks.
#include "spgraph/config.hpp"
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/cpu_backend.hpp"
#include "mcl_impl.hpp"

namespace spgraph::algorithms {

MclResult mcl(Graph<dist::CpuBackend>& graph, const MclOptions& options, const MclProgress& progress) {
  return mcl_on_graph(graph, options, progress);
}

}  // namespace spgraph::algorithms
#endif
