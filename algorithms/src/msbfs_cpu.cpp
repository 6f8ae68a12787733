// Multi-source BFS on SuiteSparse:GraphBLAS: the shared template (msbfs_impl.hpp) instantiated
// for the graphblas backend.
#include "spgraph/graphblas/backend.hpp"
#include "msbfs_impl.hpp"

namespace spgraph::algorithms {

MsbfsSummary msbfs(Graph<graphblas::GraphBlasBackend>& graph, const std::vector<vid_t>& sources,
                   const MsbfsSink& sink, const MsbfsOptions& options) {
  return msbfs_on_graph(graph, sources, sink, options);
}

}  // namespace spgraph::algorithms
