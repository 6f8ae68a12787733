#include "spgraph/algorithms/pagerank.hpp"

#include "on_backend.hpp"

namespace spgraph::algorithms {

template <class V>
PageRankResult<V> pagerank(Backend backend, const Csr<double>& graph, const PageRankOptions& options) {
  return on_backend(backend, graph, [&](auto& g) { return pagerank<V>(g, options); });
}

template PageRankResult<float> pagerank<float>(Backend, const Csr<double>&, const PageRankOptions&);
template PageRankResult<double> pagerank<double>(Backend, const Csr<double>&, const PageRankOptions&);

}  // namespace spgraph::algorithms
