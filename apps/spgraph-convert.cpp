// spgraph-convert: a graph from any format the apps read, or generated, written in any of them
// (io::save_graph says how each format names the vertices), optionally reshaped on the way.
//
// Exit status: 0 written; 1 bad input or a failure (no output file is left); 2 bad flags.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "choice_option.hpp"
#include "generate_options.hpp"
#include "input_options.hpp"
#include "relabel.hpp"
#include "run_app.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/atomic_file.hpp"
#include "spgraph/io/save_graph.hpp"
#include "wall_timer.hpp"

namespace spgraph::apps {
namespace {

namespace fs = std::filesystem;

struct Flags {
  InputOptions input;
  std::string output;
  std::optional<io::SaveFormat> to;
  GenerateOptions generate;
  bool symmetrize = false;
  bool drop_self_loops = false;
  Relabel relabel = Relabel::None;
  bool pattern = false;
};

void declare(CLI::App& cli, Flags& f) {
  cli.description(
      "Converts a graph between the formats the spgraph apps read, or writes a generated one:\n"
      "  spgraph-convert INPUT OUTPUT [options]\n"
      "  spgraph-convert --generate wb-edu|cit-patents|rmat [...] OUTPUT [options]\n"
      "OUTPUT's name picks the format (or --to): .mtx Matrix Market (coordinate general); .txt, .tsv, "
      ".csv, .el, .edges, .edgelist, .snap an edge list, 'source<TAB>target[<TAB>weight]' per line (commas "
      "for .csv); .abc mcl's label pairs; .spgcsr spgraph's binary cache (what loads fastest). A text "
      "format is gzip-compressed (zlib level 6) when the name ends in .gz. Vertices keep the names the "
      "input gives them, so converting back gives the same graph: .spgcsr keeps labels and ids as they "
      "are; .abc writes each vertex's name (its label, or its id as the input counts); an edge list and "
      "Matrix Market number the vertices in order (v in an edge list is v + 1 in Matrix Market), or by "
      "their labels when all are numbers (an .abc of numbers, an edge list read with --compact-ids); "
      "other labels cannot be numbers there and are left out, with a note. Vertices without edges are "
      "lost where the format cannot hold them (.abc; an edge list after its largest id), with a note. "
      "An edge list whose header says 'Undirected graph' (SNAP's, storing each pair once) is read as every "
      "app reads it, each link both ways, and written so: OUTPUT holds both directions, which reads back as "
      "the same graph in any format, with a note. A graph without vertices converts to an empty one, with a "
      "note. "
      "The options apply in the order listed: --pattern, --symmetrize, --drop-self-loops, --relabel. "
      "Prints one line: what was read and written (vertices, edges, bytes) and the seconds of each "
      "phase. The output appears only once complete, and never replaces the input.");
  add_input_options(cli, f.input);
  // The input is optional here: --generate takes its place, and the one file named is OUTPUT.
  cli.get_option("graph")->required(false)->description(
      "INPUT: the graph to convert, any format the apps read: Matrix Market (.mtx), mcl label pairs (.abc), "
      "spgraph's binary cache (.spgcsr), or an edge list (any other name); each may be gzip-compressed "
      "(.gz). Left out with --generate");
  cli.add_option("output", f.output, "OUTPUT: the file to write (required)")->type_name("OUTPUT");
  add_choice(cli, "--to", f.to,
             {{"mtx", io::SaveFormat::MatrixMarket},
              {"edges", io::SaveFormat::EdgeList},
              {"abc", io::SaveFormat::Abc},
              {"spgcsr", io::SaveFormat::Cache}},
             "the output format whatever OUTPUT's name (default: by the name)");
  add_generate_options(cli, f.generate);
  cli.add_flag("--pattern", f.pattern, "drop the weights: write the links only");
  cli.add_flag("--symmetrize", f.symmetrize,
               "make the graph undirected: add j -> i for every i -> j, the weight where both exist being the "
               "larger of the two");
  cli.add_flag("--drop-self-loops", f.drop_self_loops, "remove every edge i -> i");
  add_choice(cli, "--relabel", f.relabel,
             {{"none", Relabel::None}, {"compact", Relabel::Compact}, {"degree", Relabel::Degree}},
             "renumber the vertices: compact drops the vertices without edges (in or out) and numbers the "
             "others 0..n-1 in their order; degree numbers every vertex by decreasing degree (out + in, a "
             "self-loop counting twice), ties in their order. Labels that are all numbers were ids and give "
             "way to the new numbers; other labels move with their vertices");
}

// The two positionals fill INPUT first: with --generate the one file named is OUTPUT.
void resolve_files(Flags& f) {
  const bool generating = !f.generate.preset.empty();
  if (generating && !f.output.empty())
    throw UsageError("--generate writes a generated graph: name only OUTPUT, not an input file");
  if (generating) std::swap(f.output, f.input.path);
  if (f.output.empty())
    throw UsageError(generating ? "name the OUTPUT file" : "name INPUT and OUTPUT: spgraph-convert INPUT OUTPUT");
}

io::SaveFormat output_format(const Flags& f) {
  if (f.to) return *f.to;
  if (auto format = io::save_format_by_name(f.output)) return *format;
  throw UsageError("cannot tell the format of " + f.output +
                   " from its name (.mtx, .abc, .spgcsr, or .txt, .tsv, .csv, .el, .edges, .edgelist, .snap for "
                   "an edge list; each text format optionally .gz): name it with --to mtx|edges|abc|spgcsr");
}

void refuse_overwriting_input(const Flags& f) {
  std::error_code ec;
  if (!f.input.path.empty() && fs::equivalent(f.input.path, f.output, ec))
    throw Error(f.output + " is the input file; write the conversion to another name");
}

// --pattern, --symmetrize, --drop-self-loops, --relabel, in that order.
io::LoadedGraph reshape(io::LoadedGraph g, const Flags& f) {
  if (f.pattern) g.matrix = drop_values(std::move(g.matrix));
  if (f.symmetrize) {
    if (g.matrix.nrows != g.matrix.ncols)
      throw Error("--symmetrize: the matrix is " + std::to_string(g.matrix.nrows) + " x " +
                  std::to_string(g.matrix.ncols) + "; only a square adjacency matrix has a symmetric form");
    g.matrix = symmetrize(g.matrix, Duplicates::Max);
  }
  if (f.drop_self_loops) g.matrix = remove_self_loops(g.matrix);
  return relabel(std::move(g), f.relabel);
}

// "34 vertices, 156 edges", or for a matrix that is not a graph "2 x 3 matrix, 2 entries".
std::string summary(vid_t nrows, vid_t ncols, eid_t nnz) {
  if (nrows != ncols)
    return std::to_string(nrows) + " x " + std::to_string(ncols) + " matrix, " + std::to_string(nnz) + " entries";
  return std::to_string(nrows) + " vertices, " + std::to_string(nnz) + " edges";
}
std::string summary(const io::LoadedGraph& g) { return summary(g.matrix.nrows, g.matrix.ncols, g.matrix.nnz()); }

// What the output holds that the input file did not say outright: the links a header's
// "Undirected graph" mirrored (the file is converted as the apps read it: no format here keeps
// such a header, and both directions read back as the same graph everywhere), or no graph.
std::vector<std::string> read_notes(const io::LoadedGraph& graph) {
  std::vector<std::string> notes;
  if (graph.mirrored)
    notes.push_back("links mirrored: the file's header says undirected; the output holds each link both ways");
  if (graph.matrix.nrows == 0) notes.push_back("the graph is empty");
  return notes;
}

int convert_main(Command& cmd) {
  Flags f;
  declare(cmd.cli(), f);
  cmd.add_timings_option();
  cmd.parse();
  resolve_files(f);
  if (!f.generate.preset.empty()) cmd.set_input("the generated " + f.generate.preset + " graph");
  const io::SaveFormat format = output_format(f);
  refuse_overwriting_input(f);
  { io::AtomicFile probe(f.output); }  // an unwritable OUTPUT fails before the work; the probe leaves nothing

  WallTimer timer;
  const bool generating = !f.generate.preset.empty();
  io::LoadedGraph graph = generating ? generate_graph(f.generate) : io::load_graph(f.input.path, f.input.load);
  const double read_seconds = timer.seconds();
  const std::string source = generating ? graph.format + ": " + summary(graph)
                                        : f.input.path + ": " + summary(graph) + " (" + graph.format + ")";

  timer.restart();
  graph = reshape(std::move(graph), f);
  const double reshape_seconds = timer.seconds();

  timer.restart();
  const io::SaveResult saved = io::save_graph(f.output, graph, format);
  const double write_seconds = timer.seconds();
  // --timings: reading or generating is the load, reshaping the compute.
  cmd.timings().add(Phase::Load, read_seconds);
  cmd.timings().add(Phase::Compute, reshape_seconds);
  cmd.timings().add(Phase::Write, write_seconds);

  std::vector<std::string> notes = read_notes(graph);
  notes.insert(notes.end(), saved.notes.begin(), saved.notes.end());
  for (const std::string& note : notes) std::fprintf(stderr, "%s: note: %s\n", cmd.name().c_str(), note.c_str());
  const bool gzip = format != io::SaveFormat::Cache && f.output.ends_with(".gz");
  const vid_t columns = graph.matrix.nrows == graph.matrix.ncols ? saved.vertices : graph.matrix.ncols;
  std::printf("%s -> %s: %s (%s%s), %llu bytes; time: %s %s, reshape %s, write %s\n", source.c_str(),
              f.output.c_str(), summary(saved.vertices, columns, saved.edges).c_str(),
              std::string(io::to_string(format)).c_str(), gzip ? ", gzip" : "",
              static_cast<unsigned long long>(fs::file_size(f.output)), generating ? "generate" : "load",
              format_seconds(read_seconds).c_str(), format_seconds(reshape_seconds).c_str(),
              format_seconds(write_seconds).c_str());
  return 0;
}

}  // namespace
}  // namespace spgraph::apps

int main(int argc, char** argv) {
  return spgraph::apps::run_app("spgraph-convert", argc, argv, spgraph::apps::convert_main);
}
