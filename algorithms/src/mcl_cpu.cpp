// Markov clustering on SuiteSparse:GraphBLAS: the shared template (mcl_impl.hpp) instantiated
// for the graphblas backend.
#include "mcl_impl.hpp"
#include "spgraph/graphblas/backend.hpp"

namespace spgraph::algorithms {

MclResult mcl(Graph<graphblas::GraphBlasBackend>& graph, const MclOptions& options, const MclProgress& progress) {
  return mcl_on_graph(graph, options, progress);
}

}  // namespace spgraph::algorithms
