// The apps as a user runs them (issue 32 §3): each of pagerank, tricount, msbfs and mcl run as
// a child process on each input, on the GPU and on the CPU backend in the same run, timed from
// spawn to exit outside the process, and split into phases by the app's own --timings report
// (start-up, device initialisation, load, build, compute, write; apps/common/phase_timer.hpp).
//
// Inputs: the generated wb-edu-like and cit-patents-like graphs saved as .spgcsr in --dir
// (generated there with the io generators at 1/--scale of their size when absent, then loaded
// by the apps as any user's cache would be), the shared real graphs as they are stored (.mtx.gz,
// .txt.gz, from --data-dir), or any graph file named by its path. Each app, input and backend
// gets --warmup untimed runs (the first also brings the input into the page cache), then the
// median of --repeats timed runs of every figure. Outputs go to a temporary folder and are
// deleted after their size is taken. Exit status 1 when a run failed.
//
//   bench_end_to_end [--apps pagerank,tricount,msbfs,mcl] [--inputs wb-edu-like,...|FILE]
//                    [--backends gpu,cpu] [--dir DIR] [--scale K] [--data-dir DIR] [--bin-dir DIR]
//                    [--warmup 1] [--repeats 3] [--msbfs-sources 8] [--skip APP:INPUT,...]
//                    [--timeout 300] [--json FILE]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bench_cli.hpp"
#include "bench_inputs.hpp"
#include "child_process.hpp"
#include "gpu_timer.hpp"
#include "json_output.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/csr_cache.hpp"
#include "spgraph/io/generators.hpp"
#include "table.hpp"

