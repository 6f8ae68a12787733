// What the apps say about the backend they run on (issue 41): why the CPU runs where no GPU is
// usable, as a plain statement ("no NVIDIA driver found", not CUDA's "CUDA driver version is
// insufficient for CUDA runtime version", which it gives when no driver is installed at all),
// and the phase that puts the graph on the backend named "build" on every backend, as
// --timings' build_s names it (pagerank said "upload" on the CPU, which uploads nothing).
#include <dlfcn.h>

#include "app_runner.hpp"

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
  const AppRun r = run_app(dir, "pagerank", karate, "CUDA_VISIBLE_DEVICES= ");
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
