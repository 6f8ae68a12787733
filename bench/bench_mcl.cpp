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
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bench_cli.hpp"
#include "bench_inputs.hpp"
#include "child_process.hpp"
#include "json_output.hpp"
#include "spgraph/algorithms/cluster_agreement.hpp"
#include "spgraph/algorithms/mcl.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/backend.hpp"
#include "spgraph/graph.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/graphblas/backend.hpp"
#include "table.hpp"
#include "timed_runs.hpp"


namespace {

using namespace spgraph;
using algorithms::MclResult;
using nlohmann::json;
namespace fs = std::filesystem;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr double kInflation = 2.0;  // mcl -I; the rest is mcl's default scheme (MclOptions' defaults)
constexpr const char* kMclVersion = "mcl 22-282";  // the first line of `mcl --version`
constexpr const char* kDebianMcl = "/usr/bin/mcl";
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
  std::string mcl;  // the program; empty: not run
  int mcl_threads = 1;
  double mcl_timeout_s = 600;
  bool mcl_on_cnr = false;
  std::string mcl_logs;  // folder for mcl's stderr, one file per input; "" for none
  std::string json_path;
};

algorithms::MclOptions mcl_options() {
  algorithms::MclOptions o;
  o.inflation = kInflation;
  return o;
}

// ---- the mcl program as a child process

using bench::ProcessResult;
using bench::run_process;
using bench::TempDir;

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Throws Error unless `program --version` says kMclVersion first: mcl's results are those of
// one release, and our own app is called mcl too.
void check_mcl_version(const std::string& program, const TempDir& dir) {
  const std::string log = dir.file("version.txt");
  const ProcessResult r = run_process({program, "--version"}, log, 30);
  const std::vector<std::string> lines = read_lines(log);
  const std::string first = lines.empty() ? "" : lines.front();
  if (!r.ok() || first != kMclVersion)
    throw Error(program + " --version: " + r.describe() + ", says '" + first + "'; bench_mcl needs van Dongen's " +
                kMclVersion + " (Debian's package mcl): name it with --mcl PATH or MCL_PROGRAM, or pass --no-mcl");
}

// The graph as mcl's label input: one line "u<TAB>v<TAB>weight" per stored link, the labels our
// vertex ids, the weight 1 for a pattern, else the loaded value as the shortest text that reads
// back exactly. A vertex in no link of positive weight gets a loop line "v<TAB>v<TAB>1": mcl drops
// input loops but then knows the vertex, which becomes a cluster of its own, as in ours.
void write_abc(const Csr<double>& g, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw Error(path + ": cannot write: " + std::strerror(errno));
  std::vector<char> seen(static_cast<std::size_t>(g.nrows), 0);
  std::string buf;
  char num[32];
  auto field = [&](auto x, char end) {
    buf.append(num, std::to_chars(num, num + sizeof num, x).ptr);
    buf.push_back(end);
  };
  auto flush = [&](bool always) {
    if (!always && buf.size() < (1u << 20)) return;
    if (std::fwrite(buf.data(), 1, buf.size(), f) != buf.size()) {
      std::fclose(f);
      throw Error(path + ": write error: " + std::strerror(errno));
    }
    buf.clear();
  };
  for (vid_t u = 0; u < g.nrows; ++u)
    for (eid_t p = g.rowptr[u]; p < g.rowptr[u + 1]; ++p) {
      const vid_t v = g.col[p];
      const double w = g.is_pattern() ? 1.0 : g.val[p];
      field(u, '\t');
      field(v, '\t');
      field(w, '\n');
      if (w > 0) seen[u] = seen[v] = 1;
      flush(false);
    }
  for (vid_t v = 0; v < g.nrows; ++v)
    if (!seen[v]) {
      field(v, '\t');
      field(v, '\t');
      field(1, '\n');
    }
  flush(true);
  if (std::fclose(f) != 0) throw Error(path + ": write error: " + std::strerror(errno));
}

