// bench_scaling: PageRank, triangle counting, multi-source BFS and MCL on the distributed
// backend at several rank counts (issue 42): strong scaling on real and generated graphs (the
// wb-edu-like graph --scale times larger), weak scaling on R-MAT (edge factor 16, one scale a
// rank count).
//
//   bench_scaling --ranks 1,2,4 [graph files...] [--generated wb-edu] [--scale 4]
//                 [--weak-scales 25,26,27] [--algorithms pagerank,tricount,msbfs] [--json FILE]
//
// Started by hand it is the driver: for each rank count P it runs `mpirun -n P` of itself
// (--mpirun, --mpirun-args; OMP_NUM_THREADS set to the cores over P; bench/common/mpi_jobs.hpp),
// each job runs every case and its rank 0 writes its part, and the driver prints one table and
// writes the JSON. Started by mpirun (by the driver, or by hand across hosts with a hostfile) it
// is one job: GPU ranks where every rank has a GPU of its own (--ranks-on auto), else CPU ranks;
// with --ranks-on gpu the driver skips a P above this host's GPUs.
//
// A case at one P: --warmup runs, then the median of --repeats timed runs, each between two
// barriers (so the slowest rank's time); the rate per rank (links per second over P, PageRank's
// per iteration); per run, the bytes each collective brought into a rank (the most over the
// ranks) and its calls; the largest block's share of the links; the most device memory a rank
// held at once (GPU ranks); and, from one more run in which every collective first waits at a
// barrier (dist::Communicator::measure_waits), that run's split into compute, communication and
// waiting (the mean over the ranks). Every P must give the same answer as the first
// (triangles, iterations, edges traversed, clusters): the driver exits 1 where one does not. At
// P = 1 on a GPU rank each case is also timed on the one-GPU backend, as a run without mpirun
// takes it ("/ 1 GPU").
#include "spgraph/config.hpp"

#if SPGRAPH_HAVE_MPI
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "bench_inputs.hpp"
#include "json_output.hpp"
#include "mpi_job_flags.hpp"
#include "mpi_jobs.hpp"
#include "spgraph/algorithms/mcl.hpp"
#include "spgraph/algorithms/msbfs.hpp"
#include "spgraph/algorithms/pagerank.hpp"
#include "spgraph/algorithms/triangle_count.hpp"
#include "spgraph/device/memory.hpp"
#include "spgraph/dist/containers.hpp"
#include "spgraph/dist/layout.hpp"
#include "spgraph/dist/mpi_communicator.hpp"
#include "spgraph/dist/mpi_session.hpp"
#include "spgraph/dist/process_grid.hpp"
#include "spgraph/error.hpp"
#include "spgraph/io/generators.hpp"
#if SPGRAPH_HAVE_GPU
#include "spgraph/gpu/backend.hpp"
#endif

