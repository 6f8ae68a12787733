#include "spgraph/algorithms/msbfs.hpp"

namespace spgraph::algorithms {

MsbfsSummary msbfs(Backend backend, const Csr<double>& graph, const std::vector<vid_t>& sources,
                   const MsbfsSink& sink, const MsbfsOptions& options) {
  if (backend == Backend::Gpu) {
    Graph<gpu::GpuBackend> g(graph);
    return msbfs(g, sources, sink, options);
  }
  Graph<graphblas::GraphBlasBackend> g(graph);
  return msbfs(g, sources, sink, options);
}

}  // namespace spgraph::algorithms
