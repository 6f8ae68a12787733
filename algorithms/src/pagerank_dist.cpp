// PageRank across the ranks of an MPI job: the shared template (pagerank_impl.hpp) instantiated
// for the distributed backend on CPU ranks.
#include "spgraph/config.hpp"
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/cpu_backend.hpp"
#include "pagerank_impl.hpp"

namespace spgraph::algorithms {

template <class V>
PageRankResult<V> pagerank(Graph<dist::CpuBackend>& graph, const PageRankOptions& options) {
  return pagerank_on_graph<dist::CpuBackend, V>(graph, options);
}

template PageRankResult<float> pagerank<float>(Graph<dist::CpuBackend>&, const PageRankOptions&);
template PageRankResult<double> pagerank<double>(Graph<dist::CpuBackend>&, const PageRankOptions&);

}  // namespace spgraph::algorithms
#endif