namespace {

using namespace spgraph;
using nlohmann::json;
namespace fs = std::filesystem;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The phases of an app's --timings report, in the order they happen.
const std::vector<std::string> kPhases = {"startup", "device_init", "load", "build", "compute", "write"};

// The target: pagerank on the full-size wb-edu-like .spgcsr, on the GPU.
constexpr const char* kTargetInput = "wb-edu-like";
constexpr double kTargetTotalS = 0.5, kTargetLoadS = 0.1;

struct Options {
  std::vector<std::string> apps = {"pagerank", "tricount", "msbfs", "mcl"};
  std::vector<std::string> inputs = {"wb-edu-like", "cit-patents-like", "cnr-2000", "web-NotreDame",
                                     "cit-HepPh",   "email-Enron"};
  std::vector<std::string> backends = {"gpu", "cpu"};
  std::string dir = "e2e-graphs";
  int scale = 1;
  std::string data_dir = bench::default_data_dir();
  std::string bin_dir;  // default: this program's folder
  int warmup = 1, repeats = 3;
  int msbfs_sources = 8;
  // MCL's expansion on the generated graphs and the larger real ones takes minutes a run.
  std::vector<std::string> skip = {"mcl:wb-edu-like", "mcl:cit-patents-like", "mcl:cnr-2000", "mcl:web-NotreDame"};
  double timeout_s = 300;
  std::string json_path = "end-to-end-bench.json";
};

struct Input {
  std::string name;  // "wb-edu-like", "cnr-2000"
  std::string path;
  std::string source;  // where it came from
  std::uintmax_t bytes = 0;
};

// One app, input and backend: the timed runs and their medians.
struct Measured {
  std::string app, input, backend;
  std::string status = "ok";  // or why a run failed, or "skipped: ..."
  std::vector<json> runs;     // per timed run: wall_s, the app's timings, output_bytes
  double wall_s = kNaN, total_s = kNaN, other_s = kNaN;
  std::map<std::string, double> phase_s;
  std::uintmax_t output_bytes = 0;
  bool good() const { return status == "ok"; }
};

std::string seconds_cell(double s) { return bench::fixed(s, s < 10 ? 3 : 1); }

// ---- inputs

std::string generated_preset(const std::string& name) {
  for (const auto& preset : bench::generated_presets())
    if (name == preset + "-like") return preset;
  return "";
}

// "wb-edu-like.spgcsr" at full size, "wb-edu-like-1of100.spgcsr" at 1/100.
Input generated_input(const std::string& name, const std::string& preset, const Options& o, std::ostream& out) {
  Input in;
  in.name = name;
  in.path = (fs::path(o.dir) / (name + (o.scale > 1 ? "-1of" + std::to_string(o.scale) : "") + ".spgcsr")).string();
  io::PowerLawParams p = preset == "wb-edu" ? io::wb_edu_like() : io::cit_patents_like();
  if (o.scale > 1) p = io::scaled(p, o.scale);
  in.source = "generated (" + preset + " preset, seed " + std::to_string(p.seed) +
              (o.scale > 1 ? ", 1/" + std::to_string(o.scale) + " size" : "") + ") as .spgcsr";
  if (!fs::exists(in.path)) {
    out << "generating " << in.path << " (" << p.n << " vertices, " << p.edges << " edges) ..." << std::flush;
    const auto start = std::chrono::steady_clock::now();
    fs::create_directories(o.dir);
    const Csr<double> g = io::power_law_graph(p, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    io::write_csr_cache(in.path, g);
    out << " " << bench::fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1)
        << " s\n";
  }
  return in;
}

// The inputs by name or path; a default real graph absent from --data-dir is reported and left
// out.
std::vector<Input> resolve(const Options& o, std::ostream& out) {
  std::map<std::string, std::string> real;  // "cnr-2000" -> "cnr-2000.mtx.gz"
  for (const auto& f : bench::default_graph_files()) real[f.substr(0, f.find('.'))] = f;
  std::vector<Input> inputs;
  for (const auto& name : o.inputs) {
    Input in;
    if (const std::string preset = generated_preset(name); !preset.empty()) {
      in = generated_input(name, preset, o, out);
    } else if (real.count(name)) {
      in.name = name;
      in.path = (fs::path(o.data_dir) / real[name]).string();
      in.source = "shared real graph";
      if (!fs::exists(in.path)) {
        out << "input " << name << ": " << in.path << " not found (--data-dir), left out\n";
        continue;
      }
    } else if (fs::exists(name)) {
      in.name = fs::path(name).filename().string();
      in.name = in.name.substr(0, in.name.find('.'));
      in.path = name;
      in.source = "file";
    } else {
      throw Error("--inputs " + name + ": neither a generated graph (wb-edu-like, cit-patents-like), a shared real " +
                  "graph (cnr-2000, web-NotreDame, cit-HepPh, email-Enron) nor a file");
    }
    in.bytes = fs::file_size(in.path);
    inputs.push_back(in);
  }
  if (inputs.empty()) throw Error("no inputs to run (see --inputs and --data-dir)");
  return inputs;
}

// ---- one app run

std::vector<std::string> app_command(const Options& o, const std::string& app, const Input& in,
                                     const std::string& backend, const bench::TempDir& work) {
  std::vector<std::string> argv = {(fs::path(o.bin_dir) / app).string(), in.path, "--backend", backend, "-o",
                                   work.file("output"), "--timings", work.file("timings.json")};
  // Every source's levels, in binary: the text form would be ~20 bytes a vertex per source.
  if (app == "msbfs") argv.insert(argv.end(), {"--random", std::to_string(o.msbfs_sources), "--binary"});
  return argv;
}

// The app's error line, else the process's ending.
std::string failure(const bench::ProcessResult& r, const std::string& err_log) {
  std::ifstream in(err_log);
  std::string why;
  for (std::string line; std::getline(in, line);)
    if (line.find(": error: ") != std::string::npos) why = line;
  return "failed: " + r.describe() + (why.empty() ? "" : ": " + why);
}

// One run; returns {wall_s, timings, output_bytes}, or throws Error saying why it failed.
json run_once(const std::vector<std::string>& argv, const Options& o, const bench::TempDir& work) {
  std::error_code ignored;
  fs::remove(work.file("output"), ignored);
  fs::remove(work.file("timings.json"), ignored);
  const bench::ProcessResult r = bench::run_process(argv, work.file("stdout"), o.timeout_s, work.file("stderr"));
  // pagerank's 3: not converged, the ranks written all the same.
  const bool finished = !r.timed_out && r.signal == 0 && (r.exit_status == 0 || (argv[0].ends_with("pagerank") &&
                                                                                 r.exit_status == 3));
  if (!finished) throw Error(failure(r, work.file("stderr")));
  std::ifstream timings(work.file("timings.json"));
  if (!timings) throw Error("no --timings report from " + argv[0]);
  json run = {{"wall_s", r.seconds}, {"timings", json::parse(timings)}, {"exit_status", r.exit_status}};
  run["output_bytes"] = fs::exists(work.file("output")) ? fs::file_size(work.file("output")) : 0;
  return run;
}

Measured measure(const Options& o, const std::string& app, const Input& in, const std::string& backend,
                 const bench::TempDir& work) {
  Measured m{.app = app, .input = in.name, .backend = backend};
  if (std::find(o.skip.begin(), o.skip.end(), app + ":" + in.name) != o.skip.end()) {
    m.status = "skipped (--skip " + app + ":" + in.name + ")";
    return m;
  }
  const std::vector<std::string> argv = app_command(o, app, in, backend, work);
  try {
    for (int i = 0; i < o.warmup; ++i) run_once(argv, o, work);
    for (int i = 0; i < o.repeats; ++i) m.runs.push_back(run_once(argv, o, work));
  } catch (const std::exception& e) {
    m.status = e.what();
    return m;
  }
  auto median_of = [&](auto get) {
    std::vector<double> v;
    for (const json& r : m.runs) v.push_back(get(r));
    return bench::median(v);
  };
  m.wall_s = median_of([](const json& r) { return r["wall_s"].get<double>(); });
  m.total_s = median_of([](const json& r) { return r["timings"]["total_s"].get<double>(); });
  m.other_s = median_of([](const json& r) { return r["timings"]["other_s"].get<double>(); });
  for (const auto& p : kPhases)
    m.phase_s[p] = median_of([&](const json& r) { return r["timings"]["phases"][p + "_s"].get<double>(); });
  m.output_bytes = m.runs.back()["output_bytes"].get<std::uintmax_t>();
  return m;
}

// ---- the report

void print_table(const std::vector<Measured>& all, std::ostream& out) {
  std::vector<std::string> header = {"app", "input", "backend", "wall s", "in-app s"};
  for (const auto& p : kPhases) header.push_back(p);
  header.insert(header.end(), {"other", "exit", "output", "status"});
  bench::Table table(header);
  std::string last;
  for (const Measured& m : all) {
    if (!last.empty() && last != m.app + m.input) table.add_gap();
    last = m.app + m.input;
    std::vector<std::string> cells = {m.app, m.input, m.backend};
    if (m.good()) {
      cells.push_back(seconds_cell(m.wall_s));
      cells.push_back(seconds_cell(m.total_s));
      for (const auto& p : kPhases) cells.push_back(seconds_cell(m.phase_s.at(p)));
      cells.push_back(seconds_cell(m.other_s));
      cells.push_back(seconds_cell(m.wall_s - m.total_s));
      cells.push_back(bench::gib(m.output_bytes));
    } else {
      cells.resize(header.size() - 1, "-");
    }
    cells.push_back(m.status);
    table.add_row(cells);
  }
  table.print(out);
}

const Measured* find(const std::vector<Measured>& all, const std::string& app, const std::string& input,
                     const std::string& backend) {
  for (const Measured& m : all)
    if (m.app == app && m.input == input && m.backend == backend && m.good()) return &m;
  return nullptr;
}

// Per app and input: GPU against CPU as the user waits (wall) and in the compute phase alone.
json print_gpu_vs_cpu(const std::vector<Measured>& all, const std::vector<Input>& inputs, const Options& o,
                      std::ostream& out) {
  bench::Table table({"app", "input", "gpu wall s", "cpu wall s", "cpu/gpu wall", "cpu/gpu compute"});
  json rows = json::array();
  for (const auto& app : o.apps)
    for (const Input& in : inputs) {
      const Measured* gpu = find(all, app, in.name, "gpu");
      const Measured* cpu = find(all, app, in.name, "cpu");
      if (!gpu || !cpu) continue;
      const double wall = cpu->wall_s / gpu->wall_s, compute = cpu->phase_s.at("compute") / gpu->phase_s.at("compute");
      table.add_row({app, in.name, seconds_cell(gpu->wall_s), seconds_cell(cpu->wall_s), bench::times(wall),
                     bench::times(compute)});
      rows.push_back(
          {{"app", app}, {"input", in.name}, {"cpu_over_gpu_wall", wall}, {"cpu_over_gpu_compute", compute}});
    }
  if (!table.empty()) {
    out << "\n== GPU against CPU: cpu/gpu is the CPU backend's time over the GPU's\n";
    table.print(out);
  }
  return rows;
}

json print_target(const std::vector<Measured>& all, const Options& o, std::ostream& out) {
  const Measured* m = find(all, "pagerank", kTargetInput, "gpu");
  if (!m) return nullptr;
  const double total = m->total_s, load = m->phase_s.at("load");
  const bool full = o.scale == 1;
  out << "\npagerank " << kTargetInput << " .spgcsr process start to ranks written: " << bench::fixed(total, 3)
      << " s (target <= " << kTargetTotalS << " s), load " << bench::fixed(load, 3) << " s (target <= "
      << kTargetLoadS << " s)";
  if (full) out << ": " << (total <= kTargetTotalS && load <= kTargetLoadS ? "met" : "not met");
  else out << " (at 1/" << o.scale << " size; the targets are for the full size)";
  out << "; wall, spawn to exit, " << bench::fixed(m->wall_s, 3) << " s\n";
  return {{"input", kTargetInput}, {"process_start_to_written_s", total}, {"load_s", load}, {"wall_s", m->wall_s},
          {"target_total_s", kTargetTotalS}, {"target_load_s", kTargetLoadS}, {"full_size", full},
          {"met", full && total <= kTargetTotalS && load <= kTargetLoadS}};
}

json to_json(const Measured& m) {
  json j = {{"app", m.app}, {"input", m.input}, {"backend", m.backend}, {"status", m.status}};
  if (!m.good()) return j;
  json phases;
  for (const auto& p : kPhases) phases[p + "_s"] = m.phase_s.at(p);
  j.update({{"wall_s", m.wall_s}, {"total_s", m.total_s}, {"phases", phases}, {"other_s", m.other_s},
            {"output_bytes", m.output_bytes}, {"runs", m.runs}});
  return j;
}

int run(const Options& o, std::ostream& out) {
  const std::vector<Input> inputs = resolve(o, out);
  out << "spgraph end-to-end benchmark: each app a child process, wall = spawn to exit (median of " << o.repeats
      << " after " << o.warmup << " warm-up); in-app = the app's --timings total, process start to output "
      << "written;\nits phases: startup (to main), device_init (CUDA context / GraphBLAS), load, build (graph on "
      << "the backend), compute, write; other: the rest of in-app; exit: wall - in-app (freeing, exit, spawn;\n"
      << "\"-\" where in-app reads longer, within its process start time's resolution, one clock tick)\n";
  for (const Input& in : inputs)
    out << "input " << in.name << ": " << in.path << ", " << bench::gib(in.bytes) << ", " << in.source << '\n';

  bench::TempDir work("spgraph-bench-end-to-end");
  std::vector<Measured> all;
  json failed = json::array();
  std::string no_gpu;  // why the first GPU run found no usable GPU: the others are not tried
  for (const Input& in : inputs)
    for (const auto& app : o.apps)
      for (const auto& backend : o.backends) {
        out << "running " << app << " " << in.name << " --backend " << backend << " ..." << std::flush;
        if (backend == "gpu" && !no_gpu.empty()) {
          all.push_back({.app = app, .input = in.name, .backend = backend, .status = "skipped (no usable GPU)"});
        } else {
          all.push_back(measure(o, app, in, backend, work));
          if (backend == "gpu" && all.back().status.find("no usable GPU") != std::string::npos)
            no_gpu = all.back().status;
        }
        const Measured& m = all.back();
        out << " " << (m.good() ? seconds_cell(m.wall_s) + " s" : m.status) << '\n';
        if (!m.good() && !m.status.starts_with("skipped"))
          failed.push_back({{"input", in.name}, {"error", app + " --backend " + backend + ": " + m.status}});
      }

  out << '\n';
  std::vector<std::string> input_names;
  for (const Input& in : inputs) input_names.push_back(in.name);
  std::sort(all.begin(), all.end(), [&](const Measured& a, const Measured& b) {  // by app, then input
    auto rank = [](const std::vector<std::string>& v, const std::string& x) {
      return std::find(v.begin(), v.end(), x) - v.begin();
    };
    return std::make_tuple(rank(o.apps, a.app), rank(input_names, a.input), rank(o.backends, a.backend)) <
           std::make_tuple(rank(o.apps, b.app), rank(input_names, b.input), rank(o.backends, b.backend));
  });
  print_table(all, out);
  json summary = {{"gpu_vs_cpu", print_gpu_vs_cpu(all, inputs, o, out)}, {"target", print_target(all, o, out)}};

  json runs = json::array(), input_list = json::array();
  for (const Measured& m : all) runs.push_back(to_json(m));
  for (const Input& in : inputs)
    input_list.push_back({{"name", in.name}, {"path", in.path}, {"bytes", in.bytes}, {"source", in.source}});
  const json doc = {{"benchmark", "end_to_end"},
                    {"timing", {{"warmup", o.warmup}, {"repeats", o.repeats}, {"wall", "spawn to exit"},
                                {"in_app", "the app's --timings report"}}},
                    {"scale", o.scale},
                    {"msbfs_sources", o.msbfs_sources},
                    {"host_cores", std::thread::hardware_concurrency()},
                    {"inputs", input_list},
                    {"results", runs}};
  return bench::finish_run(out, o.json_path, doc, failed, summary, false);
}

}  // namespace

