#pragma once
// Which reader a graph file takes (load_graph.hpp's dispatch), for the readers beside load_graph.
#include <string>

#include "spgraph/io/load_graph.hpp"

namespace spgraph::io::detail {

// The extension that stands for the reader, in lower case: the file's own (looking through a
// trailing ".gz"), or the one `format` names (".mtx", ".spgcsr", ".abc"; "" for an edge list).
std::string reader_extension(const std::string& path, GraphFormat format);

}  // namespace spgraph::io::detail
