// Multi-source BFS across the GPU ranks of an MPI job: the shared template (msbfs_impl.hpp)
// instantiated for the distributed backend on GPU ranks.
#include "spgraph/config.hpp"
#if SPGRAPH_HAVE_MPI
#include "msbfs_impl.hpp"
#include "spgraph/dist/gpu_backend.hpp"

namespace spgraph::algorithms {

MsbfsSummary msbfs(Graph<dist::GpuBackend>& graph, const std::vector<vid_t>& sources, const MsbfsSink& sink,
                   const MsbfsOptions& options) {
  return msbfs_on_graph(graph, sources, sink, options);
}

}  // namespace spgraph::algorithms
#endif
