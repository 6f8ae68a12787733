// The benchmarks that run themselves as MPI jobs (bench/common/mpi_jobs.hpp), end to end as a
// user starts them, on CPU ranks at P = 1 and 2 on a bundled graph: bench_mcl --gpus must give
// the clusters of the job alone (the one-process backend) and of mcl at every P, and report
// the time an iteration, the distributed expansion's phases, the bytes moved and the memory;
// bench_scaling must give every P the first P's answer; a job of more GPU ranks than the host
// has GPUs is skipped, not failed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "mcl_program.hpp"
#include "spgraph/config.hpp"
#include "test_support.hpp"

namespace spgraph::bench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// The benchmarks are built beside the test binaries; on the GPU machine the bundle puts every
// executable in one folder, the test binary's own.
std::string program(const std::string& name) {
  const fs::path built = fs::path(SPGRAPH_BINARY_DIR) / name;
  return fs::exists(built) ? built.string() : (fs::read_symlink("/proc/self/exe").parent_path() / name).string();
}

struct BenchRun {
  ProcessResult process;
  std::string log;
  json doc;
};

// Runs `name args... --json FILE` and reads FILE back.
BenchRun run_bench(const std::string& name, std::vector<std::string> args) {
  const TempDir dir("spgraph-mpi-bench-test");
  const std::string json_path = dir.file("out.json"), log = dir.file("out.log");
  args.insert(args.begin(), program(name));
  args.insert(args.end(), {"--json", json_path});
  BenchRun r;
  r.process = run_process(args, log, 600);
  std::ifstream log_in(log);
  std::ostringstream text;
  text << log_in.rdbuf();
  r.log = text.str();
  if (std::ifstream in(json_path); in) r.doc = json::parse(in);
  return r;
}

#define SPGRAPH_REQUIRE_MPI() \
  if (!SPGRAPH_HAVE_MPI) GTEST_SKIP() << "this build has no MPI: the benchmarks' jobs need mpirun"

// mcl's own clusters where Debian's mcl is installed, as bench_mcl runs it.
std::vector<std::string> mcl_args() {
  const std::string mcl = default_mcl_program();
  if (mcl.empty()) return {"--no-mcl"};
  return {"--mcl", mcl, "--mcl-threads", "1"};
}

TEST(BenchMclRanks, CpuRanksGiveTheClustersOfTheJobAloneAndOfMcl) {
  SPGRAPH_REQUIRE_MPI();
  // A budget of 128 KiB a rank: netscience's smaller iterates fit it and expand on replicated
  // operands; the larger ones are cut into several phases.
  std::vector<std::string> args = {"--gpus", "1,2", "--ranks-on", "cpu", test::dataset("small/netscience.mtx"),
                                   "--no-generated", "--warmup", "0", "--repeats", "2", "--memory-budget", "128K"};
  const std::vector<std::string> mcl = mcl_args();
  args.insert(args.end(), mcl.begin(), mcl.end());
  const BenchRun r = run_bench("bench_mcl", args);
  ASSERT_TRUE(r.process.ok()) << r.process.describe() << '\n' << r.log;
  const json& doc = r.doc;
  EXPECT_EQ(doc["benchmark"], "mcl_ranks");
  EXPECT_EQ(doc["ranks_on"], "cpu");
  ASSERT_EQ(doc["results"].size(), 1u) << r.log;
  const json& in = doc["results"][0];
  EXPECT_EQ(in["input"], "netscience");
  EXPECT_GT(in["first_expansion_bound_bytes"].get<double>(), 0);
  const bool with_mcl = mcl.front() != "--no-mcl";
  if (with_mcl) EXPECT_EQ(in["mcl"]["status"], "ok") << in["mcl"].dump();
  const json& runs = in["runs"];
  ASSERT_EQ(runs.size(), 3u) << r.log;  // alone, P = 1, P = 2
  const json& alone = runs[0];
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const json& run = runs[k];
    SCOPED_TRACE(run.dump());
    EXPECT_EQ(run["ranks"], k);  // alone is 0
    ASSERT_EQ(run["status"], "ok");
    EXPECT_EQ(run["ranks_on"], "cpu");
    EXPECT_EQ(run["clusters"], alone["clusters"]);
    EXPECT_EQ(run["iterations"], alone["iterations"]);
    EXPECT_TRUE(run["converged"].get<bool>());
    EXPECT_GT(run["seconds_per_iteration"].get<double>(), 0);
    EXPECT_GE(run["median_s"].get<double>(), run["iterate_median_s"].get<double>());
    EXPECT_GT(run["peak_host_bytes"].get<double>(), 0);
    EXPECT_FALSE(run.contains("peak_device_bytes"));  // CPU ranks
    if (with_mcl) EXPECT_EQ(run["ari_vs_mcl"].get<double>(), 1.0);
    if (k == 0) continue;
    EXPECT_EQ(run["grid"], k == 1 ? "1x1" : "1x2");
    EXPECT_EQ(run["ari_vs_alone"].get<double>(), 1.0);
    EXPECT_GT(run["speedup_vs_alone"].get<double>(), 0);
    EXPECT_TRUE(run.contains("collectives"));
    if (k == 1) {  // a grid of one rank runs its local backend: nothing moves, no phases
      EXPECT_EQ(run["bytes_moved_per_run"].get<double>(), 0);
      EXPECT_EQ(run["expansions"], 0);
      continue;
    }
    // One distributed expansion an iteration: the smaller on replicated operands, the larger in
    // several phases; the panels and rows the ranks exchange.
    EXPECT_EQ(run["expansions"], run["iterations"]);
    const std::int64_t replicated = run["replicated_expansions"].get<std::int64_t>();
    EXPECT_GT(replicated, 0);
    EXPECT_LT(replicated, run["expansions"].get<std::int64_t>());
    EXPECT_GT(run["phases"].get<std::int64_t>(), run["expansions"].get<std::int64_t>() - replicated);
    EXPECT_GT(run["most_phases"].get<std::int64_t>(), 1);
    EXPECT_GT(run["largest_expansion_bound"].get<std::int64_t>(), 0);
    EXPECT_GT(run["bytes_moved_per_run"].get<double>(), 0);
    EXPECT_GT(run["most_bytes_a_rank_per_run"].get<double>(), 0);
    EXPECT_TRUE(run["collectives"].contains("broadcast"));
  }
  EXPECT_EQ(doc["parameters"]["memory_budget"], 128 << 10);
}

