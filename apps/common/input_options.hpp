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
  bool undirected = false;  // --undirected: every link i -> j also j -> i
};

// Adds the positional GRAPH (required), --duplicates error|sum|max|first, --compact-ids and
// --trust-vertex-count.
void add_input_options(CLI::App& cli, InputOptions& input);

// Adds --undirected, for the apps whose result depends on the links' direction (pagerank,
// msbfs): the graph as undirected whatever its file says.
void add_undirected_option(CLI::App& cli, InputOptions& input);

// Throws Error naming the file when a is not square ("<file>: the matrix is m x n; <who> needs a
// square adjacency matrix").
void require_square(const std::string& path, const Csr<double>& a, const std::string& who);

// Loads input.path, timed (seconds), with a progress line on stderr after a second when that
// is a terminal (erased when the load ends); throws Error naming the file when its matrix is not
// square ("<file>: the matrix is m x n; <who> needs a square adjacency matrix"). With
// --undirected, every link is then added the other way too (timed with the load).
io::LoadedGraph load_square_graph(const InputOptions& input, const std::string& who, double& seconds);

// "34 vertices, 156 edges (matrix-market)": what was read, for the app's "graph: ..." line.
// Edges count stored entries, so an undirected edge from a symmetric file counts twice; then
// graph_notes.
std::string describe(const io::LoadedGraph& graph, bool undirected_flag = false);

// What a user should know about the graph beyond its size, each note after "; ": "links
// mirrored: the file's header says undirected" (an edge list whose header says so), "links
// mirrored: --undirected" (undirected_flag), "the graph is empty" (no vertices). "" for none.
std::string graph_notes(const io::LoadedGraph& graph, bool undirected_flag = false);

}  // namespace spgraph::apps
