// Triangle counting (spgraph/algorithms/triangle_count.hpp) on the GPU against
// SuiteSparse:GraphBLAS on every host core, on the same inputs with the same definition. For
// each input: the Graph built on the GPU (the pattern uploaded, then undirected(): A + A' without
// the diagonal) and timed, after one untimed build; every GPU method (LAGraph's six, fused, and
// SandiaDot with the product formed first, as GraphBLAS does), one checked run (peak device
// memory), --warmup untimed runs, then the median of --repeats runs of count_seconds (CUDA
// events, by the algorithm); the GraphBLAS backend with the default method (SandiaDot, presort
// auto): one untimed run, then the median of --graphblas-repeats runs. Every count is checked
// against GraphBLAS's (or, with --no-graphblas, the published count, else the first GPU
// method's), and the real graphs' counts against those published in
// ../shared/datasets/README.md. Exit status 1 when a count is wrong, a run failed or an input
// could not be completed.
//
//   bench_tricount [graph files] [--data-dir DIR] [--generated wb-edu,cit-patents | --no-generated]
//                  [--methods sandia-dot,...] [--warmup 2] [--repeats 10]
//                  [--graphblas-repeats 3 | --no-graphblas] [--json FILE]
#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bench_cli.hpp"
#include "bench_inputs.hpp"
#include "gpu_timer.hpp"
#include "json_output.hpp"
#include "peak_memory.hpp"
#include "spgraph/algorithms/triangle_count.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/gpu/backend.hpp"
#include "spgraph/graph.hpp"
#include "spgraph/graphblas/backend.hpp"
#include "table.hpp"
#include "timed_runs.hpp"

