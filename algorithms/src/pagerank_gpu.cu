// PageRank on this project's GPU kernels: the shared template (pagerank_impl.hpp) instantiated
// for the gpu backend, and for the distributed backend on GPU ranks, with the product-and-pass
// iterations (gpu/mxv_reduce_impl.cuh, and all of them in one kernel, gpu/mxv_loop_impl.cuh)
// compiled here once for both: on a grid of one rank the distributed backend runs the gpu
// backend's own loops on the same types, and across ranks each rank's fused passes run the GPU's
// map_reduce (gpu/fused/dense_map_reduce_impl.cuh) on its piece.
#include "spgraph/config.hpp"
#include "spgraph/gpu/backend.hpp"
#include "gpu/fused/dense_map_reduce_impl.cuh"
#include "gpu/fused/mxv_loop_impl.cuh"
#include "gpu/fused/mxv_reduce_impl.cuh"
#include "pagerank_impl.hpp"
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/gpu_backend.hpp"
#endif

namespace spgraph::algorithms {

template <class V>
PageRankResult<V> pagerank(Graph<gpu::GpuBackend>& graph, const PageRankOptions& options) {
  return pagerank_on_graph<gpu::GpuBackend, V>(graph, options);
}

template PageRankResult<float> pagerank<float>(Graph<gpu::GpuBackend>&, const PageRankOptions&);
template PageRankResult<double> pagerank<double>(Graph<gpu::GpuBackend>&, const PageRankOptions&);

#if SPGRAPH_HAVE_MPI
template <class V>
PageRankResult<V> pagerank(Graph<dist::GpuBackend>& graph, const PageRankOptions& options) {
  return pagerank_on_graph<dist::GpuBackend, V>(graph, options);
}

template PageRankResult<float> pagerank<float>(Graph<dist::GpuBackend>&, const PageRankOptions&);
template PageRankResult<double> pagerank<double>(Graph<dist::GpuBackend>&, const PageRankOptions&);
#endif

}  // namespace spgraph::algorithms
