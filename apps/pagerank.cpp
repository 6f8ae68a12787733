// pagerank: PageRank of a graph, on the GPU or with SuiteSparse:GraphBLAS on the CPU.
// Definition (damping, dangling vertices, stopping rules): algorithms/.../pagerank.hpp.
//
// Exit status: 0 done; 1 bad input or a failure; 2 bad flags; 3 the iteration did not
// converge (the ranks are still written, and stderr says so).
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "backend_option.hpp"
#include "choice_option.hpp"
#include "input_options.hpp"
#include "positive_option.hpp"
#include "mpi_job.hpp"
#include "run_app.hpp"
#include "start_and_load.hpp"
#include "spgraph/algorithms/pagerank.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/atomic_file.hpp"
#include "spgraph/io/vertex_values.hpp"
#include "wall_timer.hpp"

namespace spgraph::apps {
namespace {

using algorithms::PageRankOptions;
using algorithms::PageRankResult;
using algorithms::ToleranceMode;

enum class Precision { Float, Double };

struct Flags {
  InputOptions input;
  BackendChoice backend = BackendChoice::Auto;
  PageRankOptions pagerank;
  Precision precision = Precision::Double;
  int top = 0;
  std::string output;
};

void declare(CLI::App& cli, Flags& f) {
  cli.description(
      "PageRank by power iteration: damping d, the rank of vertices without out-links spread evenly over all "
      "vertices, ranks summing to 1 (LAGraph's and networkx's definition). Edge weights are ignored: only "
      "links count. Prints the backend that ran, the iterations, the last L1 change sum|r_new - r_old| and "
      "the time to load, build (the graph on the backend: A' and the degrees, as GraphBLAS matrices on the "
      "CPU, uploaded and built on the GPU) and solve. A graph without vertices has no ranks: it is said, "
      "and -o writes an empty file. Exit status 3 when the iteration did not converge (the ranks are still "
      "written). SPGRAPH_GPU_MEMORY_LIMIT (e.g. 8G) caps the GPU memory it takes.");
  add_input_options(cli, f.input);
  add_undirected_option(cli, f.input);
  cli.add_option("--damping", f.pagerank.damping, "damping factor d, the probability of following a link")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  auto* tol = cli.add_option("--tol", f.pagerank.tolerance, "stop once the L1 change is below this")
                  ->check(greater_than_zero())
                  ->capture_default_str();
  auto* tol_mode = add_choice(cli, "--tol-mode", f.pagerank.tolerance_mode,
                              {{"l1", ToleranceMode::L1}, {"networkx", ToleranceMode::NetworkX}},
                              "l1: compare the L1 change with --tol (LAGraph); networkx: with n * --tol, n the "
                              "number of vertices (networkx.pagerank's rule)");
  auto* max_iter = cli.add_option("--max-iter", f.pagerank.max_iterations,
                                  "give up after this many iterations (exit status 3)")
                       ->check(greater_than_zero())
                       ->capture_default_str();
  cli.add_option("--iterations", f.pagerank.fixed_iterations,
                 "run exactly K iterations, with no tolerance test (LDBC Graphalytics' definition)")
      ->type_name("K")
      ->check(greater_than_zero())
      ->excludes(tol, tol_mode, max_iter);
  add_choice(cli, "--precision", f.precision, {{"float", Precision::Float}, {"double", Precision::Double}},
             "type of the ranks (sums are accumulated in double either way)");
  add_backend_option(cli, f.backend);
  cli.add_option("--top", f.top, "print the K vertices of highest rank, 'vertex<TAB>rank' per line")
      ->type_name("K")
      ->check(CLI::NonNegativeNumber);
  cli.add_option("-o,--output", f.output,
                 "write 'vertex<TAB>rank' for every vertex, in vertex order, vertices named as in the input "
                 "(Matrix Market: 1-based; edge lists: the file's ids; .abc: labels); the file appears only "
                 "once complete")
      ->type_name("FILE");
}

// Shortest text that reads back as the same V, as the ranks file has it.
template <class V>
void append_number(std::string& s, V x) {
  char buf[32];
  s.append(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

template <class V>
void print_top(const io::LoadedGraph& graph, const std::vector<V>& rank, int k) {
  std::vector<vid_t> order(rank.size());
  std::iota(order.begin(), order.end(), 0);
  const auto shown = std::min<std::size_t>(static_cast<std::size_t>(k), order.size());
  std::partial_sort(order.begin(), order.begin() + shown, order.end(),
                    [&](vid_t a, vid_t b) { return rank[a] != rank[b] ? rank[a] > rank[b] : a < b; });
  std::printf("top %zu vertices:\n", shown);
  for (std::size_t i = 0; i < shown; ++i) {
    std::string line = graph.vertex_name(order[i]) + '\t';
    append_number(line, rank[order[i]]);
    std::printf("%s\n", line.c_str());
  }
}

template <class V>
int solve(const Flags& f, algorithms::Backend backend, const io::LoadedGraph& graph, double load_seconds,
          std::optional<io::AtomicFile>& out, PhaseTimings& timings) {
  const PageRankResult<V> r = algorithms::pagerank<V>(backend, graph.matrix, f.pagerank);
  timings.add(Phase::Build, r.upload_seconds);
  timings.add(Phase::Compute, r.solve_seconds);
  const auto& o = f.pagerank;
  const double threshold = o.tolerance_mode == ToleranceMode::NetworkX ? o.tolerance * graph.matrix.nrows : o.tolerance;
  if (o.fixed_iterations > 0)
    std::printf("pagerank: %d iterations (fixed), last L1 change %.3g\n", r.iterations, r.change);
  else
    std::printf("pagerank: %s after %d iterations, L1 change %.3g (tolerance %.3g)\n",
                r.converged ? "converged" : "NOT converged", r.iterations, r.change, threshold);
  // "build" on either backend, as every app and --timings' build_s call it: the CPU builds
  // GraphBLAS matrices, the GPU uploads the graph and builds it there.
  std::printf("time: load %s, build %s, solve %s (iterations %s%s)\n", format_seconds(load_seconds).c_str(),
              format_seconds(r.upload_seconds).c_str(), format_seconds(r.solve_seconds).c_str(),
              format_seconds(r.iterate_seconds).c_str(), r.device_loop ? ", all in one GPU kernel" : "");
  if (out) timings.time(Phase::Write, [&] {
    io::write_vertex_values(*out, graph, r.rank);
    out->commit();
  });
  if (f.top > 0) print_top(graph, r.rank, f.top);
  if (r.converged) return 0;
  const std::string written = out ? "; ranks written to " + f.output : "";
  std::fflush(stdout);
  std::fprintf(stderr,
               "pagerank: warning: did not converge: L1 change %.3g after %d iterations is not below %.3g (raise "
               "--max-iter or --tol)%s\n",
               r.change, r.iterations, threshold, written.c_str());
  return 3;
}

// A graph without vertices is valid input (one rule for every app): no ranks, and an empty
// -o file, where the algorithm itself refuses such a graph.
int rank_nothing(const Flags& f, double load_seconds, std::optional<io::AtomicFile>& out, PhaseTimings& timings) {
  std::printf("pagerank: no ranks: the graph is empty\n");
  std::printf("time: load %s\n", format_seconds(load_seconds).c_str());
  if (out) timings.time(Phase::Write, [&] { out->commit(); });
  if (f.top > 0) std::printf("top 0 vertices:\n");
  return 0;
}

int pagerank_main(Command& cmd) {
  Flags f;
  declare(cmd.cli(), f);
  cmd.add_timings_option();
  cmd.parse();

  std::optional<io::AtomicFile> out;  // opened first, so an unwritable path fails before the work
  if (!f.output.empty() && mpi_job().root()) out.emplace(f.output);  // rank 0 alone writes, under mpirun

  const StartedRun run = start_backend_and_load(cmd.name(), f.backend, f.input, "PageRank", cmd.timings());
  const SelectedBackend& backend = run.backend;
  const io::LoadedGraph& graph = run.graph;
  const double load_seconds = run.load_seconds;
  std::printf("graph: %s: %s\n", f.input.path.c_str(), describe(graph, f.input.undirected).c_str());
  if (graph.matrix.nrows == 0) return rank_nothing(f, load_seconds, out, cmd.timings());

  return run_on(backend, [&] {
    return f.precision == Precision::Float ? solve<float>(f, backend.backend, graph, load_seconds, out, cmd.timings())
                                           : solve<double>(f, backend.backend, graph, load_seconds, out, cmd.timings());
  });
}

}  // namespace
}  // namespace spgraph::apps

int main(int argc, char** argv) { return spgraph::apps::run_app("pagerank", argc, argv, spgraph::apps::pagerank_main); }
