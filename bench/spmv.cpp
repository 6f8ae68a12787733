// spmv: the SpMV benchmark (bench/common/spmv_bench.hpp) as a command.
#include <iostream>

#include "bench_cli.hpp"
#include "run_app.hpp"
#include "spmv_bench.hpp"

int main(int argc, char** argv) {
  return spgraph::apps::run_app("spmv", argc, argv, [](spgraph::apps::Command& cmd) {
    using namespace spgraph::bench;
    SpmvBenchOptions options;
    BenchFlags flags("both", options.json_path);
    CLI::App& cli = cmd.cli();
    cli.description(
        "Benchmarks sparse matrix-vector multiplication y = A*x on the GPU: every SpMV kernel of spgraph\n"
        "(csr-vector, csr-merge-path, csr-stream, coo-load-balanced, sell-p, hyb, amb, and the automatic\n"
        "choice) against cuSPARSE's CSR SpMV, on each graph in float and double, value-free and valued,\n"
        "plus one PageRank iteration.\n"
        "Prints effective GB/s against the device's copy bandwidth measured in the same run, speedups, and\n"
        "writes the results as JSON. Every result is checked before it is timed.");
    flags.add_to(cli, options.timing);
    bool no_flush = false;
    cli.add_flag("--no-l2-flush", no_flush, "keep the L2 cache between runs (small matrices then run from L2)");
    cli.add_option("--pagerank-repeats", options.pagerank_repeats,
                   "timed runs of 100 back-to-back PageRank iterations, and of 100 SpMVs on A', per graph and\n"
                   "precision; the medians compared (0: no PageRank rows)")
        ->check(CLI::Range(0, 1000))
        ->capture_default_str();
    cmd.parse();

    flags.apply_to(options);
    options.timing.flush_l2 = !no_flush;
    require_gpu("spmv");
    return run_spmv_bench(options, std::cout);
  });
}
