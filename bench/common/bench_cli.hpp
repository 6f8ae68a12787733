#pragma once
// The command-line flags the `spmv` and `spgemm` apps share (inputs, precision, timing, JSON),
// and their GPU check.
// Header-only: included by the apps, which link CLI11.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include "bench_inputs.hpp"
#include "gpu_timer.hpp"
#include "precision.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"

namespace spgraph::bench {

// $DEVICE_DATA/real when DEVICE_DATA is set (the GPU machine's bundle carries
// ../shared/datasets/real there), else the shared datasets beside the checkout.
inline std::string default_data_dir() {
  const char* env = std::getenv("DEVICE_DATA");
  return env && *env ? std::string(env) + "/real" : "../shared/datasets/real";
}

struct BenchFlags {
  std::vector<std::string> inputs;
  std::string data_dir = default_data_dir();
  std::string generated = "wb-edu,cit-patents";
  bool no_generated = false;
  std::string precision;
  std::string json_path;

  BenchFlags(std::string default_precision, std::string default_json)
      : precision(std::move(default_precision)), json_path(std::move(default_json)) {}

  void add_to(CLI::App& cli, TimingOptions& timing) {
    cli.add_option("inputs,--inputs", inputs,
                   "graph files: Matrix Market (.mtx, .mtx.gz) or SNAP edge lists (.txt, .txt.gz); default: "
                   "those of cnr-2000.mtx.gz, web-NotreDame.txt.gz, cit-HepPh.txt.gz, email-Enron.txt.gz found "
                   "in --data-dir");
    cli.add_option("--data-dir", data_dir, "folder of the default graph files ($DEVICE_DATA/real when DEVICE_DATA is set)")
        ->capture_default_str();
    auto* gen = cli.add_option("--generated", generated,
                               "generated graphs to add, comma-separated: wb-edu (9.8M vertices, 57M edges), "
                               "cit-patents (3.8M, 16.5M); generated in this process")
                    ->capture_default_str();
    cli.add_flag("--no-generated", no_generated, "no generated graphs")->excludes(gen);
    cli.add_option("--precision", precision, "value type: float, double or both")
        ->check(CLI::IsMember({"float", "double", "both"}))
        ->capture_default_str();
    cli.add_option("--warmup", timing.warmup, "untimed runs before the timed ones (after the checked run)")
        ->check(CLI::Range(0, 1000))
        ->capture_default_str();
    cli.add_option("--repeats", timing.repeats, "timed runs; the median (and min) is reported")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    cli.add_option("--json", json_path, "JSON results file (\"\" for none)")->capture_default_str();
  }

  // Fills the fields every benchmark's options have (inputs, precisions, json_path).
  template <class BenchOptions>
  void apply_to(BenchOptions& options) const {
    options.inputs = input_options();
    options.precisions = parse_precisions(precision);
    options.json_path = json_path;
  }

  InputOptions input_options() const {
    InputOptions o;
    o.files = inputs;
    o.data_dir = data_dir;
    if (!no_generated) {
      std::size_t start = 0;
      while (start <= generated.size()) {
        std::size_t comma = generated.find(',', start);
        std::string name = generated.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!name.empty()) o.generated.push_back(name);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    }
    return o;
  }
};

// The benchmarks time GPU kernels: without a usable device they stop with the reason.
inline void require_gpu(const std::string& app) {
  std::string why;
  if (!device::gpu_available(&why))
    throw Error("no GPU: " + why + " (" + app + " benchmarks GPU kernels; it needs a CUDA device)");
}

}  // namespace spgraph::bench
