// Markov clustering (spgraph/algorithms/mcl.hpp) on the GPU against van Dongen's `mcl` program
// (release 22-282, Debian's package) on every host core, on the same graphs with the same
// parameters (-I 2.0, the default scheme). For each input:
//
//   ours (gpu)  the graph uploaded (weighted<double>), then one checked run (its clusters kept, its
//               peak device memory above the uploaded graph), --warmup untimed runs and the median
//               of --repeats runs of the whole algorithm (build + iterate + interpret, CUDA events,
//               as MclResult reports them), the iterations' median beside it; every run must give
//               the checked run's clusters in as many iterations
//   ours (cpu)  with --cpu: the same on the GraphBLAS backend (every host core), one checked run
//               and the median of --cpu-repeats runs
//   mcl         the graph written as mcl's label input (.abc: labels our vertex ids, weights as
//               loaded, a vertex in no link given a loop line so that mcl knows it; mcl drops
//               input loops, so it is a singleton there as here) into a temporary folder, then
//               `mcl FILE --abc -I 2.0 -te THREADS -o OUT` as a child process, timed by the
//               wall clock from start to exit (reading, clustering, writing), killed after
//               --mcl-timeout seconds; its iterations read from its stderr (the last row of its
//               `ite` table), its clusters from OUT (labels mapped back to vertex ids)
//
// Then the adjusted Rand index of ours against mcl's clusters, and mcl's time over ours. mcl is
// not run on generated graphs (it would take too long), nor on cnr-2000 unless --mcl-on-cnr
// (one device call has 10 minutes for everything; web-NotreDame alone takes mcl 155 s on 16
// cores). Exit status 1 when a run of ours or mcl failed, ours differs from mcl's clusters
// (ARI < 0.99) where mcl ran, or an input could not be completed; an mcl run killed at
// --mcl-timeout is reported (table, summary, JSON) but is not a failure.
//
//   bench_mcl [graph files] [--data-dir DIR] [--hep-th FILE] [--generated cit-patents | --no-generated]
//             [--warmup 1] [--repeats 3] [--cpu [--cpu-repeats 1]] [--mcl PATH] [--mcl-threads N]
//             [--mcl-timeout 600] [--mcl-on-cnr] [--mcl-logs DIR] [--no-mcl] [--json FILE]
//
// Across ranks (issue 43), on web-NotreDame, cnr-2000 and the cit-Patents-like graph unless
// files are named, and with --beyond-one-gpu a graph whose first expansion passes one GPU:
//
//   bench_mcl --gpus 1,2,4 [--ranks-on auto|gpu|cpu] [--beyond-one-gpu] [--mpirun-args ...]
//             [--combblas PATH] ...
//
// For each input: a job alone (the one-process backend) and a job of mpirun -n P for each P
// (dist::Backend), then mcl; the table and JSON give each job's time an iteration, phases,
// bytes moved, peak memory and ARI against the job alone and mcl (the section "across ranks").
// With --combblas PATH (bench/combblas/hipmcl_anchor, built with -DSPGRAPH_COMBBLAS=ON): HipMCL's
// algorithm on CombBLAS 1.6.2 under the same mpirun at each P that is a square (P = 2 is skipped,
// saying why), on the host's CPU cores, its rows beside ours: time, iterations, phases, peak
// memory, clusters and ARI against the job alone and mcl (not held to 0.99: HipMCL prunes and
// interprets otherwise); a run that fails, does not converge or whose clusters are not a
// partition of the vertices is a failure.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cuda_runtime_api.h>
#include <sys/resource.h>

#include "bench_cli.hpp"
#include "bench_inputs.hpp"
#include "child_process.hpp"
#include "json_output.hpp"
#include "mcl_program.hpp"
#include "mpi_job_flags.hpp"
#include "mpi_jobs.hpp"
#include "spgraph/algorithms/cluster_agreement.hpp"
#include "spgraph/algorithms/mcl.hpp"
#include "spgraph/config.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/backend.hpp"
#include "spgraph/graph.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/graphblas/backend.hpp"
#include "spgraph/io/csr_cache.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "table.hpp"
#include "timed_runs.hpp"
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/containers.hpp"
#include "spgraph/dist/mpi_communicator.hpp"
#include "spgraph/dist/mpi_session.hpp"
#include "spgraph/dist/process_grid.hpp"
#include "spgraph/dist/pruned_product.hpp"
#endif

