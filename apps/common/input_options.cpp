#include "input_options.hpp"

#include "choice_option.hpp"

namespace spgraph::apps {

void add_input_options(CLI::App& cli, InputOptions& input) {
  cli.add_option("graph", input.path,
                 "the graph: Matrix Market (.mtx), mcl label pairs (.abc), spgraph's binary cache (.spgcsr), or "
                 "an edge list, one 'source target [weight]' per line (any other name: .txt, .tsv, .csv, .el, "
                 "...); each may be gzip-compressed (.gz)")
      ->required();
  add_choice(cli, "--duplicates", input.load.duplicates,
             {{"error", Duplicates::Error}, {"sum", Duplicates::Sum}, {"max", Duplicates::Max},
              {"first", Duplicates::First}},
             "an edge given more than once: error (name both lines and stop), or keep one entry with their "
             "sum, their max or the first; .abc files keep the max unless told otherwise, as mcl does");
  cli.add_flag("--compact-ids", input.load.compact_ids,
               "edge lists: number the vertices 0..n-1 in order of first appearance instead of by id (saves "
               "memory when ids are sparse); results still name vertices by the file's ids");
}

std::string describe(const io::LoadedGraph& graph) {
  return std::to_string(graph.matrix.nrows) + " vertices, " + std::to_string(graph.matrix.nnz()) + " edges (" +
         graph.format + ")";
}

}  // namespace spgraph::apps
