// Building a graph on the backends (spgraph/graph.hpp) from a host CSR already in memory: what
// every algorithm waits for before its first operation. For each input, on the GPU: the pattern
// uploaded, A' transposed on the device, the out-degrees, and the SpMV format PageRank's
// product reads (prepare_spmv), each phase timed with the device synchronised; on the CPU
// (GraphBLAS) the same parts. Wall clock, median of --repeats runs after one warm-up; peak
// device memory of one build. PageRank's parts are built for float ranks.
//
//   bench_graph_build [--generated wb-edu,cit-patents] [--repeats 5] [--json FILE]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "bench_inputs.hpp"
#include "json_output.hpp"
#include "peak_memory.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/gpu/backend.hpp"
#include "spgraph/gpu/spmv.hpp"
#include "spgraph/graph.hpp"
#include "spgraph/graphblas/backend.hpp"
#include "spgraph/io/generators.hpp"
#include "table.hpp"

namespace {

using namespace spgraph;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Phases {
  double upload = 0, transpose = 0, degrees = 0, formats = 0;
  double total() const { return upload + transpose + degrees + formats; }
};

// One build; each phase ends with the device idle, so it is charged its own work.
Phases build_gpu(const Csr<double>& host) {
  const auto sync = [] { SPGRAPH_CUDA(cudaDeviceSynchronize()); };
  Phases p;
  Graph<gpu::GpuBackend> g(host);
  auto t = Clock::now();
  g.pattern<float>();
  sync();
  p.upload = since(t);
  t = Clock::now();
  const auto& in_links = g.in_links<float>();
  sync();
  p.transpose = since(t);
  t = Clock::now();
  g.out_degree<float>();
  sync();
  p.degrees = since(t);
  t = Clock::now();
  gpu::prepare_spmv(in_links, SpmvKernel::Auto);
  sync();
  p.formats = since(t);
  return p;
}

Phases build_cpu(const Csr<double>& host) {
  Phases p;
  Graph<graphblas::GraphBlasBackend> g(host);
  auto t = Clock::now();
  g.pattern<float>();
  p.upload = since(t);
  t = Clock::now();
  g.in_links<float>();
  p.transpose = since(t);
  t = Clock::now();
  g.out_degree<float>();
  p.degrees = since(t);
  return p;
}

template <class F>
Phases median_of(int repeats, F build) {
  build();  // warm-up: device start, pool growth, GraphBLAS initialisation
  std::vector<Phases> runs;
  for (int r = 0; r < repeats; ++r) runs.push_back(build());
  std::sort(runs.begin(), runs.end(), [](const Phases& a, const Phases& b) { return a.total() < b.total(); });
  return runs[runs.size() / 2];
}

std::string ms(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", s * 1e3);
  return b;
}

}  // namespace

int main(int argc, char** argv) try {
  CLI::App cli{"Time to build a graph on the GPU and on the CPU backend from a host CSR in memory"};
  std::vector<std::string> generated{"wb-edu", "cit-patents"};
  int repeats = 5;
  std::string json_path;
  cli.add_option("--generated", generated, "generated presets to build (wb-edu, cit-patents)")->delimiter(',');
  cli.add_option("--repeats", repeats, "timed builds per input (median reported)")->check(CLI::PositiveNumber);
  cli.add_option("--json", json_path, "also write the results as JSON to this file");
  CLI11_PARSE(cli, argc, argv);
  std::string why;
  if (!device::gpu_available(&why)) {
    std::fprintf(stderr, "bench_graph_build: needs a GPU: %s\n", why.c_str());
    return 1;
  }
  std::printf("device: %s\n", device::device_description().c_str());

  bench::Table table({"input", "vertices", "links", "backend", "upload ms", "transpose ms", "degrees ms",
                      "formats ms", "total ms", "peak device MiB"});
  nlohmann::json results = nlohmann::json::array();
  for (const auto& preset : generated) {
    const bench::BenchInput input = bench::load_input({preset + "-like", "", preset});
    const Csr<double>& host = input.graph;
    std::size_t peak = 0;
    {
      bench::PeakMemory memory;
      build_gpu(host);
      peak = memory.bytes();
    }
    const Phases gpu = median_of(repeats, [&] { return build_gpu(host); });
    const Phases cpu = median_of(std::max(1, repeats / 2), [&] { return build_cpu(host); });
    for (const auto& [name, p] : {std::pair<const char*, Phases>{"gpu", gpu}, {"cpu", cpu}}) {
      table.add_row({preset + "-like", std::to_string(host.nrows), std::to_string(host.nnz()), name, ms(p.upload),
                     ms(p.transpose), ms(p.degrees), ms(p.formats), ms(p.total()),
                     std::string(name) == "gpu" ? std::to_string(peak >> 20) : "-"});
      results.push_back({{"input", preset + "-like"}, {"backend", name}, {"upload_s", p.upload},
                         {"transpose_s", p.transpose}, {"degrees_s", p.degrees}, {"formats_s", p.formats},
                         {"total_s", p.total()}, {"peak_device_bytes", std::string(name) == "gpu" ? peak : 0}});
    }
    table.add_gap();
  }
  table.print(std::cout);
  if (!json_path.empty())
    bench::write_json_file(json_path, {{"device", device::device_description()}, {"results", results}});
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_graph_build: %s\n", e.what());
  return 1;
}
