#pragma once
// mcl's label format, what `mcl --abc` reads: "label1 label2 [weight]" per line, fields
// separated by blanks. Labels are any text without blanks; they become vertices 0..n-1 in
// order of first appearance and are kept for writing results back in terms of them.
// As in mcl (mcxload): lines starting with '#' and blank lines are skipped, a missing weight
// is 1, and an edge given more than once keeps its largest weight (mcl(1): "MCL deduplicates
// repeated edges by taking the one with the maximum value"). The graph is directed as given;
// mcl itself symmetrizes afterwards, which is the clustering's job, not the reader's.
#include <string>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/graph_ops.hpp"

namespace spgraph::io {

struct AbcOptions {
  Duplicates duplicates = Duplicates::Max;  // mcl's rule; Error refuses repeats with both lines
  // A negative weight is a ParseError naming the line (NaN and infinite weights always are).
  bool require_nonnegative_weights = false;
};

struct LabeledGraph {
  Csr<double> matrix;               // square; no values when no line has a weight
  std::vector<std::string> labels;  // labels[v] is vertex v's label
};

LabeledGraph read_abc(const std::string& path, const AbcOptions& options = {});

// Writes one "label1<TAB>label2[<TAB>weight]" line per entry, in row order, no weights for a
// pattern matrix; weights as the shortest text that reads back to the same double; labels[v]
// names vertex v. Vertices without an edge cannot be written (the format names vertices only
// through edges), and read_abc numbers the others by first appearance. Gzip-compressed when
// the path ends in ".gz"; the file appears only complete. spgraph::Error for a matrix that is
// not square, a label count other than nrows, a label read_abc would not give back (empty,
// holding a blank or a line break, or starting with '#', a comment), a NaN or infinite weight
// (read_abc refuses them), or a failed write.
void write_abc(const std::string& path, const Csr<double>& a, const std::vector<std::string>& labels);

}  // namespace spgraph::io
