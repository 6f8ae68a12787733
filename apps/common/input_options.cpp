#include "input_options.hpp"

#include <unistd.h>

#include <cstdio>

#include "choice_option.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"
#include "wall_timer.hpp"

namespace spgraph::apps {
namespace {

// A progress line on stderr for a load that takes more than a second, drawn only when stderr
// is a terminal: redrawn in place ("\r") at most 4 times a second and erased when the load
// ends, well or not. So nothing of it stays on the screen or reaches a log, a pipe or a test
// reading stderr, where a failure's one error line stays the only line (a final summary line
// would break that contract; the apps print the load time afterwards anyway).
class ProgressLine {
 public:
  explicit ProgressLine(const std::string& path) : path_(path), on_(::isatty(STDERR_FILENO) == 1) {}
  ~ProgressLine() {
    if (shown_) std::fputs("\r\033[K", stderr);
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  io::ReadProgress reporter() {
    if (!on_) return {};
    return [this](std::uint64_t read, std::uint64_t total) { update(read, total); };
  }

 private:
  void update(std::uint64_t read, std::uint64_t total) {
    const double s = timer_.seconds();
    if (s < 1.0 || s - drawn_at_ < 0.25) return;
    drawn_at_ = s;
    shown_ = true;
    const double mb = static_cast<double>(read) / 1e6;
    if (total > 0)
      std::fprintf(stderr, "\r\033[Kloading %s: %.0f of %.0f MB (%.0f%%), %.0f MB/s", path_.c_str(), mb,
                   static_cast<double>(total) / 1e6, 100.0 * static_cast<double>(read) / static_cast<double>(total),
                   mb / s);
    else
      std::fprintf(stderr, "\r\033[Kloading %s: %.0f MB, %.0f MB/s", path_.c_str(), mb, mb / s);
    std::fflush(stderr);
  }

  std::string path_;
  bool on_;
  bool shown_ = false;
  WallTimer timer_;
  double drawn_at_ = 0;
};

}  // namespace

void add_input_options(CLI::App& cli, InputOptions& input) {
  cli.add_option("graph", input.path,
                 "the graph: Matrix Market (.mtx), mcl label pairs (.abc), spgraph's binary cache (.spgcsr), or "
                 "an edge list, one 'source target [weight]' per line (any other name: .txt, .tsv, .csv, .el, "
                 "...; a comment before the first edge saying 'Undirected graph', SNAP's header, adds every link "
                 "the other way too); each may be gzip-compressed (.gz). A graph without vertices is valid "
                 "input. Text is parsed on every core (OMP_NUM_THREADS limits them). Memory: a load holds the "
                 "entries as read (16 bytes each with weights, 8 without; a symmetric Matrix Market entry counts "
                 "twice) and then the graph (12 or 4 bytes an entry, 8 a vertex), about 30 bytes an entry at its "
                 "peak; up to twice the entries as read where their "
                 "number is not known ahead (edge lists, .abc, and .gz, whose text may be up to 1000 times the "
                 "file; a Matrix Market size line that the file could not hold is refused before reading); "
                 "mirroring an undirected edge list's links then holds the graph, its transpose and the "
                 "mirrored graph at once. A load that does not fit names the file, the arrays and their bytes. A "
                 "load of more than a second shows its progress on stderr when that is a terminal. Under mpirun each rank "
                 "reads its piece of the rows from a .spgcsr, or parses its share of a Matrix Market file or edge "
                 "list (gzip-compressed too: every rank inflates it, keeping its share), and keeps its block of the "
                 "grid, 1/P of the graph; .abc and --compact-ids are read whole by every rank")
      ->required();
  add_choice(cli, "--duplicates", input.load.duplicates,
             {{"error", Duplicates::Error}, {"sum", Duplicates::Sum}, {"max", Duplicates::Max},
              {"first", Duplicates::First}},
             "an edge given more than once: error (name both lines and stop), or keep one entry with their "
             "sum, their max or the first; .abc files keep the max unless told otherwise, as mcl does");
  cli.add_flag("--compact-ids", input.load.compact_ids,
               "edge lists: number the vertices 0..n-1 in order of first appearance instead of by id (saves "
               "memory when ids are sparse); results still name vertices by the file's ids");
  cli.add_flag("--trust-vertex-count", input.load.trust_vertex_count,
               "edge lists and Matrix Market: load a vertex count (largest id + 1, or the size line's) above "
               "64 x (entries + 1) + 2^20, which is otherwise refused before its 8 bytes a vertex are allocated");
}

void add_undirected_option(CLI::App& cli, InputOptions& input) {
  cli.add_flag("--undirected", input.undirected,
               "treat the graph as undirected: every link i -> j also j -> i (a pair stored both ways stays one "
               "link), whatever the file says; an edge list whose header says 'Undirected graph' is read so "
               "anyway. Built after the load, which then holds the graph, its transpose and the result at once");
}

void require_square(const std::string& path, const Csr<double>& a, const std::string& who) {
  if (a.nrows != a.ncols)
    throw Error(path + ": the matrix is " + std::to_string(a.nrows) + " x " + std::to_string(a.ncols) + "; " + who +
                " needs a square adjacency matrix");
}

io::LoadedGraph load_square_graph(const InputOptions& input, const std::string& who, double& seconds) {
  WallTimer timer;
  io::LoadedGraph graph;
  {
    ProgressLine progress(input.path);  // erased before any error is printed
    io::LoadOptions load = input.load;
    load.progress = progress.reporter();
    graph = io::load_graph(input.path, load);
  }
  require_square(input.path, graph.matrix, who);
  if (input.undirected && !graph.mirrored) graph.matrix = symmetrize(graph.matrix, Duplicates::Max);
  seconds = timer.seconds();
  return graph;
}

std::string graph_notes(const io::LoadedGraph& graph, bool undirected_flag) {
  std::string notes;
  if (graph.mirrored) notes += "; links mirrored: the file's header says undirected";
  else if (undirected_flag) notes += "; links mirrored: --undirected";
  if (graph.matrix.nrows == 0) notes += "; the graph is empty";
  return notes;
}

std::string describe(const io::LoadedGraph& graph, bool undirected_flag) {
  return std::to_string(graph.matrix.nrows) + " vertices, " + std::to_string(graph.links()) + " edges (" +
         graph.format + ")" + graph_notes(graph, undirected_flag);
}

}  // namespace spgraph::apps