// mcl's output with --abc: one cluster a line, its labels (our vertex ids) separated by tabs.
std::vector<std::vector<vid_t>> read_mcl_clusters(const std::string& path, vid_t n) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot read mcl's clusters: " + std::strerror(errno));
  std::vector<std::vector<vid_t>> clusters;
  std::string line;
  for (long long line_no = 1; std::getline(in, line); ++line_no) {
    std::vector<vid_t>& c = clusters.emplace_back();
    const char* p = line.data();
    const char* end = p + line.size();
    while (p < end) {
      vid_t v = -1;
      const auto [next, ec] = std::from_chars(p, end, v);
      if (ec != std::errc() || v < 0 || v >= n || (next != end && *next != '\t'))
        throw Error(path + ":" + std::to_string(line_no) + ": not a vertex id below " + std::to_string(n) + ": '" +
                    line.substr(static_cast<std::size_t>(p - line.data()), 20) + "'");
      c.push_back(v);
      p = next + (next != end);
    }
  }
  return clusters;
}

// What mcl reported on stderr: the last row of its iteration table (" ite chaos time ..."; a
// row starts with the iteration number and has eight or more fields; progress dots that mcl
// prints on large graphs may stand in front), "[mcl] N clusters found" and its jury's verdict
// on the pruning.
struct MclLog {
  int iterations = -1;
  std::int64_t clusters = -1;
  std::string jury;  // "<87.2 or cracking>"
};

MclLog parse_mcl_log(const std::string& path) {
  MclLog log;
  for (const std::string& line : read_lines(path)) {
    std::istringstream fields(line.substr(std::min(line.find_first_not_of('.'), line.size())));
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (f.size() >= 8 && std::all_of(f[0].begin(), f[0].end(), [](char c) { return c >= '0' && c <= '9'; }))
      log.iterations = std::max(log.iterations, std::stoi(f[0]));
    else if (f.size() == 4 && f[0] == "[mcl]" && f[2] == "clusters" && f[3] == "found")
      log.clusters = std::stoll(f[1]);
    else if (line.starts_with("[mcl] jury pruning synopsis: "))
      log.jury = line.substr(line.find('<'), line.find('>') - line.find('<') + 1);
  }
  return log;
}

struct MclRun {
  std::string status = "not run";  // "ok", "skipped: why", "timed out ...", "failed: ..."
  double seconds = kNaN;
  MclLog log;
  std::vector<std::vector<vid_t>> clusters;
  std::vector<std::int64_t> cluster_of;  // per vertex
  bool ok() const { return status == "ok"; }
  bool failed() const { return status.starts_with("failed"); }
};

