#pragma once
// Per-vertex results as text: one "name<TAB>value" line per vertex, in vertex order, vertices
// named as the input names them (LoadedGraph::vertex_name). Formatted on every core while the
// calling thread writes, since a web graph's ranks are hundreds of MB of text (9.8M vertices:
// 300 MB).
#include <vector>

#include "spgraph/io/atomic_file.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::io {

// Integers in decimal, floating point as the shortest text that reads back exactly. Writes into
// `out` and leaves committing it to the caller. Instantiated for float, double and int64.
template <class T>
void write_vertex_values(AtomicFile& out, const LoadedGraph& graph, const std::vector<T>& values);

}  // namespace spgraph::io
