#pragma once
// Per-vertex results as text: one "name<TAB>value" line per vertex, in vertex order, vertices
// named as the input names them (LoadedGraph::vertex_name). Formatted on every core, since a
// web graph's ranks are hundreds of MB of text (9.8M vertices: 300 MB).
#include <vector>

#include "spgraph/io/atomic_file.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::io {

// How the text reaches the file, the same bytes either way. stdio and write: the calling
// thread writes each round (fwrite, or write(2) straight from the strings) while the others
// format the next; mapped: every thread copies formatted blocks into a shared mapping of the
// file (AtomicFile::append_mapped), or writes where the file system cannot map.
enum class OutputMethod { stdio, write, mapped };

// Integers in decimal, floating point as the shortest text that reads back exactly. Writes into
// `out` and leaves committing it to the caller. Instantiated for float, double and int64.
template <class T>
void write_vertex_values(AtomicFile& out, const LoadedGraph& graph, const std::vector<T>& values,
                         OutputMethod method = OutputMethod::mapped);

}  // namespace spgraph::io
