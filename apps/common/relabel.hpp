#pragma once
// Renumbering a graph's vertices (spgraph-convert --relabel): a new order, or fewer vertices.
#include "spgraph/io/load_graph.hpp"

namespace spgraph::apps {

enum class Relabel {
  None,
  Compact,  // the vertices with an edge (in or out), numbered 0..k-1 in their order; the rest dropped
  Degree,   // every vertex, by decreasing degree (out + in; a self-loop counts twice), ties in their order
};

// The graph with its vertices renumbered (square matrices only: spgraph::Error otherwise).
// Labels that are all numbers (label_ids) were ids, which the new numbers replace: they are
// dropped. Other labels are names and move with their vertices. The id base is kept.
io::LoadedGraph relabel(io::LoadedGraph graph, Relabel how);

}  // namespace spgraph::apps
