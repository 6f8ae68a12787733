// Multi-source BFS across the ranks of an MPI job: the shared template (msbfs_impl.hpp)
// instantiated for the distributed backend on CPU ranks.
#include "spgraph/config.hpp"
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/cpu_backend.hpp"
#include "msbfs_impl.hpp"

namespace spgraph::algorithms {

MsbfsSummary msbfs(Graph<dist::CpuBackend>& graph, const std::vector<vid_t>& sources, const MsbfsSink& sink,
                   const MsbfsOptions& options) {
  return msbfs_on_graph(graph, sources, sink, options);
}

}  // namespace spgraph::algorithms
#endif
