// tricount: the triangles of a graph, in total and optionally through each vertex, on the GPU
// or with SuiteSparse:GraphBLAS on the CPU. Definition and methods:
// algorithms/.../triangle_count.hpp.
//
// Exit status: 0 done; 1 bad input or a failure; 2 bad flags.
#include <cstdint>
#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "backend_option.hpp"
#include "choice_option.hpp"
#include "input_options.hpp"
#include "mpi_job.hpp"
#include "run_app.hpp"
#include "start_and_load.hpp"
#include "spgraph/algorithms/triangle_count.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/atomic_file.hpp"
#include "spgraph/io/vertex_values.hpp"
#include "wall_timer.hpp"

namespace spgraph::apps {
namespace {

using algorithms::TriangleCountOptions;
using algorithms::TriangleCountResult;
using algorithms::TriangleMethod;
using algorithms::TrianglePresort;

struct Flags {
  InputOptions input;
  BackendChoice backend = BackendChoice::Auto;
  TriangleCountOptions count;
  std::string output;
};

// The names come from the algorithm's own to_string, so --help and the printed method agree.
template <class Values>
auto named(const Values& values) {
  Choices<typename Values::value_type> choices;
  for (auto v : values) choices.emplace_back(algorithms::to_string(v), v);
  return choices;
}

void declare(CLI::App& cli, Flags& f) {
  cli.description(
      "Counts the triangles of the undirected simple graph under the input: self-loops are dropped, direction is "
      "ignored, and reciprocal or repeated links count as one edge; edge weights are ignored. A triangle is three "
      "vertices linked pairwise, counted once (not once per vertex or per ordering); counts are 64-bit; a graph "
      "without vertices has none (and -o writes an empty file). Prints "
      "the backend that ran, the total, the method and the relabeling used, and the time to load, build (the "
      "graph on the backend and its undirected form) and count. SPGRAPH_GPU_MEMORY_LIMIT (e.g. 8G) caps the GPU "
      "memory it takes.");
  // Repeated links are merged by the definition, so by default they are not an error here.
  f.input.load.duplicates = Duplicates::First;
  add_input_options(cli, f.input);
  add_choice(cli, "--method", f.count.method,
             named(algorithms::kTriangleMethods),
             "LAGraph's formulas, all giving the same count (A the graph, L and U its strict lower and upper "
             "triangles, .* masking by the right-hand pattern): burkhardt sum((A*A).*A)/6, cohen sum((L*U).*A)/2, "
             "sandia sum((L*L).*L), sandia2 sum((U*U).*U), sandia-dot sum((L*U').*L), sandia-dot2 sum((U*L').*U)");
  add_choice(cli, "--presort", f.count.presort,
             named(std::array{TrianglePresort::Auto, TrianglePresort::None, TrianglePresort::Ascending,
                    TrianglePresort::Descending}),
             "renumber the vertices by degree before counting (the count is the same, the time may not be); "
             "only the sandia methods relabel, burkhardt and cohen never do. auto follows LAGraph's rule: "
             "ascending for sandia and sandia-dot, descending for sandia2 and sandia-dot2, when the graph has "
             "over 1000 vertices, mean degree 10 or more and skewed degrees (the mean of 1000 sampled degrees "
             "above 4 times their median). The relabeling done is printed");
  cli.add_flag("--materialize", f.count.materialize,
               "form each masked product as a matrix before summing it (GraphBLAS's own way; slower, the reference "
               "form) instead of summing it as it is computed");
  add_backend_option(cli, f.backend);
  auto* output = cli.add_option("-o,--output", f.output,
                                "write 'vertex<TAB>count', the triangles through each vertex, for every vertex in "
                                "vertex order, vertices named as in the input (Matrix Market: 1-based; edge "
                                "lists: the file's ids; .abc: labels); implies --per-vertex; the file appears only "
                                "once complete")
                     ->type_name("FILE");
  cli.add_flag("--per-vertex", f.count.per_vertex,
               "also count the triangles through each vertex (their sum is 3 times the total); they are written "
               "to the -o FILE, which it needs")
      ->needs(output);
}

int tricount_main(Command& cmd) {
  Flags f;
  declare(cmd.cli(), f);
  cmd.add_timings_option();
  cmd.parse();
  if (!f.output.empty()) f.count.per_vertex = true;

  std::optional<io::AtomicFile> out;  // opened first, so an unwritable path fails before the work
  if (!f.output.empty() && mpi_job().root()) out.emplace(f.output);  // rank 0 alone writes, under mpirun

  const StartedRun run = start_backend_and_load(cmd.name(), f.backend, f.input, "triangle counting", cmd.timings());
  const SelectedBackend& backend = run.backend;
  const io::LoadedGraph& graph = run.graph;
  const double load_seconds = run.load_seconds;
  const Csr<double>& a = graph.matrix;
  // Stored entries, as read: a symmetric Matrix Market file stores each undirected edge twice.
  std::printf("graph: %s: %lld vertices, %lld links as stored (%s)%s\n", f.input.path.c_str(),
              static_cast<long long>(a.nrows), static_cast<long long>(graph.links()), graph.format.c_str(),
              graph_notes(graph).c_str());

  const TriangleCountResult r = run_on(backend, [&] { return algorithms::triangle_count(backend.backend, a, f.count); });
  cmd.timings().add(Phase::Build, r.build_seconds);
  cmd.timings().add(Phase::Compute, r.count_seconds + r.per_vertex_seconds);
  std::printf("triangles: %lld (undirected edges: %lld)\n", static_cast<long long>(r.triangles),
              static_cast<long long>(r.undirected_edges));
  std::string presort = algorithms::to_string(r.presort);
  if (f.count.presort == TrianglePresort::Auto)
    presort += " (chosen by --presort auto)";
  else if (r.presort != f.count.presort)
    presort += std::string(" (--presort ") + algorithms::to_string(f.count.presort) + " does not apply to " +
               algorithms::to_string(r.method) + ")";
  std::printf("method: %s, presort %s, %s\n", algorithms::to_string(r.method), presort.c_str(),
              f.count.materialize ? "products formed, then summed (--materialize)" : "products summed as computed");
  std::string times = "time: load " + format_seconds(load_seconds) + ", build " + format_seconds(r.build_seconds) +
                      ", count " + format_seconds(r.count_seconds);
  if (f.count.per_vertex) times += ", per-vertex " + format_seconds(r.per_vertex_seconds);
  std::printf("%s\n", times.c_str());
  if (out) {
    cmd.timings().time(Phase::Write, [&] {
      io::write_vertex_values(*out, graph, r.per_vertex);
      out->commit();
    });
    std::printf("per-vertex counts written to %s\n", f.output.c_str());
  }
  return 0;
}

}  // namespace
}  // namespace spgraph::apps

int main(int argc, char** argv) { return spgraph::apps::run_app("tricount", argc, argv, spgraph::apps::tricount_main); }