namespace {

using namespace spgraph;
using algorithms::MclResult;
using bench::MclRun;
using bench::TempDir;
using nlohmann::json;
namespace fs = std::filesystem;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr double kInflation = 2.0;  // mcl -I; the rest is mcl's default scheme (MclOptions' defaults)
constexpr double kAriAim = 0.99;
constexpr double kSpeedupAim = 50;
constexpr const char* kCnr = "cnr-2000";
// The defaults run cheapest first, so that a call cut short has the most comparisons done.
constexpr const char* kInputOrder[] = {"hep-th", "email-Enron", "cit-HepPh", "web-NotreDame", kCnr};

// The timings of `mcl -te 16 -I 2.0` on the GPU machine; aims: ours kSpeedupAim times
// faster with ARI >= kAriAim where `aim` is set. -1: not given.
struct Reference {
  const char* input;
  double mcl_s;
  std::int64_t clusters;
  int iterations;
  bool aim;
};
constexpr Reference kReferences[] = {{"hep-th", 0.27, -1, -1, false},
                                     {"email-Enron", 6.27, 2474, -1, true},
                                     {"cit-HepPh", 8.86, 3898, -1, true},
                                     {"web-NotreDame", 155, 42278, 31, true}};

const Reference* reference(const std::string& input) {
  for (const auto& r : kReferences)
    if (input == r.input) return &r;
  return nullptr;
}

struct Options {
  bench::InputOptions inputs;
  std::string hep_th;  // added in front of the default real graphs; "" for none
  bench::TimingOptions timing;
  bool cpu = false;
  int cpu_repeats = 1;
  std::size_t memory_budget = 0;  // MclOptions::memory_budget (0: MCL's default)
  bench::MclProgram mcl;  // path empty: not run
  bool mcl_on_cnr = false;
  std::string json_path;
  // Across ranks (--gpus): the jobs, and the graph beyond one GPU (one GPU's memory: 0 for this
  // host's, else an H200's).
  bench::JobFlags jobs;
  bool no_real = false;  // not the default real graphs
  bool beyond_one_gpu = false;
  int beyond_times = 0;  // how much larger; 0: by the estimate
  double one_gpu_gib = 0;
  std::string combblas;  // --combblas: bench/combblas/hipmcl_anchor, run at each square P; "" for none
  // A job's own: alone (the one-process backend, no MPI) or a rank of a job, on one input.
  bool alone = false;
  std::string job_input, job_name;
};

// mcl -I kInflation and its default scheme; memory_budget as --memory-budget says (0: MCL's own).
algorithms::MclOptions mcl_options(std::size_t memory_budget) {
  algorithms::MclOptions o;
  o.inflation = kInflation;
  o.memory_budget = memory_budget;
  return o;
}

// ---- ours

// Ours on one backend: runs.first is the checked run, runs.peak_bytes its peak device memory
// above the uploaded graph (GPU), runs.status "ok", why a repeat differed or "failed: ...".
struct Ours {
  std::string backend;  // "gpu" or "cpu"
  bench::TimedRuns<MclResult> runs;
  bool ran = false;  // the checked run finished
  double iterate_median_s = kNaN;
  double ari = kNaN;      // against mcl's clusters
  double ari_gpu = kNaN;  // cpu: against the GPU's clusters
  const std::string& status() const { return runs.status; }
  const MclResult& first() const { return runs.first; }
  bool timed() const { return ran && runs.status == "ok"; }
  double speedup(const MclRun& m) const { return timed() && m.ok() ? m.seconds / runs.median_s : kNaN; }
};

double total_seconds(const MclResult& r) { return r.build_seconds + r.iterate_seconds + r.interpret_seconds; }

std::string differs(const MclResult& again, const MclResult& first, int run) {
  if (again.clusters == first.clusters && again.iterations == first.iterations) return "";
  return "differs: run " + std::to_string(run) + " gave " + std::to_string(again.clusters.size()) + " clusters in " +
         std::to_string(again.iterations) + " iterations, the first " + std::to_string(first.clusters.size()) +
         " in " + std::to_string(first.iterations);
}

// Ours by `run`, one MCL on a graph whose weights its backend holds already (see time_ours).
// Exceptions reach the caller: a rank of a job must not go on past a failure that its other
// ranks do not share.
Ours timed_ours(const std::string& backend, const std::function<MclResult()>& run, int warmup, int repeats, bool gpu) {
  Ours r;
  r.backend = backend;
  std::vector<double> iterate_s;  // of the timed runs
  r.runs = bench::timed_runs(
      run,
      [&](const MclResult& m) {
        iterate_s.push_back(m.iterate_seconds);
        return total_seconds(m);
      },
      differs, warmup, repeats, gpu);
  r.ran = true;
  if (r.timed()) r.iterate_median_s = bench::median(iterate_s);
  return r;
}

// Ours on one process's backend; a failure is in the status.
template <class B>
Ours time_ours(Graph<B>& g, const std::string& backend, int warmup, int repeats, bool gpu, std::size_t memory_budget) {
  try {
    g.template weighted<double>();  // what MCL reads (its values are double), uploaded before the
                                    // checked run so that its peak is MCL's own
    const algorithms::MclOptions options = mcl_options(memory_budget);
    return timed_ours(backend, [&] { return algorithms::mcl(g, options); }, warmup, repeats, gpu);
  } catch (const std::exception& e) {
    Ours r;
    r.backend = backend;
    r.runs.status = bench::failure(e);
    return r;
  }
}

// ---- one input

struct InputResult {
  std::string name, source;
  vid_t vertices = 0;
  eid_t links = 0;
  eid_t edges = 0;  // undirected, without loops: what mcl clusters
  std::vector<Ours> ours;  // gpu, then cpu
  MclRun mcl;
  const Ours* gpu() const { return ours.empty() ? nullptr : &ours.front(); }
};

// Why mcl is not run on an input, or "".
std::string mcl_skipped(const std::string& input, bool generated, const Options& options) {
  if (options.mcl.path.empty()) return "--no-mcl";
  if (generated) return "a generated graph: mcl would take too long; ours on the GPU alone";
  if (input == kCnr && !options.mcl_on_cnr)
    return "mcl might outlast the device call's 10 minutes on it (--mcl-on-cnr runs it)";
  return "";
}

std::string ms(double s) { return bench::fixed(s * 1e3, 1); }
std::string mib(std::size_t bytes) { return bench::fixed(bytes / double(1 << 20), 1); }

void print_ours(const Ours& r, std::ostream& out) {
  out << "ours (" << r.backend << "): ";
  if (!r.ran) {
    out << r.status() << '\n';
    return;
  }
  const MclResult& f = r.first();
  out << f.iterations << " iterations (" << (f.converged ? "converged" : "NOT converged") << ", chaos "
      << bench::scientific(f.final_chaos) << "), " << f.clusters.size() << " clusters";
  if (r.runs.peak_bytes) out << ", peak " << mib(*r.runs.peak_bytes) << " MiB";
  if (r.timed())
    out << "; median " << ms(r.runs.median_s) << " ms (iterate " << ms(r.iterate_median_s) << " ms; checked run: build "
        << ms(f.build_seconds) << " + iterate " << ms(f.iterate_seconds) << " + interpret "
        << ms(f.interpret_seconds) << " ms)";
  if (r.status() != "ok") out << "; " << r.status();
  out << '\n' << std::flush;
}

InputResult bench_input(const bench::BenchInput& host_input, bool generated, const Options& options, bool gpu,
                        const std::string& no_gpu, const TempDir& dir, std::ostream& out) {
  const Csr<double>& host = host_input.graph;
  InputResult in{.name = host_input.name,
                 .source = host_input.source,
                 .vertices = host.nrows,
                 .links = host.nnz(),
                 .edges = symmetrize(remove_self_loops(host)).nnz() / 2,
                 .ours = {},
                 .mcl = {}};

  if (gpu) {
    Graph<gpu::GpuBackend> g(host);
    in.ours.push_back(time_ours(g, "gpu", options.timing.warmup, options.timing.repeats, true, options.memory_budget));
  } else {
    Ours none;
    none.backend = "gpu";
    none.runs.status = "failed: no GPU: " + no_gpu;
    in.ours.push_back(none);
  }
  print_ours(in.ours.back(), out);
  if (options.cpu) {
    Graph<graphblas::GraphBlasBackend> g(host);
    in.ours.push_back(time_ours(g, "cpu", 0, options.cpu_repeats, false, options.memory_budget));
    print_ours(in.ours.back(), out);
  }

  if (const std::string why = mcl_skipped(in.name, generated, options); !why.empty()) {
    in.mcl.status = "skipped: " + why;
  } else {
    in.mcl = bench::run_mcl(options.mcl, host, in.name, kInflation, dir);
  }
  out << "mcl: ";
  if (in.mcl.ok())
    out << bench::fixed(in.mcl.seconds, 2) << " s, " << in.mcl.log.iterations << " iterations, "
        << in.mcl.clusters.size() << " clusters, jury " << in.mcl.log.jury << '\n';
  else
    out << in.mcl.status << '\n';

  const Ours* on_gpu = in.gpu();
  for (auto& r : in.ours) {
    if (!r.ran) continue;
    const auto mine = algorithms::cluster_of_each_vertex(r.first().clusters, in.vertices);
    if (in.mcl.ok()) r.ari = algorithms::adjusted_rand_index(mine, in.mcl.cluster_of);
    if (&r != on_gpu && on_gpu->ran)
      r.ari_gpu = algorithms::adjusted_rand_index(
          mine, algorithms::cluster_of_each_vertex(on_gpu->first().clusters, in.vertices));
  }
  return in;
}

// Whether the input ran as it should: ours without failure on every backend, mcl without failure,
// and ours agreeing with mcl's clusters (ARI >= kAriAim) wherever mcl ran.
bool input_bad(const InputResult& in) {
  bool bad = in.mcl.failed();
  for (const auto& r : in.ours) bad |= r.status() != "ok" || (!std::isnan(r.ari) && r.ari < kAriAim);
  return bad;
}

// ---- output

void add_rows(bench::Table& table, const InputResult& in) {
  const MclRun& m = in.mcl;
  const std::string mcl_s = m.ok() ? bench::fixed(m.seconds, 2) : m.status.substr(0, m.status.find(':'));
  bool first = true;
  for (const auto& r : in.ours) {
    std::vector<std::string> cells = {first ? in.name : "", r.backend, first ? bench::count(in.vertices) : "",
                                      first ? bench::count(in.edges) : ""};
    cells.insert(cells.end(), {r.timed() ? ms(r.runs.median_s) : "-", r.timed() ? ms(r.iterate_median_s) : "-"});
    if (r.ran)
      cells.insert(cells.end(), {std::to_string(r.first().iterations) + (r.first().converged ? "" : "!"),
                                 std::to_string(r.first().clusters.size())});
    else
      cells.insert(cells.end(), {"-", "-"});
    cells.push_back(r.runs.peak_bytes ? mib(*r.runs.peak_bytes) : "-");
    cells.insert(cells.end(), {mcl_s, m.ok() ? std::to_string(m.log.iterations) : "-",
                               m.ok() ? std::to_string(m.clusters.size()) : "-", bench::fixed(r.ari, 4),
                               bench::times(r.speedup(m))});
    std::string check = r.status();
    if (!std::isnan(r.ari) && r.ari < kAriAim) check = "ARI below " + bench::fixed(kAriAim, 2);
    if (r.ran && !r.first().converged) check += " (not converged)";
    if (first && m.failed()) check += "; mcl " + m.status;
    cells.push_back(check);
    table.add_row(cells);
    first = false;
  }
}

// The inputs from `first` on, a row per backend.
void print_table(const std::vector<InputResult>& inputs, std::size_t first, std::ostream& out) {
  bench::Table table({"input", "backend", "vertices", "edges", "ours ms", "iterate ms", "iterations", "clusters",
                      "peak MiB", "mcl s", "mcl iterations", "mcl clusters", "ARI", "speedup", "check"});
  for (std::size_t i = first; i < inputs.size(); ++i) add_rows(table, inputs[i]);
  table.print(out);
}

json ours_json(const Ours& r, const MclRun& m) {
  json j = {{"backend", r.backend}, {"status", r.status()}};
  if (r.ran)
    j.update({{"iterations", r.first().iterations},
              {"clusters", r.first().clusters.size()},
              {"converged", r.first().converged},
              {"final_chaos", r.first().final_chaos},
              {"checked_run", {{"build_s", r.first().build_seconds},
                               {"iterate_s", r.first().iterate_seconds},
                               {"interpret_s", r.first().interpret_seconds}}}});
  if (r.timed())
    j.update({{"median_s", r.runs.median_s},
              {"min_s", r.runs.min_s},
              {"iterate_median_s", r.iterate_median_s},
              {"wall_median_s", r.runs.wall_median_s}});
  if (r.runs.peak_bytes) j["peak_device_bytes"] = *r.runs.peak_bytes;
  if (!std::isnan(r.ari)) j["ari_vs_mcl"] = r.ari;
  if (!std::isnan(r.ari_gpu)) j["ari_vs_gpu"] = r.ari_gpu;
  if (!std::isnan(r.speedup(m))) j["mcl_over_ours"] = r.speedup(m);
  return j;
}

json mcl_json(const MclRun& m) {
  json j = {{"status", m.status}};
  if (!std::isnan(m.seconds)) j["seconds"] = m.seconds;
  if (m.ok()) j.update({{"iterations", m.log.iterations}, {"clusters", m.clusters.size()}, {"jury", m.log.jury}});
  return j;
}

json parameters_json(const Options& options) {
  return {{"inflation", kInflation},
          {"scheme", "mcl's default (-P 10000 -S 1100 -R 1400 -pct 90)"},
          {"memory_budget", options.memory_budget}};
}

json mcl_program_json(const Options& options) {
  return {{"path", options.mcl.path},
          {"version", options.mcl.path.empty() ? "" : bench::kMclVersion},
          {"threads", options.mcl.threads},
          {"timeout_s", options.mcl.timeout_s},
          {"on_cnr", options.mcl_on_cnr}};
}

json input_json(const InputResult& in) {
  json ours = json::array();
  for (const auto& r : in.ours) ours.push_back(ours_json(r, in.mcl));
  json j = {{"input", in.name}, {"source", in.source}, {"vertices", in.vertices}, {"links", in.links},
            {"undirected_edges", in.edges}, {"ours", ours}, {"mcl", mcl_json(in.mcl)}};
  if (const Reference* ref = reference(in.name)) {
    j["reference_mcl"] = {{"seconds", ref->mcl_s}, {"threads", 16}};
    if (ref->clusters >= 0) j["reference_mcl"]["clusters"] = ref->clusters;
    if (ref->iterations >= 0) j["reference_mcl"]["iterations"] = ref->iterations;
  }
  return j;
}

const InputResult* find_input(const std::vector<InputResult>& inputs, const std::string& name) {
  for (const auto& in : inputs)
    if (in.name == name) return &in;
  return nullptr;
}

// The aims of the issue, as bench_tricount prints its targets: ours on the GPU kSpeedupAim times
// faster than the reference mcl time and than mcl in this run, ARI >= kAriAim; cnr-2000 completes.
void print_aims(const std::vector<InputResult>& inputs, int mcl_threads, std::ostream& out, json& summary) {
  out << "\naims (ours on the GPU, the whole algorithm, median; reference: `mcl -te 16 -I 2.0` on the GPU machine;\n"
      << "aim: " << kSpeedupAim << "x faster than mcl with ARI >= " << bench::fixed(kAriAim, 2) << "):\n";
  json aims = json::array();
  for (const Reference& ref : kReferences) {
    const InputResult* in = find_input(inputs, ref.input);
    const Ours* r = in ? in->gpu() : nullptr;
    if (!ref.aim || !r) continue;
    const MclRun& m = in->mcl;
    if (!r->timed()) {
      out << "  " << ref.input << ": ours " << r->status() << ": not met\n";
      aims.push_back({{"input", ref.input}, {"met", false}, {"status", r->status()}});
      continue;
    }
    const double aim_s = ref.mcl_s / kSpeedupAim;
    const bool met_ref = r->runs.median_s <= aim_s;
    out << "  " << ref.input << ": " << ms(r->runs.median_s) << " ms, aim <= " << ms(aim_s) << " ms (mcl's "
        << bench::fixed(ref.mcl_s, 2) << " s / " << kSpeedupAim << "): " << (met_ref ? "met" : "not met") << "; "
        << bench::times(ref.mcl_s / r->runs.median_s) << " the reference\n";
    json j = {{"input", ref.input}, {"seconds", r->runs.median_s}, {"aim_seconds", aim_s}, {"met_vs_reference", met_ref},
              {"speedup_vs_reference", ref.mcl_s / r->runs.median_s}};
    if (m.ok()) {
      const bool met_run = r->speedup(m) >= kSpeedupAim, met_ari = r->ari >= kAriAim;
      out << "    mcl in this run (" << mcl_threads << " threads): " << bench::fixed(m.seconds, 2) << " s, "
          << bench::times(r->speedup(m)) << ": " << (met_run ? "met" : "not met") << "; ARI "
          << bench::fixed(r->ari, 4) << ": " << (met_ari ? "met" : "not met") << "; mcl " << m.clusters.size()
          << " clusters in " << m.log.iterations << " iterations";
      if (ref.clusters >= 0 || ref.iterations >= 0)
        out << " (reference" << (ref.clusters >= 0 ? " " + std::to_string(ref.clusters) + " clusters" : "")
            << (ref.iterations >= 0 ? " " + std::to_string(ref.iterations) + " iterations" : "") << ")";
      out << ", ours " << r->first().clusters.size() << " in " << r->first().iterations << '\n';
      j.update({{"mcl_seconds", m.seconds}, {"speedup_vs_mcl", r->speedup(m)}, {"met_vs_mcl", met_run},
                {"ari", r->ari}, {"met_ari", met_ari}});
    } else {
      out << "    mcl in this run: " << m.status << "\n";
    }
    aims.push_back(j);
  }
  if (const InputResult* in = find_input(inputs, kCnr)) {
    const Ours* r = in->gpu();
    const bool met = r && r->timed() && r->first().converged;
    out << "  " << kCnr << " completes: " << (met ? "met" : "not met") << " ("
        << (r && r->timed() ? ms(r->runs.median_s) + " ms, " + std::to_string(r->first().iterations) + " iterations" +
                                  (r->first().converged ? ", converged" : ", NOT converged")
                            : r ? r->status() : "not run")
        << ")\n";
    aims.push_back({{"input", kCnr}, {"completes", met}});
  }
  if (aims.empty()) out << "  (no aim input ran)\n";
  summary["aims"] = aims;
}

std::vector<bench::InputSpec> resolve(const Options& options, std::ostream& out) {
  std::vector<bench::InputSpec> specs = bench::resolve_inputs(options.inputs, out);
  if (!options.inputs.files.empty()) return specs;  // as named
  if (!options.hep_th.empty()) {
    if (fs::exists(options.hep_th)) specs.insert(specs.begin(), {"hep-th", options.hep_th, ""});
    else out << "hep-th: " << options.hep_th << " not found (--hep-th)\n";
  }
  auto rank = [](const bench::InputSpec& s) {
    return std::find(std::begin(kInputOrder), std::end(kInputOrder), s.name) - std::begin(kInputOrder);
  };
  std::stable_sort(specs.begin(), specs.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  return specs;
}

int run(const Options& options, std::ostream& out) {
  const std::vector<bench::InputSpec> specs = resolve(options, out);
  std::string no_gpu;
  const bool gpu = device::gpu_available(&no_gpu);
  const TempDir dir("spgraph-bench-mcl");
  if (!options.mcl.path.empty()) bench::check_mcl_version(options.mcl.path, dir);
  if (!options.mcl.logs.empty()) fs::create_directories(options.mcl.logs);

  out << "spgraph Markov clustering benchmark on " << (gpu ? device::device_description() : "no GPU: " + no_gpu)
      << "\nparameters: -I " << bench::fixed(kInflation, 1) << ", mcl's default scheme (-P 10000 -S 1100 -R 1400 "
      << "-pct 90), chaos < 1e-4\n"
      << "ours (gpu): build + iterate + interpret as MclResult reports them (CUDA events), median (and min) of "
      << options.timing.repeats << " runs after a checked run and " << options.timing.warmup
      << " warm-ups; the graph uploaded first, untimed\n";
  if (options.cpu)
    out << "ours (cpu): the GraphBLAS backend on " << std::thread::hardware_concurrency()
        << " host cores, the same times, median of " << options.cpu_repeats << " runs after a checked run\n";
  if (options.mcl.path.empty())
    out << "mcl: not run (--no-mcl)\n";
  else
    out << "mcl: " << options.mcl.path << " (" << bench::kMclVersion << ") -te " << options.mcl.threads
        << ", wall clock of the process (reading the .abc, clustering, writing), killed after "
        << bench::fixed(options.mcl.timeout_s, 0) << " s; not on generated graphs"
        << (options.mcl_on_cnr ? "" : std::string(", nor on ") + kCnr + " (--mcl-on-cnr)") << '\n';
  out << "edges: undirected, without loops (what both cluster); peak MiB: device memory above the uploaded\n"
      << "  graph during the checked run; ARI: adjusted Rand index of ours against mcl's clusters; speedup:\n"
      << "  mcl's time over ours; iterations marked ! did not converge.\n";

  std::vector<InputResult> inputs;
  json failed_inputs = json::array();
  bench::for_each_input(specs, out, failed_inputs, [&](const bench::BenchInput& host) {
    const bool generated = std::any_of(specs.begin(), specs.end(),
                                       [&](const auto& s) { return s.name == host.name && !s.preset.empty(); });
    inputs.push_back(bench_input(host, generated, options, gpu, no_gpu, dir, out));
    print_table(inputs, inputs.size() - 1, out);
  });
  const bool bad = std::any_of(inputs.begin(), inputs.end(), input_bad);

  out << "\n== summary: ours against mcl (" << options.mcl.threads << " threads)\n";
  print_table(inputs, 0, out);
  for (const auto& in : inputs)
    if (!in.mcl.ok() && !in.mcl.status.starts_with("not run")) out << "mcl on " << in.name << ": " << in.mcl.status << '\n';
  json summary;
  print_aims(inputs, options.mcl.threads, out, summary);
  if (bad) out << "FAILED RUNS OR CLUSTERS UNLIKE MCL'S: see the check column above\n";
  json results = json::array();
  for (const auto& in : inputs) results.push_back(input_json(in));
  json timing = bench::to_json(options.timing);
  timing["seconds"] = "build + iterate + interpret, by the algorithm (CUDA events on the GPU)";
  const json doc = {
      {"benchmark", "mcl"},
      {"timing", timing},
      {"parameters", parameters_json(options)},
      {"cpu", {{"run", options.cpu}, {"repeats", options.cpu_repeats}, {"host_cores", std::thread::hardware_concurrency()}}},
      {"mcl_program", mcl_program_json(options)},
      {"results", results}};
  return bench::finish_run(out, options.json_path, doc, failed_inputs, summary, bad);
}

// ---- across ranks: bench_mcl --gpus 1,2,4 (issue 43) ------------------------------------------
//
// The driver (mpi_jobs.hpp) writes each input once as a .spgcsr into its folder, then runs for
// it a job alone (this program without mpirun, on the one-process backend: the one-GPU
// baseline) and a job of each P (dist::Backend), each timing MCL as the one-GPU mode does; then
// mcl where it runs, and the adjusted Rand index of every job's clusters against the job alone
// and against mcl's. One job an input and P, so that an input that fails (out of memory) leaves
// the others measured.
#if SPGRAPH_HAVE_MPI

// An entry of the unpruned product held on one GPU: a 4-byte column and an 8-byte value
// (DeviceCsr<double>), offsets aside.
constexpr double kUnprunedEntryBytes = 12;
// One H200's memory (143771 MiB, as the GPU machine reports it): --beyond-one-gpu's aim where
// this host has no GPU.
constexpr double kH200Bytes = 143771.0 * (1 << 20);
constexpr double kRanksSpeedupAim = 3;  // 4 GPUs against one, cnr-2000 and cit-Patents-like
constexpr const char* kCitPatents = "cit-patents-like";
// The graphs, cheapest first (one GPU: 11 s, 75 s, 199 s), then any other.
constexpr const char* kRanksInputOrder[] = {"web-NotreDame", kCitPatents, kCnr};

// The bound on the entries of MCL's first expansion before pruning, T T with T the graph made
// symmetric with a loop on every vertex: row i has at most min(n, sum over its entries k of
// row k's length) entries, as dist/pruned_product.hpp sizes its phases. `sym`: symmetric,
// without loops. Later expansions, of iterates with up to 1400 entries a row, are larger.
double first_expansion_bound(const Csr<double>& sym) {
  const auto length = [&](vid_t k) { return double(sym.rowptr[k + 1] - sym.rowptr[k] + 1); };
  double total = 0;
  for (vid_t i = 0; i < sym.nrows; ++i) {
    double products = length(i);  // the loop's row
    for (eid_t p = sym.rowptr[i]; p < sym.rowptr[i + 1]; ++p) products += length(sym.col[p]);
    total += std::min(products, double(sym.nrows));
  }
  return total;
}

// One GPU's memory: --one-gpu-gib, else this host's first GPU's, else an H200's.
double one_gpu_bytes(double gib) {
  if (gib > 0) return gib * double(1 << 30);
  cudaDeviceProp p{};
  if (bench::host_gpus() > 0 && cudaGetDeviceProperties(&p, 0) == cudaSuccess) return double(p.totalGlobalMem);
  return kH200Bytes;
}

// The cit-Patents-like graph made k times larger (io::enlarged: more sites of the same shape, so
// the bound grows about k times): k = `times`, or where 0 the least whose first expansion's
// bound passes `gpu_bytes` by that growth from the graph of k = 1. The first expansion is the
// smallest, so this errs large (at k = 1 the bound is 8.6 GiB, while MCL's peak on one H200 is
// 27.2 GiB with 8 GiB panels: docs/performance/mcl.md).
bench::InputSpec beyond_one_gpu(int times, double gpu_bytes, std::ostream& out) {
  if (times > 0) return {std::string(kCitPatents) + " x" + std::to_string(times), "", "cit-patents", times};
  const bench::BenchInput base = bench::load_input({kCitPatents, "", "cit-patents", 1});
  const double bytes = kUnprunedEntryBytes * first_expansion_bound(symmetrize(remove_self_loops(base.graph)));
  const int k = int(std::floor(gpu_bytes / bytes)) + 1;
  out << "beyond one GPU: " << kCitPatents << "'s first expansion is bounded at " << bench::gib(std::size_t(bytes))
      << " unpruned (" << kUnprunedEntryBytes << " bytes an entry); one GPU has " << bench::gib(std::size_t(gpu_bytes))
      << (k > 1 ? ", so it is made " + std::to_string(k) + " times larger\n" : ", which it passes already\n");
  return {std::string(kCitPatents) + " x" + std::to_string(k), "", "cit-patents", k};
}

// The inputs of --gpus: the files named, else (unless --no-real) web-NotreDame and cnr-2000 in
// --data-dir, then the generated graphs and, with --beyond-one-gpu, the large one; the issue's
// cheapest first.
std::vector<bench::InputSpec> ranks_inputs(const Options& options, std::ostream& out) {
  bench::InputOptions in = options.inputs;
  if (in.files.empty() && !options.no_real) {
    for (const char* f : {"web-NotreDame.txt.gz", "cnr-2000.mtx.gz"}) {
      const fs::path p = fs::path(in.data_dir) / f;
      if (fs::exists(p)) in.files.push_back(p.string());
      else out << "data folder " << in.data_dir << ": " << f << " not found there\n";
    }
  }
  if (in.files.empty() && in.generated.empty() && !options.beyond_one_gpu)
    throw Error("no inputs: name graph files, or give --data-dir with web-NotreDame.txt.gz or cnr-2000.mtx.gz, or "
                "keep --generated, or add --beyond-one-gpu");
  std::vector<bench::InputSpec> specs;
  if (!in.files.empty() || !in.generated.empty()) specs = bench::resolve_inputs(in, out);
  auto rank = [](const bench::InputSpec& s) {
    return std::find(std::begin(kRanksInputOrder), std::end(kRanksInputOrder), s.name) - std::begin(kRanksInputOrder);
  };
  std::stable_sort(specs.begin(), specs.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  if (options.beyond_one_gpu)
    specs.push_back(beyond_one_gpu(options.beyond_times, one_gpu_bytes(options.one_gpu_gib), out));
  return specs;
}

// A job's clusters, the cluster of each vertex, as rank 0 writes them beside its rows.
std::string clusters_path(const bench::JobFlags& jobs) { return jobs.part_path + ".clusters"; }

void write_clusters(const std::string& path, const MclResult& r, vid_t n) {
  const std::vector<std::int64_t> of = algorithms::cluster_of_each_vertex(r.clusters, n);
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(of.data()), std::streamsize(of.size() * sizeof(of[0])));
  if (!f) throw Error(path + ": cannot write the clusters (" + std::strerror(errno) + ")");
}

std::vector<std::int64_t> read_clusters(const std::string& path, vid_t n) {
  std::vector<std::int64_t> of(static_cast<std::size_t>(n));
  std::ifstream f(path, std::ios::binary);
  f.read(reinterpret_cast<char*>(of.data()), std::streamsize(of.size() * sizeof(of[0])));
  if (!f || f.peek() != std::char_traits<char>::eof())
    throw Error(path + ": not the clusters of " + std::to_string(n) + " vertices");
  return of;
}

// The most memory this process has held (its peak resident set), in bytes.
double peak_host_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) * 1024;
}

