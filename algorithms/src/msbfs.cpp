#include "spgraph/algorithms/msbfs.hpp"

#include "on_backend.hpp"

namespace spgraph::algorithms {

MsbfsSummary msbfs(Backend backend, const Csr<double>& graph, const std::vector<vid_t>& sources,
                   const MsbfsSink& sink, const MsbfsOptions& options) {
  return on_backend(backend, graph, [&](auto& g) { return msbfs(g, sources, sink, options); });
}

}  // namespace spgraph::algorithms