namespace spgraph::bench {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Flags {
  JobFlags jobs;
  std::vector<std::string> algorithms = {"pagerank", "tricount", "msbfs"};
  std::vector<std::string> files;
  std::string data_dir = "../shared/datasets/real";
  std::vector<std::string> generated = {"wb-edu"};
  int scale = 4;
  std::vector<int> weak_scales = {25, 26, 27};
  int edge_factor = 16;
  int sources = 512;
  int pagerank_iterations = 20;
  int warmup = 1;
  int repeats = 3;
  std::string json_path = "scaling.json";
  int job_weak_scale = 0;  // the job's own: the weak-scaling scale of its P (0: none)
};

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// ---- one job: every case on this job's ranks ---------------------------------------------------

// What one run of an algorithm did: the links its rate counts and the answer every P must share.
struct Outcome {
  double work = 0;  // links processed (PageRank: per iteration)
  int iterations = 1;
  json answer;
};

template <class B>
Outcome run_algorithm(const std::string& algorithm, Graph<B>& g, const Flags& flags) {
  Outcome o;
  if (algorithm == "pagerank") {
    algorithms::PageRankOptions options;
    options.fixed_iterations = flags.pagerank_iterations;
    const auto r = algorithms::pagerank<double>(g, options);
    o.work = double(g.edges());
    o.iterations = r.iterations;
    o.answer = {{"iterations", r.iterations}};
  } else if (algorithm == "tricount") {
    const auto r = algorithms::triangle_count(g);
    o.work = double(r.undirected_edges);
    o.answer = {{"triangles", r.triangles}};
  } else if (algorithm == "msbfs") {
    std::vector<vid_t> sources;
    const vid_t n = g.vertices();
    for (int s = 0; s < flags.sources && n > 0; ++s) sources.push_back(vid_t((std::int64_t(s) * 2654435761LL) % n));
    const auto r = algorithms::msbfs(g, sources, {});
    o.work = double(r.edges_traversed);
    o.answer = {{"edges_traversed", r.edges_traversed}};
  } else if (algorithm == "mcl") {
    const auto r = algorithms::mcl(g);
    o.work = double(g.edges());
    o.iterations = r.iterations;
    o.answer = {{"iterations", r.iterations}, {"clusters", r.clusters.size()}};
  } else {
    throw Error("bench_scaling: unknown algorithm '" + algorithm + "' (known: pagerank, tricount, msbfs, mcl)");
  }
  return o;
}

// This rank's block's share of A's links.
double block_share(const Csr<double>& a, const dist::ProcessGrid& grid) {
  const dist::BlockRange rows = dist::matrix_row_block(a.nrows, grid.shape(), grid.row());
  const dist::BlockRange cols = dist::matrix_col_block(a.ncols, grid.shape(), grid.col());
  eid_t mine = 0;
  for (std::int64_t i = rows.begin; i < rows.end; ++i)
    for (eid_t p = a.rowptr[std::size_t(i)]; p < a.rowptr[std::size_t(i) + 1]; ++p)
      mine += a.col[std::size_t(p)] >= cols.begin && a.col[std::size_t(p)] < cols.end;
  return a.nnz() > 0 ? double(mine) / double(a.nnz()) : 0;
}

#if SPGRAPH_HAVE_GPU
// The same case on the one-GPU backend without the distributed one (the path a run without
// mpirun takes), timed alike: what P = 1 under mpirun costs over it.
double single_gpu_seconds(const std::string& algorithm, const BenchInput& in, const Flags& flags) {
  Graph<gpu::GpuBackend> g(in.graph);
  auto timed = [&] {
    const auto start = Clock::now();
    run_algorithm(algorithm, g, flags);
    return seconds_since(start);
  };
  for (int w = 0; w <= flags.warmup; ++w) timed();
  std::vector<double> times;
  for (int r = 0; r < flags.repeats; ++r) times.push_back(timed());
  return median(times);
}
#endif

template <class B>
json run_case(const std::string& algorithm, const BenchInput& in, const dist::ProcessGrid& grid, bool gpu,
              const Flags& flags) {
  const int p = grid.world().size();
  Graph<B> g(in.graph);
  auto timed = [&](Outcome* out) {
    grid.world().barrier();
    const auto start = Clock::now();
    Outcome o = run_algorithm(algorithm, g, flags);
    grid.world().barrier();
    if (out) *out = std::move(o);
    return seconds_since(start);
  };
  Outcome outcome;
  timed(&outcome);  // builds what the graph keeps (A', the undirected graph), as a user's first run
  for (int w = 0; w < flags.warmup; ++w) timed(nullptr);
  if (gpu) device::reset_peak();
  const std::size_t live = gpu ? device::memory_stats().current : 0;
  grid.reset_traffic();
  std::vector<double> times;
  for (int r = 0; r < flags.repeats; ++r) times.push_back(timed(nullptr));
  const dist::Traffic traffic = grid.traffic();
  const double peak = gpu ? double(device::memory_stats().peak - std::min(live, device::memory_stats().peak)) : 0;
  const double live_bytes = gpu ? double(live) : 0;

  grid.reset_traffic();
  grid.measure_waits(true);
  const double split_total = timed(nullptr);
  grid.measure_waits(false);
  const dist::Traffic split = grid.traffic();

  const double seconds = median(times);
  const double per_iteration = seconds / std::max(1, outcome.iterations);
  const json collectives = collectives_json(grid.world(), traffic, flags.repeats);
  // The ranks' mean split, so that its parts add up to the run.
  const double waiting = mean_over_ranks(grid.world(), split.waiting_seconds);
  const double communication = mean_over_ranks(grid.world(), split.total().seconds);
  return {{"algorithm", algorithm},
          {"input", in.name},
          {"vertices", in.graph.nrows},
          {"links", in.graph.nnz()},
          {"ranks", p},
          {"grid", dist::to_string(grid.shape())},
          {"ranks_on", gpu ? "gpu" : "cpu"},
          {"seconds", seconds},
          {"seconds_min", *std::min_element(times.begin(), times.end())},
          {"iterations", outcome.iterations},
          {"seconds_per_iteration", per_iteration},
          {"rate_per_rank_g", outcome.work / per_iteration / p / 1e9},
          {"answer", outcome.answer},
          {"collectives", collectives},
          {"bytes_per_run", most_over_ranks(grid.world(), double(traffic.total().bytes) / flags.repeats)},
          {"split", {{"seconds", split_total},
                     {"waiting", waiting},
                     {"communication", communication},
                     {"compute", std::max(0.0, split_total - waiting - communication)}}},
          {"peak_device_bytes", most_over_ranks(grid.world(), peak)},
          {"graph_device_bytes", most_over_ranks(grid.world(), live_bytes)},
          {"largest_block_share", most_over_ranks(grid.world(), block_share(in.graph, grid))}};
}

std::vector<InputSpec> job_inputs(const Flags& flags) {
  std::vector<InputSpec> specs;
  for (const std::string& f : flags.files) specs.push_back({f.substr(f.find_last_of('/') + 1), f, "", 1});
  for (const std::string& preset : flags.generated) {
    InputSpec s{preset + "-like", "", preset, flags.scale};
    if (flags.scale > 1) s.name += " x" + std::to_string(flags.scale);
    specs.push_back(s);
  }
  return specs;
}

template <class B>
json run_job_cases(const dist::ProcessGrid& grid, bool gpu, const Flags& flags) {
  json results = json::array();
  auto each = [&](const BenchInput& in, const std::string& kind) {
    for (const std::string& algorithm : flags.algorithms) {
      json r = run_case<B>(algorithm, in, grid, gpu, flags);
      r["scaling"] = kind;
#if SPGRAPH_HAVE_GPU
      if (gpu && grid.world().size() == 1) r["single_gpu_seconds"] = single_gpu_seconds(algorithm, in, flags);
#endif
      if (grid.world().rank() == 0)
        std::printf("%-8s %-22s P=%d %-5s %10.4f s  %8.3f G links/s a rank\n", kind.c_str(), in.name.c_str(),
                    grid.world().size(), algorithm.c_str(), r["seconds"].get<double>(),
                    r["rate_per_rank_g"].get<double>());
      results.push_back(std::move(r));
    }
  };
  for (const InputSpec& spec : job_inputs(flags)) each(load_input(spec), "strong");
  if (flags.job_weak_scale > 0) {
    io::RmatParams rm;
    rm.scale = flags.job_weak_scale;
    rm.edges = eid_t(flags.edge_factor) << flags.job_weak_scale;
    BenchInput in;
    in.name = "rmat-" + std::to_string(rm.scale);
    in.source = "R-MAT scale " + std::to_string(rm.scale) + ", edge factor " + std::to_string(flags.edge_factor);
    in.graph = io::rmat(rm, int(std::max(1u, std::thread::hardware_concurrency())));
    each(in, "weak");
  }
  return results;
}

int run_job(const Flags& flags) {
  auto world = dist::MpiCommunicator::world();
  const RankKind kind = start_ranks(*world, flags.jobs.ranks_on);
  const bool gpu = kind.gpu;
  dist::ProcessGrid grid(*world);
  dist::GridScope scope(grid);
  if (world->rank() == 0)
    std::printf("job: %d ranks on a %s grid, %s ranks%s\n", world->size(), dist::to_string(grid.shape()).c_str(),
                gpu ? "GPU" : "CPU", gpu ? "" : (" (" + kind.why + ")").c_str());
  json results;
#if SPGRAPH_HAVE_GPU
  if (gpu) results = run_job_cases<dist::GpuBackend>(grid, gpu, flags);
  else
#endif
    results = run_job_cases<dist::CpuBackend>(grid, gpu, flags);
  write_job_rows(*world, flags.jobs, results);
  return 0;
}

// ---- the driver: one job a rank count, then the table -------------------------------------------

int run_driver(const Flags& flags) {
  const std::vector<int>& ranks = flags.jobs.ranks;
  if (!flags.weak_scales.empty() && flags.weak_scales.size() != ranks.size())
    throw Error("--weak-scales needs one scale for each of --ranks (" + std::to_string(ranks.size()) + "), got " +
                std::to_string(flags.weak_scales.size()));
  JobRunner jobs(flags.jobs, "spgraph-bench-scaling");
  json all = json::array();
  json failed = json::array();
  json skipped = json::array();
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    std::vector<std::string> args = {
        "--algorithms", joined(flags.algorithms), "--generated", joined(flags.generated), "--scale",
        std::to_string(flags.scale), "--edge-factor", std::to_string(flags.edge_factor), "--sources",
        std::to_string(flags.sources), "--pagerank-iterations", std::to_string(flags.pagerank_iterations),
        "--warmup", std::to_string(flags.warmup), "--repeats", std::to_string(flags.repeats), "--ranks-on",
        flags.jobs.ranks_on, "--job-weak-scale", std::to_string(flags.weak_scales.empty() ? 0 : flags.weak_scales[k])};
    args.insert(args.end(), flags.files.begin(), flags.files.end());
    JobOutcome job = jobs.run(ranks[k], args, std::cout);
    if (job.skipped()) skipped.push_back({{"ranks", job.ranks}, {"why", job.status}});
    else if (!job.ok()) failed.push_back(job.failed_input());
    for (json& row : job.rows) all.push_back(std::move(row));
  }

