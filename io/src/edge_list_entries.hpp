#pragma once
// The edge lines of an edge list, for the readers that parse them: the whole-file reader
// (read_edge_list) and a rank's share of the file (text_rows.cpp), with the same parser and the
// same messages.
#include <string>
#include <vector>

#include "spgraph/csr.hpp"
#include "text_chunk.hpp"

namespace spgraph::io::detail {

// One thread's edges (parallel_text.hpp), with the file's ids.
struct EdgePart {
  std::vector<vid_t> row, col;
  std::vector<double> val;
  vid_t largest = -1;
  int fields = 0;                  // 2 or 3, fixed by the piece's first edge line
  long long first_edge_line = 0;   // in the piece
  bool mixed_weights = false;      // the piece's failure: an edge unlike the piece's first
  bool says_undirected = false;    // a comment before the piece's first edge says so

  void clear() {  // keeps the capacity for the next block
    row.clear(), col.clear(), val.clear();
    largest = -1, fields = 0, first_edge_line = 0, mixed_weights = false, says_undirected = false;
  }
  // At most one edge a 4 bytes ("0 1\n"; a weight a 6): reserved once, so the part never
  // grows by copies (unused pages are never touched).
  void reserve(std::size_t bytes) { row.reserve(bytes / 4), col.reserve(bytes / 4), val.reserve(bytes / 6); }
};

// The Parse of parse_in_parallel: every edge line of a piece into part, each line checked. An
// edge unlike the piece's first (a weight or not) sets part.mixed_weights and fails with an
// empty reason, which the merge writes (mixed_weights_refusal) once it knows the file's first
// edge.
void parse_edges(TextChunk& lines, EdgePart& part, bool require_nonnegative);

// For an edge unlike the file's first edge (line first_edge_line, with `fields` fields).
std::string mixed_weights_refusal(int fields, long long first_edge_line);
// A largest id whose vertex count the edges do not justify (vertex_count.hpp).
std::string vertex_count_reason(vid_t largest, eid_t edges);
// The reason of the ParseError (at the repeat's line) for a repeated edge.
std::string duplicate_edge_reason(const std::string& source, const std::string& destination, long long first_line);

}  // namespace spgraph::io::detail