namespace {

using namespace spgraph;
using algorithms::TriangleMethod;
using nlohmann::json;
using Clock = std::chrono::steady_clock;
using Index = std::int32_t;  // the structure's value type: the counts are 64-bit whatever it is
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::string_view kMaterialized = "-materialized";

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The real graphs' figures from ../shared/datasets/README.md (the real/ table).
struct Published {
  const char* name;
  std::int64_t undirected_edges;
  std::int64_t triangles;
};
constexpr Published kPublished[] = {{"cnr-2000", 2738969, 20977629},
                                    {"web-NotreDame", 1090108, 8910005},
                                    {"cit-HepPh", 420877, 1276868},
                                    {"email-Enron", 183831, 727044}};

const Published* published(const std::string& input) {
  for (const auto& p : kPublished)
    if (input == p.name) return &p;
  return nullptr;
}

// The targets of the issue: GraphBLAS SandiaDot on the H200 machine's 16 cores, and what our
// default method aims at.
struct Target {
  const char* input;
  double graphblas_s;  // measured there
  double ratio;        // aim: that many times faster
};
constexpr Target kTargets[] = {{"wb-edu-like", 0.454, 30}, {"cit-patents-like", 0.185, 30}, {"cnr-2000", 0.038, 10}};
// ... and 3x H-INDEX's 0.87 G undirected edges/s on cit-Patents(-like).
constexpr double kEdgeRateTarget = 3 * 0.87e9;
constexpr const char* kEdgeRateInput = "cit-patents-like";

// One GPU method as --methods names it: a TriangleMethod name, "-materialized" for the product
// formed before it is reduced.
struct MethodSpec {
  TriangleMethod method = TriangleMethod::SandiaDot;
  bool materialize = false;
  std::string label;
};

std::optional<MethodSpec> parse_method(std::string_view name) {
  MethodSpec s;
  if (name.ends_with(kMaterialized)) {
    s.materialize = true;
    name.remove_suffix(kMaterialized.size());
  }
  auto m = algorithms::triangle_method_from_string(name);
  if (!m) return std::nullopt;
  s.method = *m;
  s.label = std::string(algorithms::to_string(*m)) + (s.materialize ? std::string(kMaterialized) : "");
  return s;
}

constexpr TriangleMethod kAllMethods[] = {TriangleMethod::Burkhardt, TriangleMethod::Cohen,
                                          TriangleMethod::Sandia,    TriangleMethod::Sandia2,
                                          TriangleMethod::SandiaDot, TriangleMethod::SandiaDot2};

// Every method fused, and the default one with its product formed first.
std::vector<std::string> default_methods() {
  std::vector<std::string> names;
  for (TriangleMethod m : kAllMethods) names.push_back(algorithms::to_string(m));
  names.push_back(algorithms::to_string(TriangleMethod::SandiaDot) + std::string(kMaterialized));
  return names;
}

std::string known_methods() {
  std::string list;
  for (TriangleMethod m : kAllMethods) list += std::string(list.empty() ? "" : ", ") + algorithms::to_string(m);
  return list + " (each also as NAME" + std::string(kMaterialized) + ")";
}

struct Options {
  bench::InputOptions inputs;
  std::vector<MethodSpec> methods;
  bench::TimingOptions timing;  // GPU: warm-up and repeats
  int graphblas_repeats = 3;    // 0: no GraphBLAS
  std::string json_path;
};

// One method on one backend.
struct Row {
  std::string backend;  // "gpu" or "graphblas"
  MethodSpec spec;
  std::string presort = "-";  // what was done
  std::string status = "ok";  // ok, "failed: ...", "wrong: ..."
  std::int64_t triangles = -1;
  double median_s = kNaN, min_s = kNaN;
  double wall_median_s = kNaN;  // the call as the host sees it (the count comes back to the host)
  std::size_t peak_bytes = 0;   // GPU: above the graph, during the checked run
  double graphblas_over_ours = kNaN;
  bool counted() const { return triangles >= 0; }
  bool timed() const { return !std::isnan(median_s); }  // shown even when the count is wrong
  bool good() const { return status == "ok" && timed(); }  // compared and summarised
};

struct BuildTimes {
  double pattern_s = 0, undirected_s = 0;
  std::size_t peak_bytes = 0;
  double total() const { return pattern_s + undirected_s; }
};

struct InputResult {
  std::string name, source;
  vid_t vertices = 0;
  eid_t links = 0;
  eid_t undirected_edges = 0;  // nnz(undirected()) / 2
  BuildTimes gpu_build, graphblas_build;
  bool graphblas_built = false;
  std::vector<Row> rows;
  std::int64_t reference = -1;
  std::string reference_from;  // "graphblas", "published", "gpu <method>"
  double edge_rate(const Row& r) const { return r.timed() ? undirected_edges / r.median_s : kNaN; }
  const Row* gpu_row(const std::string& label) const {
    for (const auto& r : rows)
      if (r.backend == "gpu" && r.spec.label == label) return &r;
    return nullptr;
  }
  const Row* graphblas_row() const {
    for (const auto& r : rows)
      if (r.backend == "graphblas") return &r;
    return nullptr;
  }
  const Row* best_gpu() const {
    const Row* best = nullptr;
    for (const auto& r : rows)
      if (r.backend == "gpu" && r.good() && (!best || r.median_s < best->median_s)) best = &r;
    return best;
  }
};

void sync_gpu() { SPGRAPH_CUDA(cudaDeviceSynchronize()); }

// The pattern, then the undirected structure, each timed by the wall clock with the backend
// idle at its end (GraphBLAS: nnz() finishes pending work). Returns nnz(undirected()).
template <class B>
eid_t build(Graph<B>& g, BuildTimes& t, void (*finish)()) {
  auto start = Clock::now();
  g.template pattern<Index>();
  finish();
  t.pattern_s = since(start);
  start = Clock::now();
  const eid_t nnz = g.template undirected<Index>().nnz();
  finish();
  t.undirected_s = since(start);
  return nnz;
}

// One checked run (its count kept, its peak device memory measured on the GPU), `warmup`
// untimed runs, then `repeats` timed ones; every run must give the first run's count.
template <class B>
Row time_method(Graph<B>& g, const std::string& backend, const MethodSpec& spec, int warmup, int repeats) {
  Row r;
  r.backend = backend;
  r.spec = spec;
  algorithms::TriangleCountOptions options;
  options.method = spec.method;
  options.materialize = spec.materialize;
  try {
    const auto t = bench::timed_runs(
        [&] { return algorithms::triangle_count(g, options); },
        [](const algorithms::TriangleCountResult& c) { return c.count_seconds; },
        [](const algorithms::TriangleCountResult& again, const algorithms::TriangleCountResult& first, int run) {
          return again.triangles == first.triangles
                     ? std::string()
                     : "wrong: run " + std::to_string(run) + " counted " + std::to_string(again.triangles) +
                           ", the first " + std::to_string(first.triangles);
        },
        warmup, repeats, backend == "gpu");
    r.triangles = t.first.triangles;
    r.presort = algorithms::to_string(t.first.presort);
    r.peak_bytes = t.peak_bytes.value_or(0);
    r.status = t.status;
    if (t.status == "ok") {
      r.median_s = t.median_s;
      r.min_s = t.min_s;
      r.wall_median_s = t.wall_median_s;
    }
  } catch (const std::exception& e) {
    r.status = bench::failure(e);
  }
  return r;
}

// The count every row must give: GraphBLAS's, else the published one, else the first GPU
// method's. Marks the rows that differ; returns whether any did.
bool check_counts(InputResult& in) {
  const Row* gb = in.graphblas_row();
  if (gb && gb->counted() && gb->status == "ok") {
    in.reference = gb->triangles;
    in.reference_from = "graphblas";
  } else if (const Published* p = published(in.name)) {
    in.reference = p->triangles;
    in.reference_from = "published";
  } else {
    for (const auto& r : in.rows)
      if (r.status == "ok") {
        in.reference = r.triangles;
        in.reference_from = r.backend + " " + r.spec.label;
        break;
      }
  }
  bool wrong = false;
  for (auto& r : in.rows)
    if (r.status == "ok" && r.triangles != in.reference) {
      r.status = "wrong: " + in.reference_from + " counted " + std::to_string(in.reference);
      wrong = true;
    }
  return wrong;
}

std::string ms(double s) { return bench::fixed(s * 1e3, 3); }
std::string mib(std::size_t bytes) { return bench::fixed(bytes / double(1 << 20), 1); }

void add_rows(bench::Table& table, const InputResult& in) {
  bool first = true;
  for (const auto& r : in.rows) {
    std::vector<std::string> cells = {first ? in.name : "", r.backend, r.spec.label, r.presort};
    first = false;
    if (r.timed()) {
      cells.insert(cells.end(), {ms(r.median_s), ms(r.wall_median_s), bench::fixed(in.edge_rate(r) / 1e9, 3),
                                 bench::times(r.graphblas_over_ours),
                                 r.backend == "gpu" ? mib(r.peak_bytes) : "-"});
    } else {
      cells.insert(cells.end(), {"-", "-", "-", "-", "-"});
    }
    cells.push_back(r.counted() ? std::to_string(r.triangles) : "-");
    cells.push_back(r.status);
    table.add_row(cells);
  }
}

json row_json(const InputResult& in, const Row& r) {
  json j = {{"backend", r.backend},        {"method", algorithms::to_string(r.spec.method)},
            {"label", r.spec.label},       {"materialize", r.spec.materialize},
            {"presort", r.presort},        {"status", r.status}};
  if (r.counted()) j["triangles"] = r.triangles;
  if (r.timed()) {
    j.update({{"median_s", r.median_s},
              {"min_s", r.min_s},
              {"wall_median_s", r.wall_median_s},
              {"undirected_edges_per_s", in.edge_rate(r)}});
    if (!std::isnan(r.graphblas_over_ours)) j["graphblas_over_ours"] = r.graphblas_over_ours;
  }
  if (r.backend == "gpu") j["peak_device_bytes"] = r.peak_bytes;
  return j;
}

json build_json(const BuildTimes& t) {
  return {{"pattern_s", t.pattern_s}, {"undirected_s", t.undirected_s}, {"total_s", t.total()}};
}

json input_json(const InputResult& in) {
  json rows = json::array();
  for (const auto& r : in.rows) rows.push_back(row_json(in, r));
  json j = {{"input", in.name},
            {"source", in.source},
            {"vertices", in.vertices},
            {"links", in.links},
            {"undirected_edges", in.undirected_edges},
            {"gpu_build", build_json(in.gpu_build)},
            {"rows", rows}};
  j["gpu_build"]["peak_device_bytes"] = in.gpu_build.peak_bytes;
  if (in.graphblas_built) j["graphblas_build"] = build_json(in.graphblas_build);
  if (in.reference >= 0) j["reference"] = {{"triangles", in.reference}, {"from", in.reference_from}};
  if (const Published* p = published(in.name))
    j["published"] = {{"triangles", p->triangles}, {"undirected_edges", p->undirected_edges}};
  return j;
}

// Against the published figures: prints one line; returns whether a count differs.
bool check_published(const InputResult& in, std::ostream& out) {
  const Published* p = published(in.name);
  if (!p) return false;
  std::string differing;
  for (const auto& r : in.rows)
    if (r.counted() && r.triangles != p->triangles)
      differing += (differing.empty() ? " " : "; ") + r.backend + " " + r.spec.label + " " + std::to_string(r.triangles);
  out << "published (../shared/datasets/README.md): " << p->triangles << " triangles, " << p->undirected_edges
      << " undirected edges: "
      << (differing.empty() ? "every count matches" : "COUNTS DIFFER:" + differing) << "; undirected edges "
      << (in.undirected_edges == p->undirected_edges ? "match" : "DIFFER (" + std::to_string(in.undirected_edges) + ")")
      << '\n';
  return !differing.empty();
}

InputResult bench_input(const bench::BenchInput& host_input, const Options& options, std::ostream& out) {
  const Csr<double>& host = host_input.graph;
  InputResult in;
  in.name = host_input.name;
  in.source = host_input.source;
  in.vertices = host.nrows;
  in.links = host.nnz();

  {  // untimed: device start-up and pool growth for this size
    Graph<gpu::GpuBackend> warm(host);
    BuildTimes ignored;
    build(warm, ignored, sync_gpu);
  }
  bench::PeakMemory build_memory;
  Graph<gpu::GpuBackend> g(host);
  in.undirected_edges = build(g, in.gpu_build, sync_gpu) / 2;
  in.gpu_build.peak_bytes = build_memory.bytes();
  out << "gpu build: pattern upload " << ms(in.gpu_build.pattern_s) << " ms + undirected "
      << ms(in.gpu_build.undirected_s) << " ms = " << ms(in.gpu_build.total()) << " ms, peak "
      << mib(in.gpu_build.peak_bytes) << " MiB; " << in.undirected_edges << " undirected edges\n"
      << std::flush;

  for (const auto& spec : options.methods)
    in.rows.push_back(time_method(g, "gpu", spec, options.timing.warmup, options.timing.repeats));

  if (options.graphblas_repeats > 0) {
    try {
      Graph<graphblas::GraphBlasBackend> cpu(host);
      build(cpu, in.graphblas_build, [] {});
      in.graphblas_built = true;
      out << "graphblas build: pattern " << ms(in.graphblas_build.pattern_s) << " ms + undirected "
          << ms(in.graphblas_build.undirected_s) << " ms = " << ms(in.graphblas_build.total()) << " ms\n"
          << std::flush;
      in.rows.push_back(time_method(cpu, "graphblas", *parse_method(algorithms::to_string(TriangleMethod::SandiaDot)),
                                    0, options.graphblas_repeats));
    } catch (const std::exception& e) {
      Row r;
      r.backend = "graphblas";
      r.spec = *parse_method(algorithms::to_string(TriangleMethod::SandiaDot));
      r.status = bench::failure(e);
      in.rows.push_back(r);
    }
    if (const Row* gb = in.graphblas_row(); gb && gb->good())
      for (auto& r : in.rows)
        if (r.timed()) r.graphblas_over_ours = gb->median_s / r.median_s;
  }
  return in;
}

// Per input: the default method and the best GPU method against GraphBLAS; then the targets.
void print_summary(const std::vector<InputResult>& inputs, bool graphblas, std::ostream& out, json& summary) {
  const std::string def = algorithms::to_string(TriangleMethod::SandiaDot);
  bench::Table table({"input", "undirected edges", "graphblas ms", def + " ms", "G edges/s", "vs graphblas",
                      "best gpu method", "ms", "vs graphblas"});
  json per_input = json::array();
  for (const auto& in : inputs) {
    const Row* gb = in.graphblas_row();
    const Row* d = in.gpu_row(def);
    const Row* best = in.best_gpu();
    const bool gb_ok = gb && gb->good(), d_ok = d && d->good();
    table.add_row({in.name, bench::count(in.undirected_edges), gb_ok ? ms(gb->median_s) : "-",
                   d_ok ? ms(d->median_s) : "-", d_ok ? bench::fixed(in.edge_rate(*d) / 1e9, 3) : "-",
                   d_ok ? bench::times(d->graphblas_over_ours) : "-", best ? best->spec.label : "-",
                   best ? ms(best->median_s) : "-", best ? bench::times(best->graphblas_over_ours) : "-"});
    json j = {{"input", in.name}, {"undirected_edges", in.undirected_edges}};
    if (gb_ok) j["graphblas_s"] = gb->median_s;
    if (d_ok) j.update({{"default_s", d->median_s}, {"default_undirected_edges_per_s", in.edge_rate(*d)}});
    if (d_ok && gb_ok) j["default_speedup"] = d->graphblas_over_ours;
    if (best) j.update({{"best_method", best->spec.label}, {"best_s", best->median_s}});
    if (best && gb_ok) j["best_speedup"] = best->graphblas_over_ours;
    per_input.push_back(j);
  }
  out << "\n== summary: the GPU against GraphBLAS SandiaDot on " << omp_get_max_threads() << " threads"
      << (graphblas ? "" : " (not run: --no-graphblas)") << '\n';
  table.print(out);
  summary["inputs"] = per_input;

  out << "\ntargets (the default method, " << def << ", fused; reference: GraphBLAS SandiaDot on the H200\n"
      << "machine's 16 cores):\n";
  json targets = json::array();
  for (const Target& t : kTargets) {
    auto in = std::find_if(inputs.begin(), inputs.end(), [&](const InputResult& i) { return i.name == t.input; });
    const Row* d = in == inputs.end() ? nullptr : in->gpu_row(def);
    if (!d || !d->good()) continue;
    const double aim_s = t.graphblas_s / t.ratio;
    const Row* gb = in->graphblas_row();
    out << "  " << t.input << ": " << ms(d->median_s) << " ms, aim <= " << ms(aim_s) << " ms (" << bench::times(t.ratio)
        << " " << ms(t.graphblas_s) << " ms): " << (d->median_s <= aim_s ? "met" : "not met") << "; "
        << bench::times(t.graphblas_s / d->median_s) << " the reference";
    if (gb && gb->good()) out << ", " << bench::times(d->graphblas_over_ours) << " GraphBLAS in this run";
    out << '\n';
    targets.push_back({{"input", t.input}, {"seconds", d->median_s}, {"aim_seconds", aim_s},
                       {"met", d->median_s <= aim_s}, {"speedup_vs_reference", t.graphblas_s / d->median_s}});
  }
  auto in = std::find_if(inputs.begin(), inputs.end(), [](const InputResult& i) { return i.name == kEdgeRateInput; });
  if (const Row* d = in == inputs.end() ? nullptr : in->gpu_row(def); d && d->good()) {
    const double rate = in->edge_rate(*d);
    out << "  " << kEdgeRateInput << ": " << bench::fixed(rate / 1e9, 3) << " G undirected edges/s, aim >= "
        << bench::fixed(kEdgeRateTarget / 1e9, 2) << " (3x H-INDEX's 0.87): " << (rate >= kEdgeRateTarget ? "met" : "not met")
        << '\n';
    targets.push_back({{"input", kEdgeRateInput}, {"undirected_edges_per_s", rate},
                       {"aim_undirected_edges_per_s", kEdgeRateTarget}, {"met", rate >= kEdgeRateTarget}});
  }
  if (targets.empty()) out << "  (no target input ran with " << def << ")\n";
  summary["targets"] = targets;
}

int run(const Options& options, std::ostream& out) {
  const std::vector<bench::InputSpec> specs = bench::resolve_inputs(options.inputs, out);
  const int threads = omp_get_max_threads();
  out << "spgraph triangle counting benchmark on " << device::device_description() << '\n'
      << "GPU: CUDA events (count_seconds: relabeling, L and U, the products and reductions), median (and min) of "
      << options.timing.repeats << " runs after a checked run and " << options.timing.warmup << " warm-ups\n";
  if (options.graphblas_repeats > 0)
    out << "GraphBLAS: SuiteSparse:GraphBLAS on " << threads << " OpenMP threads (omp_get_max_threads; "
        << std::thread::hardware_concurrency() << " host cores), " << algorithms::to_string(TriangleMethod::SandiaDot)
        << " with presort auto, wall clock, median of " << options.graphblas_repeats << " runs after one untimed run\n";
  out << "G edges/s: undirected edges (nnz(undirected())/2) over the median time; vs graphblas: GraphBLAS's\n"
      << "  median over this one; peak MiB: device memory above the built graph during the checked run;\n"
      << "  wall ms: the call as the host waits for it. Every count is checked against GraphBLAS's (with\n"
      << "  --no-graphblas: the published count, else the first GPU method's).\n";

  std::vector<InputResult> inputs;
  json results = json::array(), failed_inputs = json::array();
  bool bad = false;
  bench::for_each_input(specs, out, failed_inputs, [&](const bench::BenchInput& host) {
    InputResult in = bench_input(host, options, out);
    bad |= check_counts(in);
    for (const auto& r : in.rows) bad |= r.status != "ok";
    bench::Table table({"input", "backend", "method", "presort", "ms", "wall ms", "G edges/s", "vs graphblas",
                        "peak MiB", "triangles", "check"});
    add_rows(table, in);
    table.print(out);
    bad |= check_published(in, out);
    results.push_back(input_json(in));
    inputs.push_back(std::move(in));
  });

  json summary;
  print_summary(inputs, options.graphblas_repeats > 0, out, summary);
  if (bad) out << "WRONG COUNTS OR FAILED RUNS: see the check column and the published lines above\n";
  json methods = json::array();
  for (const auto& m : options.methods) methods.push_back(m.label);
  json timing = bench::to_json(options.timing);
  timing["count_seconds"] = "CUDA events, by the algorithm";
  const json doc = {{"benchmark", "tricount"},
                    {"timing", timing},
                    {"graphblas", {{"repeats", options.graphblas_repeats}, {"threads", threads},
                                   {"host_cores", std::thread::hardware_concurrency()}}},
                    {"gpu_methods", methods},
                    {"results", results}};
  return bench::finish_run(out, options.json_path, doc, failed_inputs, summary, bad);
}

}  // namespace