bench::BenchInput job_input(const Options& options) {
  return bench::load_input({options.job_name, options.job_input, ""});
}

// The row every job writes: ours_json's fields, the time an iteration, where it ran.
json job_row(const Ours& r, int ranks, const std::string& grid, const std::string& ranks_on) {
  json row = ours_json(r, MclRun{});
  row.update({{"ranks", ranks}, {"grid", grid}, {"ranks_on", ranks_on}});
  if (r.timed()) row["seconds_per_iteration"] = r.iterate_median_s / std::max(1, r.first().iterations);
  return row;
}

// The job alone: MCL on the one-process backend, as a run without mpirun takes it.
int run_alone_job(const Options& options) {
  const bench::BenchInput in = job_input(options);
  const bool gpu = options.jobs.ranks_on == "gpu";
  Ours r;
  if (gpu) {
    Graph<gpu::GpuBackend> g(in.graph);
    r = time_ours(g, "gpu", options.timing.warmup, options.timing.repeats, true, options.memory_budget);
  } else {
    Graph<graphblas::GraphBlasBackend> g(in.graph);
    r = time_ours(g, "cpu", options.timing.warmup, options.timing.repeats, false, options.memory_budget);
  }
  print_ours(r, std::cout);
  json row = job_row(r, 0, "", gpu ? "gpu" : "cpu");
  row["peak_host_bytes"] = peak_host_bytes();
  if (r.ran) {
    write_clusters(clusters_path(options.jobs), r.first(), in.graph.nrows);
    row["clusters_file"] = clusters_path(options.jobs);
  }
  bench::write_json_file(options.jobs.part_path, json::array({row}));
  return 0;
}

