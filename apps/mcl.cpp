// mcl: Markov clustering with the semantics and, where they overlap, the command line of van
// Dongen's mcl program (22-282), on the GPU or with SuiteSparse:GraphBLAS on the CPU.
// Definition and method: algorithms/.../mcl.hpp.
//
// Exit status: 0 done (also when the iterations stopped at -L without converging: mcl writes
// that clustering too); 1 bad input (a malformed graph, a weight that is negative, NaN or
// infinite) or a failure; 2 bad flags.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "backend_option.hpp"
#include "input_options.hpp"
#include "mpi_job.hpp"
#include "run_app.hpp"
#include "start_and_load.hpp"
#include "spgraph/algorithms/mcl.hpp"
#include "spgraph/config.hpp"
#if SPGRAPH_HAVE_GPU
#include "spgraph/device/memory.hpp"
#endif
#include "spgraph/error.hpp"
#include "spgraph/io/atomic_file.hpp"
#include "wall_timer.hpp"

namespace spgraph::apps {
namespace {

using algorithms::MclIteration;
using algorithms::MclOptions;
using algorithms::MclResult;

// mcl refuses an inflation outside (0, 30] (it warns and runs with 2.0; here it is an error).
constexpr double kMaxInflation = 30;

struct Flags {
  InputOptions input;
  bool abc = false;
  BackendChoice backend = BackendChoice::Auto;
  MclOptions mcl;  // -I, -P, -S, -R, -pct, -L, --memory-budget as given
  int scheme = 0;  // 0: none given
  std::string output;
  // The flags that override -scheme's values when given, whatever their order (as in mcl).
  CLI::Option *prune = nullptr, *select = nullptr, *recover = nullptr, *percent = nullptr;
};

// A whole number from lo to hi, said the way the other apps say a bad value ("-pct: must be
// from 0 to 100, got 101") instead of CLI11's range text.
CLI::Validator whole_number_in(std::int64_t lo, std::int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        std::int64_t value = 0;
        if (!CLI::detail::lexical_cast(text, value)) return "not a whole number: " + text;
        if (value >= lo && value <= hi) return std::string();
        if (hi == INT64_MAX) return "must be " + std::to_string(lo) + " or more, got " + text;
        return "must be from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + text;
      },
      "");
}

CLI::Validator inflation_range() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value)) return "not a number: " + text;
        if (value > 0 && value <= kMaxInflation) return std::string();
        return "must be above 0 and at most 30 (mcl's range), got " + text;
      },
      "");
}