int main(int argc, char** argv) try {
  CLI::App cli{
      "Benchmarks triangle counting on the GPU: every method of spgraph's triangle_count (LAGraph's six,\n"
      "fused, and SandiaDot with the product formed first) against SuiteSparse:GraphBLAS (SandiaDot) on\n"
      "every host core, on each graph. Prints the graph build, time, undirected edges/s, the ratio to\n"
      "GraphBLAS and peak device memory of each, and writes the results as JSON. Every count is checked\n"
      "against GraphBLAS's and, for the real graphs, the published one; exit status 1 when one differs."};
  Options options;
  options.timing = {.warmup = 2, .repeats = 10};
  bench::BenchFlags flags("double", "tricount-bench.json");
  flags.add_to(cli, options.timing);
  cli.remove_option(cli.get_option("--precision"));  // the structure is counted, not values
  std::vector<std::string> methods;
  std::string all;
  for (const auto& m : default_methods()) all += (all.empty() ? "" : ",") + m;
  cli.add_option("--methods", methods, "GPU methods, comma-separated: " + known_methods() + "; default: " + all)
      ->delimiter(',')->allow_extra_args(false)
      ->check([](const std::string& name) {
        return parse_method(name) ? std::string() : "unknown method '" + name + "' (known: " + known_methods() + ")";
      });
  auto* gb_repeats = cli.add_option("--graphblas-repeats", options.graphblas_repeats,
                                    "timed GraphBLAS runs (after one untimed run); the median is reported")
                         ->check(CLI::Range(1, 1000))
                         ->capture_default_str();
  bool no_graphblas = false;
  cli.add_flag("--no-graphblas", no_graphblas,
               "no GraphBLAS runs: counts are checked against the published ones, else the first GPU method's")
      ->excludes(gb_repeats);
  CLI11_PARSE(cli, argc, argv);

  if (methods.empty()) methods = default_methods();
  for (const auto& m : methods) options.methods.push_back(*parse_method(m));
  options.inputs = flags.input_options();
  options.json_path = flags.json_path;
  if (no_graphblas) options.graphblas_repeats = 0;
  bench::require_gpu("bench_tricount");
  return run(options, std::cout);
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_tricount: %s\n", e.what());
  return 1;
}