// MCL on the job's grid, timed as time_ours does, each run between two barriers. The checked
// run's traffic and phases are those of every run: the same collectives move the same bytes.
template <class B>
json rank_row(Graph<B>& g, const dist::ProcessGrid& grid, bool gpu, const Options& options) {
  dist::Communicator& world = grid.world();
  g.template weighted<double>();
  grid.reset_traffic();
  dist::pruned_product_tally = {};
  dist::Traffic traffic;
  dist::PrunedProductTally tally;
  bool checked = false;
  const algorithms::MclOptions mcl = mcl_options(options.memory_budget);
  const Ours r = timed_ours(
      gpu ? "gpu ranks" : "cpu ranks",
      [&] {
        world.barrier();
        MclResult m = algorithms::mcl(g, mcl);
        world.barrier();
        if (!checked) {
          traffic = grid.traffic();
          tally = dist::pruned_product_tally;
          checked = true;
        }
        return m;
      },
      options.timing.warmup, options.timing.repeats, gpu);
  if (world.rank() == 0) print_ours(r, std::cout);
  json row = job_row(r, world.size(), dist::to_string(grid.shape()), gpu ? "gpu" : "cpu");
  if (r.timed())  // the slowest rank's (every rank's status is the same: the clusters are)
    for (const char* t : {"median_s", "iterate_median_s", "seconds_per_iteration"})
      row[t] = bench::most_over_ranks(world, row[t].get<double>());
  row.update({{"expansions", tally.products},
              {"phases", tally.phases},
              {"replicated_expansions", tally.replicated},
              {"most_phases", tally.most_phases},
              {"largest_expansion_bound", tally.largest_estimate},
              {"bytes_moved_per_run", bench::sum_over_ranks(world, double(traffic.total().bytes))},
              {"most_bytes_a_rank_per_run", bench::most_over_ranks(world, double(traffic.total().bytes))},
              {"collectives", bench::collectives_json(world, traffic, 1)},
              {"peak_host_bytes", bench::most_over_ranks(world, peak_host_bytes())}});
  if (gpu) row["peak_device_bytes"] = bench::most_over_ranks(world, double(r.runs.peak_bytes.value_or(0)));
  if (world.rank() == 0) {
    write_clusters(clusters_path(options.jobs), r.first(), g.vertices());
    row["clusters_file"] = clusters_path(options.jobs);
  }
  return row;
}