void declare(CLI::App& cli, Flags& f) {
  cli.description(
      "Markov clustering (MCL) as van Dongen's mcl program (22-282) does it, with its flags where they overlap: "
      "the graph is made symmetric (the larger weight of the two directions), each vertex gets a loop of its "
      "largest weight, and the columns are made stochastic; then expansion (the matrix squared, each column "
      "pruned by -P, -S, -R and -pct) and inflation (entries raised to the power -I, columns made stochastic "
      "again) alternate until the matrix settles (chaos below 1e-4) or -L iterations have run; the clusters are "
      "read from the last matrix. A larger -I gives smaller clusters. Weights must be non-negative numbers "
      "(zero drops the link; a negative, NaN or infinite weight is an error naming its line); repeated links "
      "keep their largest weight. Writes one cluster per line, largest first, its vertices tab-separated in "
      "vertex order and named as the input names them (Matrix Market: 1-based ids; edge lists: the file's "
      "ids; .abc: labels), to -o FILE or mcl's name out.<input's file name>.I<inflation, one decimal, no "
      "point> in the current folder (out.graph.abc.I20 for -I 2). Prints the backend and the graph; on stderr, "
      "one line per iteration (chaos, seconds, entries kept, peak GPU memory) and a summary. mcl's own "
      "spelling -pct and -scheme works as well as --pct and --scheme. SPGRAPH_GPU_MEMORY_LIMIT (e.g. 8G) caps "
      "the GPU memory it takes.");
  f.input.load.duplicates = Duplicates::Max;  // mcl keeps the largest weight of a repeated link
  f.input.load.require_nonnegative_weights = true;
  add_input_options(cli, f.input);
  cli.add_flag("--abc", f.abc,
               "read the graph as mcl's label format ('label1 label2 [weight]' per line) whatever its name, as "
               "mcl --abc does; a name ending in .abc is read so anyway");
  cli.add_option("-I", f.mcl.inflation, "inflation, above 0 and at most 30; larger gives smaller clusters")
      ->type_name("NUM")
      ->check(inflation_range())
      ->capture_default_str();
  cli.add_option("-o,--output", f.output,
                 "write the clusters to FILE (default: out.<input's file name>.I<inflation> in the current folder, "
                 "mcl's name); the file appears only once complete")
      ->type_name("FILE");
  f.prune = cli.add_option("-P", f.mcl.prune_number,
                           "prune: entries below 1/P of a column are dropped after each expansion (0: none)")
                ->type_name("N")
                ->check(whole_number_in(0, INT64_MAX))
                ->capture_default_str();
  f.select = cli.add_option("-S", f.mcl.select_number, "select: at most S entries are kept per column (0: no limit)")
                 ->type_name("N")
                 ->check(whole_number_in(0, INT64_MAX))
                 ->capture_default_str();
  f.recover = cli.add_option("-R", f.mcl.recover_number,
                             "recover: up to R pruned entries come back to a column whose kept mass fell below "
                             "--pct percent (0: none)")
                  ->type_name("N")
                  ->check(whole_number_in(0, INT64_MAX))
                  ->capture_default_str();
  f.percent = cli.add_option("--pct", f.mcl.recover_percent,
                             "recover percentage (mcl's -pct), from 0 to 100")
                  ->type_name("N")
                  ->check(whole_number_in(0, 100))
                  ->capture_default_str();
  cli.add_option("--scheme", f.scheme,
                 "mcl's -scheme k, 1 to 7: the preset -P/-S/-R/-pct (1: 3000/400/500/90, 2: 4000/500/600/90, 3: "
                 "5000/600/700/90, 4: 6000/700/800/90, 5: 7000/800/900/90, 6: 10000/1100/1400/90, the defaults, "
                 "7: 10000/1200/1600/90); -P, -S, -R or -pct given as well override its value, in any order")
      ->type_name("K")
      ->check(whole_number_in(1, 7));
  cli.add_option("-L", f.mcl.max_iterations,
                 "stop after N iterations even if the matrix has not settled; the clusters are read from the last "
                 "matrix, as mcl does, and stderr says so")
      ->type_name("N")
      ->check(whole_number_in(1, INT64_MAX))
      ->capture_default_str();
  add_backend_option(cli, f.backend);
  cli.add_option("--memory-budget", f.mcl.memory_budget,
                 "bytes one part of the expansion may use (K, M, G suffixes for powers of 1024, as in 512M): on "
                 "the GPU the device memory of the tiles' scratch and stage, or of a row panel (default: half "
                 "of what is free, at most 8G); under mpirun "
                 "each rank's host memory for the iterate replicated on every rank, past which the expansion "
                 "runs in phases of that size (default: a quarter of the host's memory shared among its "
                 "ranks); the CPU backend, which prunes each row as it is produced, needs none")
      ->type_name("BYTES")
      ->transform(CLI::AsSizeValue(false).description(""));
}

// The options after -scheme: its preset, then the flags given explicitly on top of it.
MclOptions effective_options(const Flags& f) {
  if (f.scheme == 0) return f.mcl;
  MclOptions o = algorithms::mcl_scheme(f.scheme, f.mcl);
  if (f.prune->count()) o.prune_number = f.mcl.prune_number;
  if (f.select->count()) o.select_number = f.mcl.select_number;
  if (f.recover->count()) o.recover_number = f.mcl.recover_number;
  if (f.percent->count()) o.recover_percent = f.mcl.recover_percent;
  return o;
}

