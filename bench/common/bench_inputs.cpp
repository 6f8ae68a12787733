#include "bench_inputs.hpp"

#include "table.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "spgraph/error.hpp"
#include "spgraph/io/generators.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::bench {
namespace {

// "cnr-2000.mtx.gz" -> "cnr-2000"
std::string graph_name(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (const char* ext : {".gz", ".mtx", ".txt", ".tsv", ".el"})
    if (name.size() > std::string(ext).size() && name.ends_with(ext)) name.resize(name.size() - std::string(ext).size());
  return name;
}

io::PowerLawParams preset_params(const std::string& preset) {
  if (preset == "wb-edu") return io::wb_edu_like();
  if (preset == "cit-patents") return io::cit_patents_like();
  throw Error("unknown generated graph '" + preset + "' (known: wb-edu, cit-patents)");
}

std::string describe(const std::string& preset, const io::PowerLawParams& p) {
  return "generated (io::" + std::string(preset == "wb-edu" ? "wb_edu_like" : "cit_patents_like") +
         ", seed " + std::to_string(p.seed) + "): n " + std::to_string(p.n) + ", " + std::to_string(p.edges) +
         " edges, longest row " + std::to_string(p.max_out_degree);
}

}  // namespace

const std::vector<std::string>& default_graph_files() {
  static const std::vector<std::string> files = {"cnr-2000.mtx.gz", "web-NotreDame.txt.gz", "cit-HepPh.txt.gz",
                                                 "email-Enron.txt.gz"};
  return files;
}

const std::vector<std::string>& generated_presets() {
  static const std::vector<std::string> presets = {"wb-edu", "cit-patents"};
  return presets;
}

std::vector<InputSpec> resolve_inputs(const InputOptions& options, std::ostream& log) {
  std::vector<InputSpec> specs;
  if (!options.files.empty()) {
    for (const auto& f : options.files) {
      if (!std::filesystem::exists(f)) throw Error(f + ": no such file");
      specs.push_back({graph_name(f), f, ""});
    }
  } else {
    std::vector<std::string> missing;
    for (const auto& f : default_graph_files()) {
      std::filesystem::path p = std::filesystem::path(options.data_dir) / f;
      if (std::filesystem::exists(p)) specs.push_back({graph_name(f), p.string(), ""});
      else missing.push_back(f);
    }
    if (!missing.empty()) {
      log << "data folder " << options.data_dir << ": not found there:";
      for (const auto& m : missing) log << ' ' << m;
      log << '\n';
    }
  }
  for (const auto& preset : options.generated) {
    preset_params(preset);  // rejects an unknown name before any work is done
    specs.push_back({preset + "-like", "", preset});
  }
  if (specs.empty())
    throw Error("no inputs: name graph files, or give --data-dir with " + default_graph_files().front() +
                " and the like, or keep --generated");
  return specs;
}

BenchInput load_input(const InputSpec& spec) {
  auto start = std::chrono::steady_clock::now();
  BenchInput in;
  in.name = spec.name;
  if (spec.preset.empty()) {
    in.source = spec.path;
    in.graph = io::load_graph(spec.path).matrix;
  } else {
    io::PowerLawParams p = preset_params(spec.preset);
    if (spec.times > 1) p = io::enlarged(p, spec.times);
    in.source = describe(spec.preset, p) + (spec.times > 1 ? ", " + std::to_string(spec.times) + " times larger" : "");
    in.graph = io::power_law_graph(p, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  }
  if (in.graph.nrows != in.graph.ncols)
    throw Error(in.source + ": the benchmarks need a square matrix (a graph), got " + std::to_string(in.graph.nrows) +
                "x" + std::to_string(in.graph.ncols));
  in.load_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return in;
}

void for_each_input(const std::vector<InputSpec>& specs, std::ostream& out, nlohmann::json& failed_inputs,
                    const std::function<void(const BenchInput&)>& each) {
  for (const auto& spec : specs) {
    try {
      const BenchInput in = load_input(spec);
      out << "\n== " << in.name << ": " << in.graph.nrows << " vertices, " << in.graph.nnz() << " links; " << in.source
          << " (" << fixed(in.load_seconds, 1) << " s to load)\n"
          << std::flush;
      each(in);
    } catch (const std::exception& e) {  // the other inputs still run
      out << "!! " << spec.name << " stopped: " << e.what() << '\n';
      failed_inputs.push_back({{"input", spec.name}, {"error", e.what()}});
    }
  }
}

}  // namespace spgraph::bench
