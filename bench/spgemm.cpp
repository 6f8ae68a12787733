// spgemm: the SpGEMM benchmark (bench/common/spgemm_bench.hpp) as a command.
#include <iostream>

#include "bench_cli.hpp"
#include "run_app.hpp"
#include "spgemm_bench.hpp"

int main(int argc, char** argv) {
  return spgraph::apps::run_app("spgemm", argc, argv, [](spgraph::apps::Command& cmd) {
    using namespace spgraph::bench;
    SpgemmBenchOptions options;
    BenchFlags flags("double", options.json_path);
    CLI::App& cli = cmd.cli();
    cli.description(
        "Benchmarks sparse matrix-matrix multiplication on the GPU: C = A*A and C = A*A' with spgraph's hash\n"
        "and ESC SpGEMM against cuSPARSE's ALG1, ALG2 and ALG3, on each graph. Prints time, GFLOPS\n"
        "(2 * intermediate products / time), nnz(C) and peak device memory of each, and writes the results\n"
        "as JSON. Every result is checked against ours before it is timed; cuSPARSE failures are reported.");
    flags.add_to(cli, options.timing);
    cli.add_option("--max-products", options.max_products,
                   "a product with more intermediate products than this runs once in row panels\n"
                   "(gpu::mxm_panels, each panel counted and dropped: its C may not fit on the GPU)")
        ->check(CLI::Range(1.0, 1e18))
        ->capture_default_str();
    bool skip_above_max = false;
    cli.add_flag("--skip-above-max", skip_above_max, "skip such products instead (run time)");
    bool only_aa = false, only_aat = false;
    auto* aa = cli.add_flag("--only-aa", only_aa, "run C = A*A only");
    cli.add_flag("--only-aat", only_aat, "run C = A*A' only")->excludes(aa);
    cmd.parse();

    flags.apply_to(options);
    options.panels_above_max = !skip_above_max;
    options.a_times_a = !only_aat;
    options.a_times_a_transpose = !only_aa;
    require_gpu("spgemm");
    return run_spgemm_bench(options, std::cout);
  });
}