// mcl's output name when -o is not given (mcl's make_output_name): "out.", the input's file
// name without its folders (so the file lands in the current folder), then ".I" and the
// inflation as mcl keeps it, a float, printed with one decimal and the point dropped:
// out.g.abc.I20 for -I 2, I14 for 1.4, I25 for 2.5, I100 for 10, I05 for 0.5, and I15 for
// 1.55 (whose float is 1.5499999523). Checked against mcl 22-282.
std::string mcl_output_name(const std::string& input, double inflation) {
  char number[48];
  std::snprintf(number, sizeof number, "%.1f", static_cast<double>(static_cast<float>(inflation)));
  std::string digits;
  for (const char* c = number; *c; ++c)
    if (*c != '.') digits += *c;
  return "out." + input.substr(input.find_last_of('/') + 1) + ".I" + digits;
}

// One stderr line per iteration, as mcl prints one: chaos, seconds, entries kept and, on the
// GPU, the most device memory spgraph held since the line before (the first: since the start,
// building the graph included). The header comes with the first line, so a failure before
// it is the only line on stderr.
class Progress {
 public:
  explicit Progress(bool gpu) : gpu_(gpu) { take_gpu_peak(); }
  void operator()(const MclIteration& step) {
    if (step.iteration == 1)
      std::fprintf(stderr, "%5s %11s %10s %12s %12s\n", "ite", "chaos", "seconds", "entries", "gpu-peak");
    std::string peak = "-";
    if (gpu_) {
      const std::size_t bytes = take_gpu_peak();
      peak_ = std::max(peak_, bytes);
      peak = format_gpu_bytes(bytes);
    }
    std::fprintf(stderr, "%5d %11.4g %10.4g %12lld %12s\n", step.iteration, step.chaos, step.seconds,
                 static_cast<long long>(step.entries), peak.c_str());
  }
  std::size_t peak() const { return peak_; }

  // The most GPU memory spgraph held since the last call, and a new count from here (none in a
  // build without the GPU backend, where gpu_ is never true).
  std::size_t take_gpu_peak() {
#if SPGRAPH_HAVE_GPU
    if (!gpu_) return 0;
    const std::size_t bytes = device::memory_stats().peak;
    device::reset_peak();
    return bytes;
#else
    return 0;
#endif
  }
  static std::string format_gpu_bytes(std::size_t bytes) {
#if SPGRAPH_HAVE_GPU
    return device::format_bytes(bytes);
#else
    return std::to_string(bytes) + " B";
#endif
  }

 private:
  bool gpu_;
  std::size_t peak_ = 0;
};

void write_clusters(io::AtomicFile& out, const io::LoadedGraph& graph,
                    const std::vector<std::vector<vid_t>>& clusters) {
  const vid_t n = graph.matrix.nrows;
  for (const std::vector<vid_t>& cluster : clusters) {
    for (std::size_t k = 0; k < cluster.size(); ++k) {
      if (cluster[k] < 0 || cluster[k] >= n)
        throw Error("the algorithm returned vertex " + std::to_string(cluster[k]) + " of a graph of " +
                    std::to_string(n) + " vertices");
      std::fprintf(out.file(), "%s%s", k ? "\t" : "", graph.vertex_name(cluster[k]).c_str());
    }
    std::fputc('\n', out.file());  // stdio buffers; commit() reports a failed write
  }
  out.commit();
}

std::string settings(const MclOptions& o, int scheme) {
  char text[256];
  std::snprintf(text, sizeof text, "-I %g -P %lld -S %lld -R %lld -pct %d -L %lld", o.inflation,
                static_cast<long long>(o.prune_number), static_cast<long long>(o.select_number),
                static_cast<long long>(o.recover_number), o.recover_percent, static_cast<long long>(o.max_iterations));
  return text + (scheme ? " (-scheme " + std::to_string(scheme) + ")" : std::string());
}