  // Speedups against the fewest ranks of each case, and the answers compared.
  std::map<std::string, const json*> first;
  bool wrong = false;
  std::printf("\n%-8s %-22s %-9s %5s %11s %8s %9s %12s %7s %7s %7s %6s %8s\n", "scaling", "input", "algorithm", "P",
              "seconds", "speedup", "G/s rank", "MB a run", "comp", "comm", "wait", "block", "/ 1 GPU");
  for (json& row : all) {
    const std::string key = row["scaling"].get<std::string>() + "|" + row["algorithm"].get<std::string>() + "|" +
                            (row["scaling"] == "weak" ? std::string() : row["input"].get<std::string>());
    const json*& base = first[key];
    if (!base) base = &row;
    const double speedup = (*base)["seconds"].get<double>() / row["seconds"].get<double>();
    row["speedup"] = speedup;
    row["efficiency"] = row["scaling"] == "weak" ? speedup : speedup / (row["ranks"].get<double>() / (*base)["ranks"].get<double>());
    if (row["scaling"] == "strong" && row["answer"] != (*base)["answer"]) {
      wrong = true;
      row["answer_differs"] = true;
    }
    const json& s = row["split"];
    const double total = std::max(1e-12, s["seconds"].get<double>());
    const std::string vs_single =
        row.contains("single_gpu_seconds")
            ? std::to_string(row["seconds"].get<double>() / row["single_gpu_seconds"].get<double>()).substr(0, 5)
            : "";
    std::printf("%-8s %-22s %-9s %5d %11.4f %8.2f %9.3f %12.2f %6.0f%% %6.0f%% %6.0f%% %5.0f%% %8s%s\n",
                row["scaling"].get<std::string>().c_str(), row["input"].get<std::string>().c_str(),
                row["algorithm"].get<std::string>().c_str(), row["ranks"].get<int>(), row["seconds"].get<double>(),
                speedup, row["rate_per_rank_g"].get<double>(), row["bytes_per_run"].get<double>() / 1e6,
                100 * s["compute"].get<double>() / total, 100 * s["communication"].get<double>() / total,
                100 * s["waiting"].get<double>() / total, 100 * row["largest_block_share"].get<double>(),
                vs_single.c_str(), row.contains("answer_differs") ? "  ANSWER DIFFERS" : "");
  }
  for (const json& s : skipped) std::printf("P = %d %s\n", s["ranks"].get<int>(), s["why"].get<std::string>().c_str());
  json doc = {{"benchmark", "bench_scaling"}, {"results", all}, {"skipped", skipped}};
  return finish_run(std::cout, flags.json_path, doc, failed, {{"cases", all.size()}}, wrong);
}

}  // namespace
}  // namespace spgraph::bench

