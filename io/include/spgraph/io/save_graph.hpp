#pragma once
// The counterpart of load_graph: writes a graph in any format load_graph reads, naming its
// vertices so that load_graph gives the same graph back.
//
// The format, from the file name (case-insensitive, after stripping ".gz") or named:
//   .mtx         Matrix Market (write_matrix_market)
//   .abc         mcl's label pairs (write_abc)
//   .spgcsr      the binary cache (save_cache), never compressed
//   .txt .tsv .csv .el .edges .edgelist .snap   an edge list (write_edge_list; commas for .csv)
// The text formats are gzip-compressed when the name ends in ".gz".
//
// How the vertices are named:
//   .spgcsr keeps the labels and the id base as they are;
//   .abc writes each vertex's name, LoadedGraph::vertex_name (its label, or its number as the
//     input counts: 1-based from Matrix Market, the ids of an edge list);
//   an edge list and Matrix Market number the vertices. Without labels vertex v is v in an
//     edge list and v + 1 in Matrix Market, each format's own first id, so that
//     .mtx -> edge list -> .mtx gives the same file. Labels that are all decimal integers (an
//     .abc of numbers, an edge list read with compact ids) are ids: vertex "k" is k in an edge
//     list and row k in Matrix Market (k + 1 when some label is 0: 0-based ids become
//     1-based). Other labels cannot be written as numbers: the vertices keep their order and
//     a note says the labels were left out.
// Vertices without edges are lost where a format cannot hold them (.abc, and an edge list
// after its largest id); a note says how many.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spgraph/io/load_graph.hpp"

namespace spgraph::io {

enum class SaveFormat { MatrixMarket, EdgeList, Abc, Cache };

std::string_view to_string(SaveFormat format);  // "Matrix Market", "edge list", ".abc", ".spgcsr"

// The format the name stands for (above), nullopt for any other name.
std::optional<SaveFormat> save_format_by_name(const std::string& path);

struct SaveResult {
  vid_t vertices = 0;               // as load_graph will count them from the file
  eid_t edges = 0;                  // entries written
  std::vector<std::string> notes;   // what the format could not keep, one sentence each
};

// spgraph::Error, before any file is created, where the format cannot hold the graph (an
// edge list or .abc of a rectangular matrix, a label .abc cannot hold, NaN or infinite
// weights in a text format, a gzip-compressed cache, Matrix Market rows for label ids
// far beyond the entries, which its reader would refuse); otherwise the file appears only
// complete.
SaveResult save_graph(const std::string& path, const LoadedGraph& graph, SaveFormat format);

// The labels as ids when every one is a decimal integer in [0, 2^31 - 1) written without sign
// or leading zeros ("0", "17") and no two are equal; empty otherwise, and for no labels.
std::vector<vid_t> label_ids(const std::vector<std::string>& labels);

}  // namespace spgraph::io
