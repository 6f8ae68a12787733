#pragma once
// The SpGEMM benchmark the `spgemm` app runs: C = A*A and C = A*A' (plus-times) on each input
// with our hash and ESC algorithms and cuSPARSE's ALG1, ALG2 and ALG3, side by side in one run:
// time, GFLOPS, nnz(C) and peak device memory of each, every result checked against ours.
#include <ostream>
#include <string>
#include <vector>

#include "bench_inputs.hpp"
#include "gpu_timer.hpp"
#include "precision.hpp"

namespace spgraph::bench {

struct SpgemmBenchOptions {
  InputOptions inputs;
  std::vector<Precision> precisions = {Precision::Double};
  // Ten timed runs: the sub-millisecond products vary by 5-10% from run to run on the H200, and
  // a median of three moved their ratios to cuSPARSE by that much between two runs of the bench.
  TimingOptions timing = {.warmup = 2, .repeats = 10, .flush_l2 = false, .synchronize_device = true};
  // A product with more intermediate products than this runs once through gpu::mxm_panels, its
  // panels counted and dropped (its C may not fit on the device), or, without
  // panels_above_max, is skipped with a message (run time).
  double max_products = 4e9;
  bool panels_above_max = true;
  bool a_times_a = true;
  bool a_times_a_transpose = true;
  std::string json_path = "spgemm-bench.json";  // empty: no JSON file
};

// Prints the tables and summary to `out` and writes the JSON file. Returns 0, or 1 when our
// hash and ESC results differ or an input could not be completed (the run goes on with the
// others and reports everything else).
int run_spgemm_bench(const SpgemmBenchOptions& options, std::ostream& out);

}  // namespace spgraph::bench