// One mcl run on `g`; its files in `dir`, its stderr also copied into `logs_dir` when given.
MclRun run_mcl(const Csr<double>& g, const std::string& name, const Options& options, const TempDir& dir) {
  MclRun m;
  try {
    const std::string abc = dir.file(name + ".abc"), clusters = dir.file(name + ".clusters"),
                      log = dir.file(name + ".log");
    write_abc(g, abc);
    const ProcessResult r = run_process({options.mcl, abc, "--abc", "-I", bench::fixed(kInflation, 1), "-te",
                                         std::to_string(options.mcl_threads), "-o", clusters},
                                        log, options.mcl_timeout_s);
    fs::remove(abc);
    if (!options.mcl_logs.empty()) fs::copy_file(log, fs::path(options.mcl_logs) / (name + ".mcl.log"),
                                                 fs::copy_options::overwrite_existing);
    m.seconds = r.seconds;
    if (r.timed_out) {
      m.status = "timed out: killed after " + bench::fixed(r.seconds, 1) + " s (--mcl-timeout)";
      return m;
    }
    if (!r.ok()) {
      const auto lines = read_lines(log);
      m.status = "failed: " + r.describe() + (lines.empty() ? "" : ": " + lines.back());
      return m;
    }
    m.log = parse_mcl_log(log);
    m.clusters = read_mcl_clusters(clusters, g.nrows);
    m.cluster_of = algorithms::cluster_of_each_vertex(m.clusters, g.nrows);
    const auto missing = std::count(m.cluster_of.begin(), m.cluster_of.end(), -1);
    if (missing > 0)
      m.status = "failed: mcl's clusters leave out " + std::to_string(missing) + " vertices";
    else if (m.log.clusters != static_cast<std::int64_t>(m.clusters.size()))
      m.status = "failed: mcl reported " + std::to_string(m.log.clusters) + " clusters and wrote " +
                 std::to_string(m.clusters.size());
    else
      m.status = "ok";
  } catch (const std::exception& e) {
    m.status = bench::failure(e);
  }
  return m;
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

template <class B>
Ours time_ours(Graph<B>& g, const std::string& backend, int warmup, int repeats, bool gpu) {
  Ours r;
  r.backend = backend;
  const algorithms::MclOptions options = mcl_options();
  std::vector<double> iterate_s;  // of the timed runs
  try {
    g.template weighted<double>();  // what MCL reads (its values are double), uploaded before the
                                    // checked run so that its peak is MCL's own
    r.runs = bench::timed_runs(
        [&] { return algorithms::mcl(g, options); },
        [&](const MclResult& m) {
          iterate_s.push_back(m.iterate_seconds);
          return total_seconds(m);
        },
        differs, warmup, repeats, gpu);
    r.ran = true;
    if (r.timed()) r.iterate_median_s = bench::median(iterate_s);
  } catch (const std::exception& e) {
    r.runs.status = bench::failure(e);
  }
  return r;
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
  if (options.mcl.empty()) return "--no-mcl";
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
    in.ours.push_back(time_ours(g, "gpu", options.timing.warmup, options.timing.repeats, true));
  } else {
    Ours none;
    none.backend = "gpu";
    none.runs.status = "failed: no GPU: " + no_gpu;
    in.ours.push_back(none);
  }
  print_ours(in.ours.back(), out);
  if (options.cpu) {
    Graph<graphblas::GraphBlasBackend> g(host);
    in.ours.push_back(time_ours(g, "cpu", 0, options.cpu_repeats, false));
    print_ours(in.ours.back(), out);
  }

  if (const std::string why = mcl_skipped(in.name, generated, options); !why.empty()) {
    in.mcl.status = "skipped: " + why;
  } else {
    in.mcl = run_mcl(host, in.name, options, dir);
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

json input_json(const InputResult& in) {
  json ours = json::array();
  for (const auto& r : in.ours) ours.push_back(ours_json(r, in.mcl));
  json mcl = {{"status", in.mcl.status}};
  if (!std::isnan(in.mcl.seconds)) mcl["seconds"] = in.mcl.seconds;
  if (in.mcl.ok())
    mcl.update({{"iterations", in.mcl.log.iterations}, {"clusters", in.mcl.clusters.size()}, {"jury", in.mcl.log.jury}});
  json j = {{"input", in.name}, {"source", in.source}, {"vertices", in.vertices}, {"links", in.links},
            {"undirected_edges", in.edges}, {"ours", ours}, {"mcl", mcl}};
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
  if (!options.mcl.empty()) check_mcl_version(options.mcl, dir);
  if (!options.mcl_logs.empty()) fs::create_directories(options.mcl_logs);

  out << "spgraph Markov clustering benchmark on " << (gpu ? device::device_description() : "no GPU: " + no_gpu)
      << "\nparameters: -I " << bench::fixed(kInflation, 1) << ", mcl's default scheme (-P 10000 -S 1100 -R 1400 "
      << "-pct 90), chaos < 1e-4\n"
      << "ours (gpu): build + iterate + interpret as MclResult reports them (CUDA events), median (and min) of "
      << options.timing.repeats << " runs after a checked run and " << options.timing.warmup
      << " warm-ups; the graph uploaded first, untimed\n";
  if (options.cpu)
    out << "ours (cpu): the GraphBLAS backend on " << std::thread::hardware_concurrency()
        << " host cores, the same times, median of " << options.cpu_repeats << " runs after a checked run\n";
  if (options.mcl.empty())
    out << "mcl: not run (--no-mcl)\n";
  else
    out << "mcl: " << options.mcl << " (" << kMclVersion << ") -te " << options.mcl_threads
        << ", wall clock of the process (reading the .abc, clustering, writing), killed after "
        << bench::fixed(options.mcl_timeout_s, 0) << " s; not on generated graphs"
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

  out << "\n== summary: ours against mcl (" << options.mcl_threads << " threads)\n";
  print_table(inputs, 0, out);
  for (const auto& in : inputs)
    if (!in.mcl.ok() && !in.mcl.status.starts_with("not run")) out << "mcl on " << in.name << ": " << in.mcl.status << '\n';
  json summary;
  print_aims(inputs, options.mcl_threads, out, summary);
  if (bad) out << "FAILED RUNS OR CLUSTERS UNLIKE MCL'S: see the check column above\n";
  json results = json::array();
  for (const auto& in : inputs) results.push_back(input_json(in));
  json timing = bench::to_json(options.timing);
  timing["seconds"] = "build + iterate + interpret, by the algorithm (CUDA events on the GPU)";
  const json doc = {
      {"benchmark", "mcl"},
      {"timing", timing},
      {"parameters", {{"inflation", kInflation}, {"scheme", "mcl's default (-P 10000 -S 1100 -R 1400 -pct 90)"}}},
      {"cpu", {{"run", options.cpu}, {"repeats", options.cpu_repeats}, {"host_cores", std::thread::hardware_concurrency()}}},
      {"mcl_program", {{"path", options.mcl}, {"version", options.mcl.empty() ? "" : kMclVersion},
                       {"threads", options.mcl_threads}, {"timeout_s", options.mcl_timeout_s},
                       {"on_cnr", options.mcl_on_cnr}}},
      {"results", results}};
  return bench::finish_run(out, options.json_path, doc, failed_inputs, summary, bad);
}

// The hep-th file of the repository's datasets: $SPGRAPH_DATASETS/small/hep-th.mtx (gpu-check.sh
// sets it), else datasets/small/hep-th.mtx under the working folder.
std::string default_hep_th() {
  const char* env = std::getenv("SPGRAPH_DATASETS");
  return (env && *env ? std::string(env) : std::string("datasets")) + "/small/hep-th.mtx";
}

// --mcl, else $MCL_PROGRAM, else Debian's /usr/bin/mcl where it exists (not a PATH lookup: our
// own app is called mcl too); empty when none.
std::string default_mcl() {
  const char* env = std::getenv("MCL_PROGRAM");
  if (env && *env) return env;
  return fs::exists(kDebianMcl) ? kDebianMcl : "";
}

}  // namespace

int main(int argc, char** argv) try {
  CLI::App cli{
      "Benchmarks Markov clustering on the GPU: spgraph's mcl against van Dongen's mcl program (22-282) on\n"
      "every host core, with the same parameters (-I 2.0, the default scheme), on hep-th, the real graphs and\n"
      "a generated cit-Patents-like graph (ours alone). Prints the time (whole and iterations), iterations,\n"
      "clusters and peak device memory of ours, mcl's time, iterations and clusters, the adjusted Rand index\n"
      "between the two and the speedup, the issue's aims, and writes the results as JSON. Exit status 1 when\n"
      "a run failed or ours differs from mcl's clusters (ARI < 0.99)."};
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
  options.mcl = default_mcl();
  auto* mcl = cli.add_option("--mcl", options.mcl,
                             "the mcl program (its --version must say '" + std::string(kMclVersion) +
                                 "'); default: $MCL_PROGRAM, else " + kDebianMcl)
                  ->capture_default_str();
  options.mcl_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  auto* threads = cli.add_option("--mcl-threads", options.mcl_threads, "mcl -te: its threads (default: every core)")
                      ->check(CLI::Range(1, 4096))
                      ->capture_default_str();
  auto* timeout = cli.add_option("--mcl-timeout", options.mcl_timeout_s, "seconds an mcl run may take before it is killed")
                      ->check(CLI::Range(1.0, 1e6))
                      ->capture_default_str();
  auto* on_cnr = cli.add_flag("--mcl-on-cnr", options.mcl_on_cnr, "run mcl on cnr-2000 too (it may take long)");
  auto* logs = cli.add_option("--mcl-logs", options.mcl_logs, "folder to keep mcl's stderr in, one file per input");
  bool no_mcl = false;
  cli.add_flag("--no-mcl", no_mcl, "ours alone")->excludes(mcl)->excludes(threads)->excludes(timeout)->excludes(on_cnr)->excludes(logs);
  CLI11_PARSE(cli, argc, argv);

  options.inputs = flags.input_options();
  options.json_path = flags.json_path;
  if (no_mcl) options.mcl.clear();
  else if (options.mcl.empty())
    throw Error("no mcl program: " + std::string(kDebianMcl) +
                " is absent; name one with --mcl PATH or MCL_PROGRAM, or pass --no-mcl");
  if (!options.cpu) bench::require_gpu("bench_mcl");  // with --cpu, the GPU rows say why they failed
  return run(options, std::cout);
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_mcl: %s\n", e.what());
  return 1;
}