int mcl_main(Command& cmd) {
  Flags f;
  declare(cmd.cli(), f);
  cmd.add_timings_option();
  cmd.parse();
  if (f.output == "-")
    throw UsageError("-o -: the clusters cannot go to stdout here, which carries the report; give a file name");
  if (f.abc) f.input.load.format = io::GraphFormat::Abc;
  const MclOptions options = effective_options(f);
  const std::string output = f.output.empty() ? mcl_output_name(f.input.path, options.inflation) : f.output;

  // Opened first, so an unwritable path fails before the work; under mpirun rank 0 alone writes.
  std::optional<io::AtomicFile> out;
  if (mpi_job().root()) out.emplace(output);

  const StartedRun run = start_backend_and_load(cmd.name(), f.backend, f.input, "Markov clustering", cmd.timings());
  const SelectedBackend& backend = run.backend;
  const io::LoadedGraph& graph = run.graph;
  const double load_seconds = run.load_seconds;
  std::printf("graph: %s: %s\n", f.input.path.c_str(), describe(graph).c_str());
  std::printf("settings: %s\n", settings(options, f.scheme).c_str());
  std::fflush(stdout);  // before the progress lines on stderr

  const bool gpu = backend.backend == algorithms::Backend::Gpu || backend.backend == algorithms::Backend::DistributedGpu;
  Progress progress(gpu);
  WallTimer run_timer;
  const MclResult r = run_on(backend, [&] {
    return algorithms::mcl(backend.backend, graph.matrix, options, [&](const MclIteration& s) {
      if (mpi_job().root()) progress(s);
    });
  });
  // The result times its phases; the rest of the call is building: the upload and the start
  // matrix (r.build_seconds).
  const double build_seconds = std::max(0.0, run_timer.seconds() - r.iterate_seconds - r.interpret_seconds);
  WallTimer write_timer;
  if (out) write_clusters(*out, graph, r.clusters);
  const double write_seconds = write_timer.seconds();
  cmd.timings().add(Phase::Build, build_seconds);
  cmd.timings().add(Phase::Compute, r.iterate_seconds + r.interpret_seconds);
  cmd.timings().add(Phase::Write, write_seconds);

  if (!mpi_job().root()) return 0;  // rank 0 reports
  std::string outcome = r.converged ? "converged" : "not converged";
  if (!r.converged) {
    char chaos[32];
    std::snprintf(chaos, sizeof chaos, "%.4g", r.final_chaos);
    std::fprintf(stderr,
                 "mcl: stopped at the iteration limit (-L %lld) with chaos %s, not below 1e-4; the clusters are "
                 "read from the last matrix, as mcl does\n",
                 static_cast<long long>(options.max_iterations), chaos);
    outcome += " (stopped at -L " + std::to_string(options.max_iterations) + ")";
  }
  const std::size_t k = r.clusters.size();
  std::string summary = "mcl: " + std::to_string(k) + (k == 1 ? " cluster" : " clusters") + " written to " + output +
                        "; " + std::to_string(r.iterations) + " iterations, " + outcome + "; time: load " +
                        format_seconds(load_seconds) + ", build " + format_seconds(build_seconds) + ", iterate " +
                        format_seconds(r.iterate_seconds) + ", interpret " + format_seconds(r.interpret_seconds) +
                        ", write " + format_seconds(write_seconds) + "; backend " + algorithms::to_string(backend.backend);
  if (gpu) summary += ", peak GPU memory " + Progress::format_gpu_bytes(progress.peak());
  std::fprintf(stderr, "%s\n", summary.c_str());
  return 0;
}

// mcl spells some multi-letter options with one dash (-pct, -scheme), which CLI11 reads as a
// run of one-letter flags; they get a second dash before parsing ("-pct 80" becomes
// "--pct 80", "-scheme=3" "--scheme=3"). Nothing after a "--" is touched.
std::vector<std::string> with_mcl_spellings(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  for (std::size_t i = 1; i < args.size() && args[i] != "--"; ++i)
    for (const char* name : {"-pct", "-scheme"})
      if (args[i] == name || args[i].rfind(std::string(name) + "=", 0) == 0) args[i].insert(0, "-");
  return args;
}

}  // namespace
}  // namespace spgraph::apps

int main(int argc, char** argv) {
  std::vector<std::string> args = spgraph::apps::with_mcl_spellings(argc, argv);
  std::vector<char*> pointers;
  for (std::string& a : args) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  return spgraph::apps::run_app("mcl", argc, pointers.data(), spgraph::apps::mcl_main);
}
