#pragma once
// The graph input every app takes: a positional path in any format io::load_graph reads, and
// the flags that shape how it is read.
#include <CLI/CLI.hpp>

#include <string>

#include "spgraph/io/load_graph.hpp"

namespace spgraph::apps {

struct InputOptions {
  std::string path;
  io::LoadOptions load;
};

// Adds the positional GRAPH (required), --duplicates error|sum|max|first, --compact-ids and
// --trust-vertex-count.
void add_input_options(CLI::App& cli, InputOptions& input);

// Loads input.path, timed (seconds), with a progress line on stderr after a second when that
// is a terminal (erased when the load ends); throws Error naming the file when its matrix is not
// square ("<file>: the matrix is m x n; <who> needs a square adjacency matrix").
io::LoadedGraph load_square_graph(const InputOptions& input, const std::string& who, double& seconds);

// "34 vertices, 156 edges (matrix-market)": what was read, for the app's "graph: ..." line.
// Edges count stored entries, so an undirected edge from a symmetric file counts twice.
std::string describe(const io::LoadedGraph& graph);

}  // namespace spgraph::apps
