// PageRank across the GPU ranks of an MPI job: the shared template (pagerank_impl.hpp)
// instantiated for the distributed backend on GPU ranks, whose fused passes run the GPU's
// map_reduce (gpu/fused/dense_map_reduce_impl.cuh, compiled here) on each rank's piece.
#include "spgraph/config.hpp"
#if SPGRAPH_HAVE_MPI
#include "gpu/fused/dense_map_reduce_impl.cuh"
#include "pagerank_impl.hpp"
#include "spgraph/dist/gpu_backend.hpp"

namespace spgraph::algorithms {

template <class V>
PageRankResult<V> pagerank(Graph<dist::GpuBackend>& graph, const PageRankOptions& options) {
  return pagerank_on_graph<dist::GpuBackend, V>(graph, options);
}

template PageRankResult<float> pagerank<float>(Graph<dist::GpuBackend>&, const PageRankOptions&);
template PageRankResult<double> pagerank<double>(Graph<dist::GpuBackend>&, const PageRankOptions&);

}  // namespace spgraph::algorithms
#endif
