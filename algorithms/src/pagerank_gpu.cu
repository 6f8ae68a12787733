// PageRank on this project's GPU kernels: the shared template (pagerank_impl.hpp) instantiated
// for the gpu backend, with its product-and-pass iterations (gpu/mxv_reduce_impl.cuh, and all of
// them in one kernel, gpu/mxv_loop_impl.cuh) compiled here.
#include "spgraph/gpu/backend.hpp"
#include "gpu/fused/mxv_loop_impl.cuh"
#include "gpu/fused/mxv_reduce_impl.cuh"
#include "pagerank_impl.hpp"

namespace spgraph::algorithms {

template <class V>
PageRankResult<V> pagerank(Graph<gpu::GpuBackend>& graph, const PageRankOptions& options) {
  return pagerank_on_graph<gpu::GpuBackend, V>(graph, options);
}

template PageRankResult<float> pagerank<float>(Graph<gpu::GpuBackend>&, const PageRankOptions&);
template PageRankResult<double> pagerank<double>(Graph<gpu::GpuBackend>&, const PageRankOptions&);

}  // namespace spgraph::algorithms