// A job of P ranks: MCL on dist::Backend, GPU ranks or CPU ranks as --ranks-on says.
int run_rank_job(const Options& options) {
  auto world = dist::MpiCommunicator::world();
  const bench::RankKind kind = bench::start_ranks(*world, options.jobs.ranks_on);
  dist::ProcessGrid grid(*world);
  dist::GridScope scope(grid);
  const bench::BenchInput in = job_input(options);
  if (world->rank() == 0)
    std::cout << "job: " << world->size() << " ranks on a " << dist::to_string(grid.shape()) << " grid, "
              << (kind.gpu ? "GPU ranks" : "CPU ranks (" + kind.why + ")") << '\n';
  json row;
#if SPGRAPH_HAVE_GPU
  if (kind.gpu) {
    Graph<dist::GpuBackend> g(in.graph);
    row = rank_row(g, grid, true, options);
  } else
#endif
  {
    Graph<dist::CpuBackend> g(in.graph);
    row = rank_row(g, grid, false, options);
  }
  bench::write_job_rows(*world, options.jobs, json::array({row}));
  return 0;
}

// ---- the driver of --gpus

// The CombBLAS anchor at one P: its row (the JSON of its last line) and its clusters.
struct AnchorRun {
  bench::JobOutcome job;
  std::vector<std::int64_t> cluster_of;
};

constexpr const char* kAnchorTag = "hipmcl_anchor_result: ";

