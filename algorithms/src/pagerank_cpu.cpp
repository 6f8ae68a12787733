// PageRank on SuiteSparse:GraphBLAS: the shared template (pagerank_impl.hpp) instantiated for
// the graphblas backend.
#include "spgraph/graphblas/backend.hpp"
#include "pagerank_impl.hpp"

namespace spgraph::algorithms {

template <class V>
PageRankResult<V> pagerank(Graph<graphblas::GraphBlasBackend>& graph, const PageRankOptions& options) {
  return pagerank_on_graph<graphblas::GraphBlasBackend, V>(graph, options);
}

template PageRankResult<float> pagerank<float>(Graph<graphblas::GraphBlasBackend>&, const PageRankOptions&);
template PageRankResult<double> pagerank<double>(Graph<graphblas::GraphBlasBackend>&, const PageRankOptions&);

}  // namespace spgraph::algorithms