TEST(BenchMclRanks, MoreGpuRanksThanGpusAreSkippedNotFailed) {
  SPGRAPH_REQUIRE_MPI();
  const BenchRun r = run_bench("bench_mcl", {"--gpus", "1024", "--ranks-on", "gpu", test::dataset("small/karate.mtx"),
                                             "--no-generated", "--warmup", "0", "--repeats", "1", "--no-mcl"});
  ASSERT_TRUE(r.process.ok()) << r.process.describe() << '\n' << r.log;
  const json& runs = r.doc["results"][0]["runs"];
  ASSERT_EQ(runs.size(), 2u) << r.log;
  EXPECT_EQ(runs[1]["ranks"], 1024);
  EXPECT_TRUE(runs[1]["status"].get<std::string>().starts_with("skipped: 1024 GPU ranks need a GPU each, this host has "))
      << runs[1].dump();
  EXPECT_NE(r.log.find("skipped: 1024 GPU ranks"), std::string::npos) << r.log;
}

TEST(BenchScalingRanks, CpuRanksGiveTheAnswersOfOneRank) {
  SPGRAPH_REQUIRE_MPI();
  const BenchRun r = run_bench("bench_scaling", {"--ranks", "1,2", "--ranks-on", "cpu", "--no-weak", "--generated", "",
                                                 "--algorithms", "pagerank,mcl", "--warmup", "0", "--repeats", "1",
                                                 test::dataset("small/netscience.mtx")});
  ASSERT_TRUE(r.process.ok()) << r.process.describe() << '\n' << r.log;
  const json& rows = r.doc["results"];
  ASSERT_EQ(rows.size(), 4u) << r.log;  // two algorithms at two rank counts
  for (const json& row : rows) {
    SCOPED_TRACE(row.dump());
    EXPECT_EQ(row["ranks_on"], "cpu");
    EXPECT_FALSE(row.contains("answer_differs"));
    EXPECT_GT(row["seconds"].get<double>(), 0);
    if (row["ranks"] == 2) EXPECT_GT(row["bytes_per_run"].get<double>(), 0);
  }
  EXPECT_EQ(rows[0]["answer"], rows[2]["answer"]);  // pagerank at P = 1 and 2
  EXPECT_EQ(rows[1]["answer"], rows[3]["answer"]);  // mcl
  EXPECT_TRUE(r.doc["skipped"].empty());
}

}  // namespace
}  // namespace spgraph::bench