// hipmcl_anchor under mpirun at P ranks, as the jobs are started, on `mtx` (the input as Matrix
// Market, our ids 1-based), its budget a rank --memory-budget where given. Its clusters, written
// as mcl's --abc output with our ids, must be a partition of the vertices. P not a square is
// skipped: CombBLAS 1.6.2's 2D grid refuses it.
AnchorRun run_anchor(bench::JobRunner& runner, const Options& options, int ranks, const std::string& mtx,
                     vid_t vertices, std::ostream& out) {
  AnchorRun a;
  a.job.ranks = ranks;
  const int side = int(std::lround(std::sqrt(double(ranks))));
  if (side * side != ranks) {
    a.job.status = "skipped: P = " + std::to_string(ranks) + " is not a square, as CombBLAS 1.6.2's 2D grid needs";
    out << "== the CombBLAS anchor at P = " << ranks << ": " << a.job.status << '\n';
    return a;
  }
  const std::string clusters = mtx + ".P" + std::to_string(ranks) + ".hipmcl";
  std::vector<std::string> command = {options.combblas, "-I", bench::fixed(kInflation, 1), "-o", clusters, mtx};
  if (options.memory_budget > 0)
    command.insert(command.begin() + 1, {"--per-process-mem", std::to_string(options.memory_budget)});
  out << "== the CombBLAS anchor\n";
  std::vector<std::string> lines;
  a.job = runner.run_program(ranks, command, out, lines);
  if (!a.job.ok()) return a;
  const auto last = std::find_if(lines.rbegin(), lines.rend(), [](const auto& l) { return l.starts_with(kAnchorTag); });
  try {
    if (last == lines.rend()) throw Error(std::string("no line '") + kAnchorTag + "...' in its output");
    json row = json::parse(last->substr(std::strlen(kAnchorTag)));
    row.erase("clusters_file");  // a temporary file
    a.cluster_of = algorithms::cluster_of_each_vertex(bench::read_mcl_clusters(clusters, vertices), vertices);
    if (const auto missing = std::count(a.cluster_of.begin(), a.cluster_of.end(), -1); missing > 0)
      throw Error(clusters + ": the clusters leave out " + std::to_string(missing) + " vertices");
    a.job.rows = json::array({row});
  } catch (const std::exception& e) {
    a.job.status = bench::failure(e);
  }
  fs::remove(clusters);
  return a;
}

// One input across the jobs: the job alone first, then one a P.
struct RanksInput {
  std::string name, source;
  vid_t vertices = 0;
  eid_t links = 0, edges = 0;
  double bound_bytes = 0;  // first_expansion_bound's entries, kUnprunedEntryBytes each
  std::vector<bench::JobOutcome> jobs;
  std::vector<AnchorRun> anchor;  // --combblas: one a P
  MclRun mcl;
};

double number(const json& row, const char* key) { return row.contains(key) ? row[key].get<double>() : kNaN; }

// Each job's clusters against the job alone's and mcl's, and its time against the job alone's.
void compare_clusters(RanksInput& in) {
  const bench::JobOutcome& alone = in.jobs.front();
  std::vector<std::int64_t> alone_of;
  if (alone.ok() && alone.rows[0].contains("clusters_file"))
    alone_of = read_clusters(alone.rows[0]["clusters_file"], in.vertices);
  for (bench::JobOutcome& job : in.jobs) {
    if (!job.ok() || !job.rows[0].contains("clusters_file")) continue;
    json& row = job.rows[0];
    const std::vector<std::int64_t> mine = read_clusters(row["clusters_file"], in.vertices);
    row.erase("clusters_file");  // a temporary file
    if (job.ranks > 0 && !alone_of.empty()) {
      row["ari_vs_alone"] = algorithms::adjusted_rand_index(mine, alone_of);
      row["speedup_vs_alone"] = number(alone.rows[0], "median_s") / number(row, "median_s");
    }
    if (in.mcl.ok()) row["ari_vs_mcl"] = algorithms::adjusted_rand_index(mine, in.mcl.cluster_of);
  }
  for (AnchorRun& a : in.anchor) {
    if (!a.job.ok()) continue;
    if (!alone_of.empty()) a.job.rows[0]["ari_vs_alone"] = algorithms::adjusted_rand_index(a.cluster_of, alone_of);
    if (in.mcl.ok()) a.job.rows[0]["ari_vs_mcl"] = algorithms::adjusted_rand_index(a.cluster_of, in.mcl.cluster_of);
  }
}

// "ok", or what is wrong with a job: it failed, a repeat differed, or its clusters are unlike
// the job alone's or mcl's (ARI below kAriAim). A skipped job says why.
std::string job_check(const bench::JobOutcome& job) {
  if (!job.ok()) return job.status;
  const json& row = job.rows[0];
  if (row["status"] != "ok") return row["status"].get<std::string>();
  if (number(row, "ari_vs_alone") < kAriAim) return "ARI against the job alone below " + bench::fixed(kAriAim, 2);
  if (number(row, "ari_vs_mcl") < kAriAim) return "ARI against mcl below " + bench::fixed(kAriAim, 2);
  return "ok";
}

// The anchor's clusters are HipMCL's (its own pruning, components as clusters), not held to
// mcl's: a run that failed or did not converge is the anchor's fault.
std::string anchor_check(const bench::JobOutcome& job) {
  if (!job.ok()) return job.status;
  return job.rows[0]["converged"].get<bool>() ? "ok" : "did not converge";
}

bool ranks_input_bad(const RanksInput& in) {
  return in.mcl.failed() ||
         std::any_of(in.jobs.begin(), in.jobs.end(),
                     [](const bench::JobOutcome& j) { return !j.skipped() && job_check(j) != "ok"; }) ||
         std::any_of(in.anchor.begin(), in.anchor.end(),
                     [](const AnchorRun& a) { return !a.job.skipped() && anchor_check(a.job) != "ok"; });
}

std::string mib_of(double bytes) { return bench::fixed(bytes / double(1 << 20), 1); }

// A job that did not run or failed: its leading cells, "-" down to the check's cell, its status.
void add_failed_row(bench::Table& table, std::vector<std::string> cells, const bench::JobOutcome& job) {
  cells.resize(15, "-");
  cells.push_back(job.status);
  table.add_row(cells);
}

void add_ranks_rows(bench::Table& table, const RanksInput& in) {
  bool first = true;
  for (const bench::JobOutcome& job : in.jobs) {
    std::vector<std::string> cells = {first ? in.name : "", job.ranks == 0 ? "alone" : std::to_string(job.ranks)};
    first = false;
    if (!job.ok()) {
      add_failed_row(table, cells, job);
      continue;
    }
    const json& row = job.rows[0];
    const bool ran = row.contains("iterations");
    const std::string grid = row["grid"].get<std::string>();
    cells.insert(cells.end(),
                 {row["ranks_on"].get<std::string>(), grid.empty() ? "-" : grid,
                  ran ? std::to_string(row["iterations"].get<int>()) + (row["converged"].get<bool>() ? "" : "!") : "-",
                  ran ? std::to_string(row["clusters"].get<std::size_t>()) : "-", ms(number(row, "seconds_per_iteration")),
                  bench::fixed(number(row, "median_s"), 2), bench::times(number(row, "speedup_vs_alone")),
                  number(row, "expansions") > 0
                      ? bench::fixed(number(row, "most_phases"), 0) + " / " + bench::fixed(number(row, "phases"), 0) +
                            (number(row, "replicated_expansions") > 0
                                 ? ", " + bench::fixed(number(row, "replicated_expansions"), 0) + " replicated"
                                 : "")
                      : "-",
                  bench::fixed(number(row, "bytes_moved_per_run") / 1e6, 1), mib_of(number(row, "peak_device_bytes")),
                  mib_of(number(row, "peak_host_bytes")), bench::fixed(number(row, "ari_vs_alone"), 4),
                  bench::fixed(number(row, "ari_vs_mcl"), 4), job_check(job)});
    table.add_row(cells);
  }
  for (const AnchorRun& a : in.anchor) {
    std::vector<std::string> cells = {"", std::to_string(a.job.ranks), "combblas"};
    if (!a.job.ok()) {
      add_failed_row(table, cells, a.job);
      continue;
    }
    const json& row = a.job.rows[0];
    const int iterations = row["iterations"].get<int>();
    cells.insert(cells.end(),
                 {row["grid"].get<std::string>(),
                  std::to_string(iterations) + (row["converged"].get<bool>() ? "" : "!"),
                  std::to_string(row["clusters"].get<std::size_t>()),
                  ms(number(row, "iterate_s") / std::max(1, iterations)), bench::fixed(number(row, "seconds"), 2), "-",
                  bench::fixed(number(row, "most_phases"), 0) + " / " + bench::fixed(number(row, "phases"), 0), "-",
                  "-", mib_of(number(row, "peak_host_bytes")), bench::fixed(number(row, "ari_vs_alone"), 4),
                  bench::fixed(number(row, "ari_vs_mcl"), 4), anchor_check(a.job)});
    table.add_row(cells);
  }
}