int main(int argc, char** argv) {
  using namespace spgraph;
  bench::Flags flags;
  CLI::App cli{"bench_scaling: the distributed backend's algorithms at several rank counts (strong and weak scaling)"};
  cli.add_option("files", flags.files, "graph files for strong scaling (Matrix Market, edge lists, .spgcsr)");
  add_job_flags(cli, flags.jobs, "--ranks",
                "auto (GPU ranks where every rank has a GPU of its own, else CPU ranks), gpu (P above this host's "
                "GPUs skipped) or cpu")
      ->capture_default_str();
  cli.add_option("--algorithms", flags.algorithms, "pagerank, tricount, msbfs, mcl")->delimiter(',')->allow_extra_args(false)->capture_default_str();
  cli.add_option("--generated", flags.generated, "generated graphs for strong scaling: wb-edu, cit-patents (\"\" for none)")
      ->delimiter(',')->allow_extra_args(false)
      ->capture_default_str();
  cli.add_option("--scale", flags.scale, "the generated graphs this many times larger")->check(CLI::Range(1, 64))->capture_default_str();
  cli.add_option("--weak-scales", flags.weak_scales, "R-MAT scales for weak scaling, one for each of --ranks")
      ->delimiter(',')->allow_extra_args(false)
      ->capture_default_str();
  cli.add_option("--edge-factor", flags.edge_factor, "R-MAT edges per vertex")->check(CLI::Range(1, 1024))->capture_default_str();
  cli.add_option("--sources", flags.sources, "msbfs sources")->check(CLI::Range(1, 1 << 20))->capture_default_str();
  cli.add_option("--pagerank-iterations", flags.pagerank_iterations, "PageRank's fixed iterations")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  cli.add_option("--warmup", flags.warmup, "untimed runs after the first")->check(CLI::Range(0, 100))->capture_default_str();
  cli.add_option("--repeats", flags.repeats, "timed runs; the median is reported")->check(CLI::Range(1, 1000))->capture_default_str();
  cli.add_option("--json", flags.json_path, "JSON results file (\"\" for none)")->capture_default_str();
  cli.add_option("--job-weak-scale", flags.job_weak_scale, "this job's R-MAT scale")->group("");
  bool no_weak = false;
  cli.add_flag("--no-weak", no_weak, "no weak scaling");
  CLI11_PARSE(cli, argc, argv);
  if (no_weak) flags.weak_scales.clear();
  if (flags.jobs.part_path.empty()) flags.jobs.part_path = flags.json_path;  // a job started by hand
  flags.generated.erase(std::remove(flags.generated.begin(), flags.generated.end(), ""), flags.generated.end());
  if (!flags.jobs.job && !dist::launched_by_mpi()) {
    try {
      return bench::run_driver(flags);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bench_scaling: error: %s\n", e.what());
      return 1;
    }
  }
  dist::MpiSession session(&argc, &argv, dist::MpiSession::Start::Always);
  return dist::run_or_abort([&] { return bench::run_job(flags); });
}
#else
#include <cstdio>

int main() {
  std::fprintf(stderr, "bench_scaling: error: this build of spgraph found no MPI (install-deps.sh installs OpenMPI)\n");
  return 1;
}
#endif