int main(int argc, char** argv) try {
  CLI::App cli{
      "Runs the apps (pagerank, tricount, msbfs, mcl) as a user does, each a child process, on the GPU and on\n"
      "the CPU backend, on generated graphs saved as .spgcsr and on the shared real graphs; prints the wall\n"
      "time from spawn to exit and each phase of the app's --timings report (start-up, device initialisation,\n"
      "load, build, compute, write), GPU against CPU, and pagerank's target line, and writes them as JSON."};
  Options o;
  cli.add_option("--apps", o.apps, "apps to run, comma-separated")
      ->delimiter(',')->allow_extra_args(false)
      ->check(CLI::IsMember({"pagerank", "tricount", "msbfs", "mcl"}))
      ->capture_default_str();
  cli.add_option("--inputs", o.inputs,
                 "inputs, comma-separated: wb-edu-like and cit-patents-like (generated into --dir as .spgcsr when "
                 "absent), cnr-2000, web-NotreDame, cit-HepPh, email-Enron (from --data-dir), or graph files")
      ->delimiter(',')->allow_extra_args(false)
      ->capture_default_str();
  cli.add_option("--backends", o.backends, "backends, comma-separated")
      ->delimiter(',')->allow_extra_args(false)
      ->check(CLI::IsMember({"gpu", "cpu"}))
      ->capture_default_str();
  cli.add_option("--dir", o.dir, "folder of the generated graphs' .spgcsr files, kept for the next run")
      ->capture_default_str();
  cli.add_option("--scale", o.scale, "generate the graphs at 1/K of their size (io::scaled), for a quick run")
      ->type_name("K")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cli.add_option("--data-dir", o.data_dir, "folder of the shared real graphs ($DEVICE_DATA/real when set)")
      ->capture_default_str();
  cli.add_option("--bin-dir", o.bin_dir, "folder of the app binaries (default: this program's folder)");
  cli.add_option("--warmup", o.warmup, "untimed runs first, per app, input and backend")
      ->check(CLI::Range(0, 100))
      ->capture_default_str();
  cli.add_option("--repeats", o.repeats, "timed runs; the median of each figure is reported")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cli.add_option("--msbfs-sources", o.msbfs_sources, "msbfs --random K: sources searched, levels written in binary")
      ->type_name("K")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  cli.add_option("--skip", o.skip, "app:input pairs not run, comma-separated (\"\" for none)")
      ->delimiter(',')->allow_extra_args(false)
      ->capture_default_str();
  cli.add_option("--timeout", o.timeout_s, "seconds a run may take before it is killed and reported")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cli.add_option("--json", o.json_path, "JSON results file (\"\" for none)")->capture_default_str();
  CLI11_PARSE(cli, argc, argv);
  if (o.bin_dir.empty()) o.bin_dir = fs::read_symlink("/proc/self/exe").parent_path().string();
  return run(o, std::cout);
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_end_to_end: %s\n", e.what());
  return 1;
}
