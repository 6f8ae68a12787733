// What the apps say about the backend they run on (issue 41): why the CPU runs where no GPU is
// usable, as a plain statement ("no NVIDIA driver found", not CUDA's "CUDA driver version is
// insufficient for CUDA runtime version", which it gives when no driver is installed at all),
// why --backend auto chose by the graph's size (§6, apps/common/backend_rule.hpp), and the
// phase that puts the graph on the backend named "build" on every backend, as --timings'
// build_s names it (pagerank said "upload" on the CPU, which uploads nothing).
#include <dlfcn.h>

#include "app_runner.hpp"
#include "backend_rule.hpp"

namespace spgraph::test {
namespace {

// The reason a run with every device hidden (CUDA_VISIBLE_DEVICES="") gives for the CPU.
std::string expected_reason() {
  std::string why;
  if (!device::gpu_available(&why) && why.starts_with("this build of spgraph has no GPU backend")) return why;
  if (!dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) return "no NVIDIA driver found";
  return "no CUDA device found (CUDA_VISIBLE_DEVICES=\"\" limits the devices CUDA sees)";
}

TEST(BackendLine, SaysPlainlyWhyTheCpuRuns) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  const std::string reason = expected_reason();
  // SPGRAPH_GPU_THRESHOLD=0: karate is large enough for the GPU, which is then looked for.
  const AppRun r = run_app(dir, "pagerank", karate, "CUDA_VISIBLE_DEVICES= SPGRAPH_GPU_THRESHOLD=0 ");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string first = lines_of(r.out).at(0);
  EXPECT_TRUE(first.starts_with("backend: cpu (SuiteSparse:GraphBLAS ")) << first;
  EXPECT_TRUE(first.ends_with("; " + reason + "), chosen by --backend auto")) << first;
  for (const char* raw : {"insufficient", "CUDA driver or device", "no GPU: "})
    EXPECT_EQ(r.out.find(raw), std::string::npos) << raw << " in " << first;

  const AppRun forced = run_app(dir, "pagerank", karate + " --backend gpu", "CUDA_VISIBLE_DEVICES= ");
  EXPECT_EQ(forced.status, 1);
  expect_app_error(forced, "pagerank",
                   "--backend gpu: no usable GPU: " + reason + " (--backend cpu or auto runs on the CPU)");
}

// The four apps that run on a graph, each with the flags it needs on karate.
std::vector<std::pair<std::string, std::string>> apps_on_karate(const ScratchDir& dir) {
  return {{"pagerank", ""}, {"tricount", ""}, {"msbfs", " --sources 1"}, {"mcl", " -o " + quote((dir / "c").string())}};
}

std::string first_line(const AppRun& r) {
  const auto lines = lines_of(r.out);
  return lines.empty() ? "" : lines[0];
}

// karate's 156 links are below every app's threshold: auto runs on the CPU, whether or not a
// GPU is usable, and says so with the numbers.
TEST(BackendLine, AutoRunsASmallGraphOnTheCpuAndSaysWhy) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  for (const auto& [app, args] : apps_on_karate(dir)) {
    SCOPED_TRACE(app);
    const AppRun r = run_app(dir, app, karate + args);
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string first = first_line(r);
    EXPECT_TRUE(first.starts_with("backend: cpu (SuiteSparse:GraphBLAS ")) << first;
    EXPECT_TRUE(first.ends_with(" threads), chosen by --backend auto: 156 links is below " + app +
                                "'s GPU threshold of " + apps::with_thousands(apps::table_threshold(app))) ||
                first.ends_with(" thread), chosen by --backend auto: 156 links is below " + app +
                                "'s GPU threshold of " + apps::with_thousands(apps::table_threshold(app))))
        << first;
    EXPECT_EQ(r.out.find("GPU kernel"), std::string::npos) << r.out;
  }
}

