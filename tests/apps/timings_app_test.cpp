// --timings in every app, and bench_end_to_end, which reads it: the phases are present,
// non-negative, and add up to no more than the run's wall time measured outside the process.
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "app_runner.hpp"

namespace spgraph::test {
namespace {

using nlohmann::json;

const char* const kPhases[] = {"startup_s", "device_init_s", "load_s", "build_s", "compute_s", "write_s"};

// The process start time's resolution (one clock tick, rounded down) and a little more (in a
// Firecracker VM here total_s once read 11 ms above a wall time measured from before the
// spawn): total_s may read this much longer than the process really ran.
double start_time_slack() { return 1.0 / static_cast<double>(sysconf(_SC_CLK_TCK)) + 0.005; }

// The report's phases add up to total_s less other_s, each non-negative, and total_s is within
// the wall time `wall_s` measured around the process.
void expect_sane(const json& t, const std::string& app, double wall_s) {
  EXPECT_EQ(t["app"], app);
  double sum = 0;
  for (const char* phase : kPhases) {
    ASSERT_TRUE(t["phases"].contains(phase)) << t.dump();
    const double s = t["phases"][phase].get<double>();
    EXPECT_GE(s, 0) << phase;
    sum += s;
  }
  const double total = t["total_s"].get<double>(), other = t["other_s"].get<double>();
  EXPECT_GE(other, 0);
  EXPECT_NEAR(sum + other, total, 1e-5) << t.dump();
  EXPECT_GT(t["phases"]["load_s"].get<double>(), 0) << t.dump();
  EXPECT_GT(t["phases"]["compute_s"].get<double>(), 0) << t.dump();
  EXPECT_GT(t["phases"]["write_s"].get<double>(), 0) << t.dump();
  EXPECT_LE(total, wall_s + start_time_slack()) << t.dump();
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(Timings, EveryAppReportsItsPhasesWithinItsWallTime) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  const std::string output = quote((dir / "output").string()), timings = (dir / "timings.json").string();
  for (const std::string app : {"pagerank", "tricount", "msbfs", "mcl"}) {
    SCOPED_TRACE(app);
    const std::string extra = app == "msbfs" ? " --random 4" : "";
    const auto start = std::chrono::steady_clock::now();
    const AppRun r = run_app(dir, app, karate + extra + " --backend cpu -o " + output + " --timings " + quote(timings));
    const double wall = seconds_since(start);
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream in(timings);
    ASSERT_TRUE(in) << "no " << timings;
    expect_sane(json::parse(in), app, wall);
    fs::remove(timings);
  }
}

TEST(Timings, DashWritesOneLineOnStderr) {
  ScratchDir dir;
  const auto start = std::chrono::steady_clock::now();
  const AppRun r = run_app(dir, "pagerank", quote(dataset("small/karate.mtx")) + " --backend cpu -o " +
                                                quote((dir / "ranks").string()) + " --timings -");
  const double wall = seconds_since(start);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  ASSERT_EQ(lines[0].rfind("timings: ", 0), 0u) << lines[0];
  expect_sane(json::parse(lines[0].substr(9)), "pagerank", wall);
  EXPECT_EQ(r.out.find("timings"), std::string::npos) << r.out;
}

TEST(Timings, UnwritableReportIsAnError) {
  ScratchDir dir;
  const AppRun r = run_app(dir, "tricount", quote(dataset("small/karate.mtx")) + " --backend cpu --timings " +
                                                quote((dir / "no-such-folder" / "t.json").string()));
  EXPECT_EQ(r.status, 1);
  expect_app_error(r, "tricount", "--timings");
}

// A tiny run of the benchmark on the CPU backend: a file input and a generated one (made as
// .spgcsr in dir/graphs), every app, one skipped pair.
AppRun tiny_bench_run(const ScratchDir& dir, const std::string& json_path) {
  return run_app(dir, "bench_end_to_end",
                 "--inputs " + quote(dataset("small/karate.mtx")) +
                     ",cit-patents-like --scale 1000 --backends cpu --warmup 0 --repeats 2 --dir " +
                     quote((dir / "graphs").string()) + " --skip mcl:cit-patents-like --json " + quote(json_path));
}

// The JSON holds each run's phases, each within the run's wall time.
TEST(BenchEndToEnd, RunsEveryAppOnTheCpuBackend) {
  ScratchDir dir;
  const std::string json_path = (dir / "e2e.json").string();
  const AppRun r = tiny_bench_run(dir, json_path);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(fs::exists(dir / "graphs" / "cit-patents-like-1of1000.spgcsr"));
  EXPECT_NE(r.out.find("skipped (--skip mcl:cit-patents-like)"), std::string::npos) << r.out;
  std::ifstream in(json_path);
  const json doc = json::parse(in);
  EXPECT_EQ(doc["benchmark"], "end_to_end");
  ASSERT_EQ(doc["results"].size(), 8u) << doc.dump(1);
  int ran = 0;
  for (const json& m : doc["results"]) {
    SCOPED_TRACE(m.dump());
    EXPECT_EQ(m["backend"], "cpu");
    if (m["app"] == "mcl" && m["input"] == "cit-patents-like") {
      EXPECT_EQ(m["status"].get<std::string>().rfind("skipped", 0), 0u);
      continue;
    }
    ASSERT_EQ(m["status"], "ok");
    ++ran;
    ASSERT_EQ(m["runs"].size(), 2u);
    for (const json& run : m["runs"]) expect_sane(run["timings"], m["app"], run["wall_s"].get<double>());
    EXPECT_GT(m["output_bytes"].get<double>(), 0);
  }
  EXPECT_EQ(ran, 7);
}

// scripts/plot-benchmarks.py draws the report, where Debian's matplotlib is installed.
TEST(BenchEndToEnd, ReportIsPlotted) {
  if (std::system("/usr/bin/python3 -c 'import matplotlib' 2>/dev/null") != 0)
    GTEST_SKIP() << "no matplotlib for /usr/bin/python3 (Debian: python3-matplotlib)";
  ScratchDir dir;
  fs::create_directories(dir / "data");
  ASSERT_EQ(tiny_bench_run(dir, (dir / "data" / "end-to-end-test.json").string()).status, 0);
  const std::string script = std::string(SPGRAPH_SOURCE_DIR) + "/scripts/plot-benchmarks.py";
  const std::string command = "/usr/bin/python3 " + quote(script) + " " + quote((dir / "data").string()) + " " +
                              quote((dir / "figures").string()) + " >/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  EXPECT_GT(fs::file_size(dir / "figures" / "end-to-end-test.svg"), 1000u);
}

}  // namespace
}  // namespace spgraph::test
