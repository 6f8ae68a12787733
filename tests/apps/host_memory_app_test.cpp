// A graph that does not fit the memory the process may take (issue 41): every app fails with
// one line naming the file, what was being allocated and how many bytes, not a bare "out of
// host memory". The graph's 2^31 - 1 vertices (--trust-vertex-count) ask for 16 GiB of CSR
// arrays; `ulimit -v` caps the app's address space at 6 GiB, so the allocation fails at once,
// whatever memory the machine has.
#include "app_runner.hpp"

namespace spgraph::test {
namespace {

TEST(HostMemory, EveryAppNamesTheFileWhatAndHowMuch) {
  ScratchDir dir;
  std::ofstream(dir / "huge.txt") << "0 2147483646\n";
  const std::string graph = quote((dir / "huge.txt").string()) + " --trust-vertex-count";
  const std::string output = quote((dir / "out.txt").string());
  const std::pair<std::string, std::string> runs[] = {{"pagerank", " --backend cpu"},
                                                      {"tricount", " --backend cpu"},
                                                      {"msbfs", " --backend cpu --sources 0"},
                                                      {"mcl", " --backend cpu -o " + output},
                                                      {"spgraph-convert", " " + output}};
  for (const auto& [app, args] : runs) {
    SCOPED_TRACE(app);
    const AppRun r = run_app(dir, app, graph + args, "ulimit -v 6291456; ");
    EXPECT_EQ(r.status, 1) << r.out;
    expect_app_error(r, app,
                     (dir / "huge.txt").string() +
                         ": out of host memory allocating 16.0 GiB (17179869188 bytes) for the CSR arrays of "
                         "2147483647 vertices and 1 entry");
    EXPECT_FALSE(fs::exists(dir / "out.txt"));
  }
}

}  // namespace
}  // namespace spgraph::test
