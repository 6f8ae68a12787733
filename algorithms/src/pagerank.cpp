#include "spgraph/algorithms/pagerank.hpp"

namespace spgraph::algorithms {

template <class V>
PageRankResult<V> pagerank(Backend backend, const Csr<double>& graph, const PageRankOptions& options) {
  return backend == Backend::Gpu ? pagerank_gpu<V>(graph, options) : pagerank_cpu<V>(graph, options);
}

template PageRankResult<float> pagerank<float>(Backend, const Csr<double>&, const PageRankOptions&);
template PageRankResult<double> pagerank<double>(Backend, const Csr<double>&, const PageRankOptions&);

}  // namespace spgraph::algorithms
