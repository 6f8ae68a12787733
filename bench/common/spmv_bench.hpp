#pragma once
// The SpMV benchmark the `spmv` app runs: y = A*x (plus-times) with every SpMV kernel of ours
// and cuSPARSE's CSR SpMV, side by side in one run, on each input, in float and double, value-free
// (pattern) and valued; plus one PageRank iteration against one value-free SpMV.
#include <ostream>
#include <string>
#include <vector>

#include "bench_inputs.hpp"
#include "gpu_timer.hpp"
#include "precision.hpp"

namespace spgraph::bench {

struct SpmvBenchOptions {
  InputOptions inputs;
  std::vector<Precision> precisions = {Precision::Float, Precision::Double};
  TimingOptions timing = {.warmup = 3, .repeats = 20, .flush_l2 = true};
  int pagerank_repeats = 3;  // 0: no PageRank rows
  std::string json_path = "spmv-bench.json";  // empty: no JSON file
};

// Prints the tables and summary to `out` and writes the JSON file. Returns 0, or 1 when one of
// our kernels gave a wrong result or an input could not be completed (the run goes on with
// the others and reports everything else).
int run_spmv_bench(const SpmvBenchOptions& options, std::ostream& out);

}  // namespace spgraph::bench