void print_ranks_table(const std::vector<RanksInput>& inputs, std::size_t first, std::ostream& out) {
  bench::Table table({"input", "P", "ranks", "grid", "iterations", "clusters", "ms / iteration", "seconds", "speedup",
                      "phases", "MB moved", "peak MiB a GPU", "host MiB", "ARI alone", "ARI mcl", "check"});
  for (std::size_t i = first; i < inputs.size(); ++i) add_ranks_rows(table, inputs[i]);
  table.print(out);
}

// A job's row, or its rank count and why it has none.
json outcome_json(const bench::JobOutcome& job) {
  return job.ok() ? job.rows[0] : json{{"ranks", job.ranks}, {"status", job.status}};
}

json ranks_input_json(const RanksInput& in) {
  json runs = json::array();
  for (const bench::JobOutcome& job : in.jobs) runs.push_back(outcome_json(job));
  json anchor = json::array();
  for (const AnchorRun& a : in.anchor) anchor.push_back(outcome_json(a.job));
  return {{"input", in.name},  {"source", in.source}, {"vertices", in.vertices}, {"links", in.links},
          {"undirected_edges", in.edges}, {"first_expansion_bound_bytes", in.bound_bytes}, {"runs", runs},
          {"combblas_anchor", anchor}, {"mcl", mcl_json(in.mcl)}};
}

// The aims for 4 GPUs against one: cnr-2000 and the cit-Patents-like graph kRanksSpeedupAim
// times faster at the most ranks that ran; every input completes at the most ranks.
void print_ranks_aims(const std::vector<RanksInput>& inputs, std::ostream& out, json& summary) {
  out << "\naims (issue 43; against the job alone; " << kRanksSpeedupAim << "x at P = 4 on cnr-2000 and "
      << kCitPatents << "; every graph completes):\n";
  json aims = json::array();
  for (const RanksInput& in : inputs) {
    const auto most = std::find_if(in.jobs.rbegin(), in.jobs.rend(),
                                   [](const bench::JobOutcome& j) { return j.ranks > 0 && !j.skipped(); });
    if (most == in.jobs.rend()) continue;
    const bool completes = most->ok() && most->rows[0]["status"] == "ok";
    const double speedup = completes ? number(most->rows[0], "speedup_vs_alone") : kNaN;
    out << "  " << in.name << " at P = " << most->ranks << ": " << (completes ? "completes" : "does not complete");
    json j = {{"input", in.name}, {"ranks", most->ranks}, {"completes", completes}};
    if (!std::isnan(speedup)) {
      out << ", " << bench::times(speedup) << " the job alone";
      j["speedup_vs_alone"] = speedup;
    }
    if ((in.name == kCnr || in.name == kCitPatents) && most->ranks == 4) {
      const bool met = speedup >= kRanksSpeedupAim;
      out << " (aim " << bench::times(kRanksSpeedupAim) << ": " << (met ? "met" : "not met") << ")";
      j["met"] = met;
    }
    out << '\n';
    aims.push_back(j);
  }
  if (aims.empty()) out << "  (no job of ranks ran)\n";
  summary["aims"] = aims;
}

int run_ranks(const Options& options, std::ostream& out) {
  bench::JobFlags jobs = options.jobs;
  if (jobs.ranks_on == "auto") jobs.ranks_on = bench::host_gpus() > 0 ? "gpu" : "cpu";  // one kind for every P
  const std::vector<bench::InputSpec> specs = ranks_inputs(options, out);
  const double gpu_bytes = one_gpu_bytes(options.one_gpu_gib);
  bench::JobRunner runner(jobs, "spgraph-bench-mcl");
  if (!options.mcl.path.empty()) bench::check_mcl_version(options.mcl.path, runner.dir());
  if (!options.mcl.logs.empty()) fs::create_directories(options.mcl.logs);

  std::vector<std::string> ranks;
  for (int p : jobs.ranks) ranks.push_back(std::to_string(p));
  out << "spgraph Markov clustering across ranks: P = " << bench::joined(ranks) << " on "
      << (jobs.ranks_on == "gpu" ? "GPU ranks, one GPU a rank (" + std::to_string(bench::host_gpus()) + " on this host)"
                                 : std::string("CPU ranks"))
      << ", against the job alone (the one-process " << jobs.ranks_on << " backend, no mpirun)\n"
      << "parameters: -I " << bench::fixed(kInflation, 1) << ", mcl's default scheme; each job: a checked run, "
      << options.timing.warmup << " warm-ups, the median of " << options.timing.repeats
      << " runs of build + iterate + interpret (the slowest rank's)\n"
      << "ms / iteration: the iterations' time over their count; phases: of the distributed expansions, most in\n"
      << "  one / all, and how many expanded on replicated operands, where the iterate fits every rank (\"-\": a\n"
      << "  grid of one rank expands on its local backend); MB moved: what the collectives\n"
      << "  brought into the ranks in one run, all ranks; peak MiB a GPU: device memory above the uploaded graph,\n"
      << "  most over ranks; host MiB: peak resident set, most over ranks; ARI: against the job alone's and\n"
      << "  mcl's clusters; one GPU's memory: " << bench::gib(std::size_t(gpu_bytes)) << '\n';
  if (options.mcl.path.empty()) out << "mcl: not run (--no-mcl)\n";
  if (!options.combblas.empty())
    out << "combblas: HipMCL's algorithm on CombBLAS 1.6.2 (" << options.combblas << ") on CPU ranks at each\n"
        << "  square P, one run (read excluded: build + iterate + interpret); phases: most in one / all; its\n"
        << "  clusters the components of its last iterate (HipMCL's rule)\n";

  std::vector<RanksInput> inputs;
  json failed_inputs = json::array();
  bench::for_each_input(specs, out, failed_inputs, [&](const bench::BenchInput& host) {
    RanksInput in{.name = host.name, .source = host.source, .vertices = host.graph.nrows, .links = host.graph.nnz()};
    {
      const Csr<double> sym = symmetrize(remove_self_loops(host.graph));
      in.edges = sym.nnz() / 2;
      in.bound_bytes = kUnprunedEntryBytes * first_expansion_bound(sym);
    }
    out << "first expansion bounded at " << bench::gib(std::size_t(in.bound_bytes)) << " unpruned ("
        << (in.bound_bytes > gpu_bytes ? "more" : "less") << " than one GPU's memory)\n";
    const std::string path = runner.dir().file(host.name + ".spgcsr");
    io::write_csr_cache(path, host.graph);
    const std::vector<std::string> args = {"--job-input", path, "--job-name", host.name, "--warmup",
                                           std::to_string(options.timing.warmup), "--repeats",
                                           std::to_string(options.timing.repeats), "--ranks-on", jobs.ranks_on,
                                           "--memory-budget", std::to_string(options.memory_budget)};
    std::vector<std::string> alone = args;
    alone.push_back("--alone");
    in.jobs.push_back(runner.run(0, alone, out));
    for (int p : jobs.ranks) in.jobs.push_back(runner.run(p, args, out));
    fs::remove(path);
    if (!options.combblas.empty()) {
      const std::string mtx = runner.dir().file(host.name + ".mtx");
      io::write_matrix_market(mtx, host.graph);
      for (int p : jobs.ranks) in.anchor.push_back(run_anchor(runner, options, p, mtx, host.graph.nrows, out));
      fs::remove(mtx);
    }
    const bool generated = std::any_of(specs.begin(), specs.end(),
                                       [&](const auto& s) { return s.name == host.name && !s.preset.empty(); });
    if (const std::string why = mcl_skipped(in.name, generated, options); !why.empty())
      in.mcl.status = "skipped: " + why;
    else
      in.mcl = bench::run_mcl(options.mcl, host.graph, in.name, kInflation, runner.dir());
    out << "mcl: " << (in.mcl.ok() ? bench::fixed(in.mcl.seconds, 2) + " s, " + std::to_string(in.mcl.log.iterations) +
                                         " iterations, " + std::to_string(in.mcl.clusters.size()) + " clusters"
                                   : in.mcl.status)
        << '\n';
    compare_clusters(in);
    inputs.push_back(std::move(in));
    print_ranks_table(inputs, inputs.size() - 1, out);
  });
  const bool bad = std::any_of(inputs.begin(), inputs.end(), ranks_input_bad);

  out << "\n== summary\n";
  print_ranks_table(inputs, 0, out);
  json summary;
  print_ranks_aims(inputs, out, summary);
  if (bad) out << "FAILED JOBS OR CLUSTERS UNLIKE THE JOB ALONE'S OR MCL'S: see the check column above\n";
  json results = json::array();
  for (const RanksInput& in : inputs) results.push_back(ranks_input_json(in));
  const json doc = {{"benchmark", "mcl_ranks"},
                    {"ranks", jobs.ranks},
                    {"ranks_on", jobs.ranks_on},
                    {"one_gpu_bytes", gpu_bytes},
                    {"timing", bench::to_json(options.timing)},
                    {"parameters", parameters_json(options)},
                    {"mcl_program", mcl_program_json(options)},
                    {"results", results}};
  return bench::finish_run(out, options.json_path, doc, failed_inputs, summary, bad);
}
#endif  // SPGRAPH_HAVE_MPI

