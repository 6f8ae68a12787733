#pragma once
// The graphs the SpMV and SpGEMM benchmarks run on: files named on the command line (or the
// default real graphs found in a data folder), then generated graphs at the scale of the
// targets wb-edu and cit-Patents, which cannot be downloaded on the GPU machine and are too big
// to carry there: they are generated in the benchmark process, each once.
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "spgraph/csr.hpp"

namespace spgraph::bench {

// The real graphs of ../shared/datasets/real the benchmarks use when no file is named.
const std::vector<std::string>& default_graph_files();
// The generator presets by name: "wb-edu" (wb-edu-like) and "cit-patents" (cit-Patents-like).
const std::vector<std::string>& generated_presets();

struct InputOptions {
  std::vector<std::string> files;  // empty: default_graph_files() found in data_dir
  std::string data_dir;
  std::vector<std::string> generated;  // preset names from generated_presets()
};

struct InputSpec {
  std::string name;    // "cnr-2000", "wb-edu-like"
  std::string path;    // the file; empty for a generated graph
  std::string preset;  // the generator preset; empty for a file
  int times = 1;       // a preset's graph this many times larger (io::enlarged)
};

struct BenchInput {
  std::string name;
  std::string source;  // the file, or the generator and its parameters
  Csr<double> graph;   // square, as read or generated (pattern unless the file has values)
  double load_seconds = 0;
};

// Resolves the options to a list, printing to `log` which default files were not found.
// Throws spgraph::Error for an unknown preset, a named file that does not exist, or an empty
// list.
std::vector<InputSpec> resolve_inputs(const InputOptions& options, std::ostream& log);
// Reads or generates one input (generation uses every host core).
BenchInput load_input(const InputSpec& spec);

// Loads every input in turn, prints its heading ("== name: n vertices, m links; where from (load
// time)") and hands it to `each`. An input that cannot be loaded, or whose `each` throws, is
// reported ("!! name stopped: why") and listed in failed_inputs as {"input", "error"}; the other
// inputs still run.
void for_each_input(const std::vector<InputSpec>& specs, std::ostream& out, nlohmann::json& failed_inputs,
                    const std::function<void(const BenchInput&)>& each);

}  // namespace spgraph::bench