// SPGRAPH_GPU_THRESHOLD moves the threshold of every app: at 0 auto takes a usable GPU (or says
// why there is none), above the graph's links the CPU; only auto reads it, and a value that is
// not a number of links is an error.
TEST(BackendLine, TheThresholdVariableMovesTheChoice) {
  ScratchDir dir;
  std::string why;
  const bool gpu = device::gpu_available(&why);
  const std::string karate = quote(dataset("small/karate.mtx"));
  for (const auto& [app, args] : apps_on_karate(dir)) {
    SCOPED_TRACE(app);
    const AppRun zero = run_app(dir, app, karate + args, "SPGRAPH_GPU_THRESHOLD=0 ");
    ASSERT_EQ(zero.status, 0) << zero.err;
    if (gpu) {
      EXPECT_TRUE(first_line(zero).starts_with("backend: gpu (")) << zero.out;
      EXPECT_TRUE(first_line(zero).ends_with(
          "), chosen by --backend auto: 156 links is at or above the GPU threshold of 0 (SPGRAPH_GPU_THRESHOLD)"))
          << zero.out;
    } else {
      EXPECT_TRUE(first_line(zero).ends_with("; " + why + "), chosen by --backend auto")) << zero.out;
    }
    const AppRun above = run_app(dir, app, karate + args, "SPGRAPH_GPU_THRESHOLD=157 ");
    ASSERT_EQ(above.status, 0) << above.err;
    EXPECT_TRUE(first_line(above).starts_with("backend: cpu (SuiteSparse:GraphBLAS ")) << above.out;
    EXPECT_TRUE(first_line(above).ends_with(
        "), chosen by --backend auto: 156 links is below the GPU threshold of 157 (SPGRAPH_GPU_THRESHOLD)"))
        << above.out;

    const AppRun bad = run_app(dir, app, karate + args, "SPGRAPH_GPU_THRESHOLD=lots ");
    EXPECT_EQ(bad.status, 1);
    expect_app_error(bad, app, "SPGRAPH_GPU_THRESHOLD=lots: expected a number of links");
    const AppRun cpu = run_app(dir, app, karate + args + " --backend cpu", "SPGRAPH_GPU_THRESHOLD=lots ");
    EXPECT_EQ(cpu.status, 0) << cpu.err;
    EXPECT_TRUE(first_line(cpu).ends_with(" threads)") || first_line(cpu).ends_with(" thread)")) << cpu.out;
  }
}

// Where the estimate made before the load and the count after it disagree, the count decides:
// an edge list of 100 short lines (4 bytes a link: estimated at 33 links, 12 bytes each)
// reaches the threshold of 90 only by its count, so the GPU starts after the load; karate --undirected is estimated at twice its
// links, which are already both ways, so a GPU start begun for nothing ends beside the CPU's
// work.
TEST(BackendLine, TheCountAfterTheLoadDecides) {
  ScratchDir dir;
  std::string why;
  const bool gpu = device::gpu_available(&why);
  {
    std::ofstream out(dir / "short.txt");
    for (int i = 0; i < 100; ++i) out << i % 10 << ' ' << i / 10 << '\n';
  }
  const AppRun low = run_app(dir, "tricount", quote((dir / "short.txt").string()), "SPGRAPH_GPU_THRESHOLD=90 ");
  ASSERT_EQ(low.status, 0) << low.err;
  EXPECT_TRUE(first_line(low).starts_with(gpu ? "backend: gpu (" : "backend: cpu (")) << low.out;
  EXPECT_TRUE(first_line(low).ends_with(
      gpu ? "), chosen by --backend auto: 100 links is at or above the GPU threshold of 90 (SPGRAPH_GPU_THRESHOLD)"
          : "; " + why + "), chosen by --backend auto"))
      << low.out;

  const AppRun high = run_app(dir, "pagerank", quote(dataset("small/karate.mtx")) + " --undirected",
                              "SPGRAPH_GPU_THRESHOLD=300 ");
  ASSERT_EQ(high.status, 0) << high.err;
  EXPECT_TRUE(first_line(high).starts_with("backend: cpu (SuiteSparse:GraphBLAS ")) << high.out;
  EXPECT_TRUE(first_line(high).ends_with(
      "), chosen by --backend auto: 156 links is below the GPU threshold of 300 (SPGRAPH_GPU_THRESHOLD)"))
      << high.out;
}

// Each app's time line (mcl's summary on stderr) names the phase "build" on the CPU, and on the
// GPU where there is one.
TEST(BackendLine, TimeLinesNameTheBuildPhase) {
  ScratchDir dir;
  std::string why;
  std::vector<std::string> backends = {"cpu"};
  if (device::gpu_available(&why)) backends.push_back("gpu");
  const std::string karate = quote(dataset("small/karate.mtx"));
  const std::pair<std::string, std::string> runs[] = {
      {"pagerank", ""}, {"tricount", ""}, {"msbfs", " --sources 1"}, {"mcl", " -o " + quote((dir / "c").string())}};
  for (const std::string& backend : backends)
    for (const auto& [app, args] : runs) {
      SCOPED_TRACE(app + " --backend " + backend);
      const AppRun r = run_app(dir, app, karate + args + " --backend " + backend);
      ASSERT_EQ(r.status, 0) << r.err;
      const std::string report = app == "mcl" ? r.err : r.out;
      std::string time;
      for (const std::string& line : lines_of(report))
        if (line.find("time: load ") != std::string::npos) time = line;
      EXPECT_NE(time.find(", build "), std::string::npos) << report;
      EXPECT_EQ(report.find("upload"), std::string::npos) << report;
    }
}

}  // namespace
}  // namespace spgraph::test
