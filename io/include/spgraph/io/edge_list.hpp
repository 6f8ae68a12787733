#pragma once
// SNAP-style edge lists ("src dst" or "src dst weight" per line), plain or gzip-compressed.
// Lines starting with '#' or '%' are comments, blank lines are skipped; fields are separated
// by blanks or a comma. Either every edge line has a weight or none has. Ids are non-negative
// integers below 2^31-1. Edge (s, d) becomes entry (s, d): the graph is directed as stored,
// unless its header says otherwise: a comment before the first edge that starts "Undirected
// graph" (SNAP's "# Undirected graph: <file>", whose files store each pair once) makes every
// edge (s, d) also the entry (d, s) (EdgeListOptions::mirror_undirected).
#include <string>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/graph_ops.hpp"

namespace spgraph::io {

struct EdgeListOptions {
  // false: vertex v is the file's id v (n = largest id + 1, unused ids are isolated vertices).
  // true: ids are renumbered 0..n-1 in order of first appearance (source before destination
  // on each line) and the file's ids are kept in EdgeList::original_ids.
  bool compact_ids = false;
  Duplicates duplicates = Duplicates::Error;  // a repeated edge names both lines by default
  // A weight that is negative, NaN or infinite is a ParseError naming the line.
  bool require_nonnegative_weights = false;
  // Without compact_ids, a largest id far beyond what the edges justify (more than
  // 64 * (edges + 1) + 2^20 vertices: "0 2147483646" alone would need 16 GiB of row offsets)
  // is a ParseError "FILE: the largest vertex id, ..." naming the apps' flags for the two
  // options (--compact-ids, --trust-vertex-count: users see flags), before anything
  // is allocated for the vertices; true allocates them as the ids say.
  bool trust_vertex_count = false;
  // A header saying "Undirected graph" adds the reverse of every edge, a pair given both ways
  // being one edge (of the larger weight, as symmetrize(Duplicates::Max) merges them); repeats
  // of one direction still follow `duplicates`. false reads the edges as stored.
  bool mirror_undirected = true;
};

struct EdgeList {
  Csr<double> matrix;  // square; no values when the file has no weight column
  // With compact_ids: original_ids[v] is the file's id of vertex v. Empty otherwise.
  std::vector<vid_t> original_ids;
  bool mirrored = false;  // the header said undirected and every edge was added both ways
};

EdgeList read_edge_list(const std::string& path, const EdgeListOptions& options = {});

// Writes one "source<TAB>target[<TAB>weight]" line per entry, in row order (separator ','
// instead of the tab for .csv), no weight column for a pattern matrix; weights as the
// shortest text that reads back to the same double. ids[v] is the id written for vertex v
// (empty: v itself), so the ids kept by compact_ids can go back out. Gzip-compressed when the
// path ends in ".gz"; the file appears only complete (AtomicFile). An edge list has no vertex
// count: vertices after the largest id with an edge are not in it. spgraph::Error for a
// matrix that is not square, ids of the wrong count, a NaN or infinite weight (which
// read_edge_list refuses), or a failed write.
void write_edge_list(const std::string& path, const Csr<double>& a, const std::vector<vid_t>& ids = {},
                     char separator = '\t');

}  // namespace spgraph::io