// The hep-th file of the repository's datasets: $SPGRAPH_DATASETS/small/hep-th.mtx (gpu-check.sh
// sets it), else datasets/small/hep-th.mtx under the working folder.
std::string default_hep_th() {
  const char* env = std::getenv("SPGRAPH_DATASETS");
  return (env && *env ? std::string(env) : std::string("datasets")) + "/small/hep-th.mtx";
}

}  // namespace

int main(int argc, char** argv) try {
  CLI::App cli{
      "Benchmarks Markov clustering on the GPU: spgraph's mcl against van Dongen's mcl program (22-282) on\n"
      "every host core, with the same parameters (-I 2.0, the default scheme), on hep-th, the real graphs and\n"
      "a generated cit-Patents-like graph (ours alone). Prints the time (whole and iterations), iterations,\n"
      "clusters and peak device memory of ours, mcl's time, iterations and clusters, the adjusted Rand index\n"
      "between the two and the speedup, the issue's aims, and writes the results as JSON. Exit status 1 when\n"
      "a run failed or ours differs from mcl's clusters (ARI < 0.99).\n"
      "With --gpus 1,2,4: the same across the ranks of MPI jobs (mpirun -n P of this program, one a P and\n"
      "input) on web-NotreDame, cnr-2000 and the cit-Patents-like graph, each against the one-process backend\n"
      "alone: time an iteration, phases of the distributed expansion, bytes moved, peak memory a GPU, ARI\n"
      "against the job alone and mcl. GPU ranks where this host has a GPU (a P above its GPUs is skipped),\n"
      "else CPU ranks (--ranks-on). With --combblas PATH: HipMCL's algorithm on CombBLAS (bench/combblas/\n"
      "hipmcl_anchor) under the same mpirun at each square P, its rows beside ours."};
  Options options;
  options.timing = {.warmup = 1, .repeats = 3};
  bench::BenchFlags flags("double", "mcl-bench.json");
  flags.generated = "cit-patents";
  flags.add_to(cli, options.timing);
  cli.remove_option(cli.get_option("--precision"));  // MCL's values are double, whatever is asked
  options.hep_th = default_hep_th();
  cli.add_option("--hep-th", options.hep_th, "hep-th, run first when no graph file is named (\"\" for none)")
      ->capture_default_str();
  cli.add_flag("--cpu", options.cpu, "ours on the CPU backend (GraphBLAS) too: slow");
  cli.add_option("--cpu-repeats", options.cpu_repeats, "timed CPU runs after the checked one (with --cpu)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  options.mcl.path = bench::default_mcl_program();
  auto* mcl = cli.add_option("--mcl", options.mcl.path,
                             "the mcl program (its --version must say '" + std::string(bench::kMclVersion) +
                                 "'); default: $MCL_PROGRAM, else " + bench::kDebianMcl)
                  ->capture_default_str();
  options.mcl.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  auto* threads = cli.add_option("--mcl-threads", options.mcl.threads, "mcl -te: its threads (default: every core)")
                      ->check(CLI::Range(1, 4096))
                      ->capture_default_str();
  auto* timeout = cli.add_option("--mcl-timeout", options.mcl.timeout_s, "seconds an mcl run may take before it is killed")
                      ->check(CLI::Range(1.0, 1e6))
                      ->capture_default_str();
  auto* on_cnr = cli.add_flag("--mcl-on-cnr", options.mcl_on_cnr, "run mcl on cnr-2000 too (it may take long)");
  auto* logs = cli.add_option("--mcl-logs", options.mcl.logs, "folder to keep mcl's stderr in, one file per input");
  bool no_mcl = false;
  cli.add_flag("--no-mcl", no_mcl, "ours alone")->excludes(mcl)->excludes(threads)->excludes(timeout)->excludes(on_cnr)->excludes(logs);
  options.jobs.ranks.clear();  // none: the one-GPU benchmark
  auto* ranks = bench::add_job_flags(cli, options.jobs, "--gpus,--ranks",
                                     "with --gpus: auto (GPU ranks where this host has a GPU, else CPU ranks, one kind "
                                     "for every P), gpu or cpu");
  cli.add_flag("--no-real", options.no_real,
               "with --gpus: not the default real graphs (web-NotreDame, cnr-2000): the generated ones alone")
      ->needs(ranks);
  cli.add_flag("--beyond-one-gpu", options.beyond_one_gpu,
               "with --gpus: add the cit-Patents-like graph made larger until its first expansion's unpruned bound "
               "passes one GPU's memory (large: minutes to generate)")
      ->needs(ranks);
  cli.add_option("--beyond-times", options.beyond_times,
                 "with --beyond-one-gpu: this many times larger instead of by the estimate")
      ->check(CLI::Range(1, 64))
      ->needs("--beyond-one-gpu");
  cli.add_option("--one-gpu-gib", options.one_gpu_gib,
                 "the GPU memory --beyond-one-gpu must pass (default: this host's GPU's, else an H200's)")
      ->check(CLI::PositiveNumber)
      ->needs(ranks);
  cli.add_option("--combblas", options.combblas,
                 "with --gpus: bench/combblas/hipmcl_anchor (-DSPGRAPH_COMBBLAS=ON), HipMCL's algorithm on CombBLAS, "
                 "run under mpirun as the jobs are at each P that is a square, its rows beside ours")
      ->check(CLI::ExistingFile)
      ->needs(ranks);
  cli.add_option("--memory-budget", options.memory_budget,
                 "bytes one part of an expansion may use, as mcl's --memory-budget: a row panel's device memory on "
                 "one GPU (default: half of what is free, at most 8G), one phase's host memory on each rank "
                 "(default: a quarter of the host's shared among its ranks)")
      ->type_name("BYTES")
      ->transform(CLI::AsSizeValue(false).description(""));
  cli.add_flag("--alone", options.alone, "the job on the one-process backend, without MPI")->group("");
  cli.add_option("--job-input", options.job_input, "the job's graph file")->group("");
  cli.add_option("--job-name", options.job_name, "the job's graph's name")->group("");
  CLI11_PARSE(cli, argc, argv);

#if SPGRAPH_HAVE_MPI
  if (options.jobs.job && options.alone) return run_alone_job(options);
  if (options.jobs.job) {
    dist::MpiSession session(&argc, &argv, dist::MpiSession::Start::Always);
    return dist::run_or_abort([&] { return run_rank_job(options); });
  }
#endif
  options.inputs = flags.input_options();
  options.json_path = flags.json_path;
  if (no_mcl) options.mcl.path.clear();
  else if (options.mcl.path.empty())
    throw Error("no mcl program: " + std::string(bench::kDebianMcl) +
                " is absent; name one with --mcl PATH or MCL_PROGRAM, or pass --no-mcl");
  if (ranks->count() > 0) {
#if SPGRAPH_HAVE_MPI
    return run_ranks(options, std::cout);
#else
    throw Error("--gpus: this build of spgraph found no MPI (install-deps.sh installs OpenMPI)");
#endif
  }
  if (!options.cpu) bench::require_gpu("bench_mcl");  // with --cpu, the GPU rows say why they failed
  return run(options, std::cout);
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_mcl: %s\n", e.what());
  return 1;
}
