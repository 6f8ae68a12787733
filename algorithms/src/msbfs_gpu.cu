// Multi-source BFS on this project's GPU kernels: the shared template (msbfs_impl.hpp)
// instantiated for the gpu backend.
#include "spgraph/gpu/backend.hpp"
#include "msbfs_impl.hpp"

namespace spgraph::algorithms {

MsbfsSummary msbfs(Graph<gpu::GpuBackend>& graph, const std::vector<vid_t>& sources, const MsbfsSink& sink,
                   const MsbfsOptions& options) {
  return msbfs_on_graph(graph, sources, sink, options);
}

}  // namespace spgraph::algorithms
