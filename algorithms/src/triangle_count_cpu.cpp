// Triangle counting on SuiteSparse:GraphBLAS: the shared template (triangle_count_impl.hpp)
// instantiated for the graphblas backend.
#include "spgraph/graphblas/backend.hpp"
#include "triangle_count_impl.hpp"

namespace spgraph::algorithms {

TriangleCountResult triangle_count(Graph<graphblas::GraphBlasBackend>& graph, const TriangleCountOptions& options) {
  return triangle_count_on_graph(graph, options);
}

}  // namespace spgraph::algorithms
