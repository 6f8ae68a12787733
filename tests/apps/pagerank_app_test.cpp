// The `pagerank` program as users run it: its files, its exit statuses, and one-line errors.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "../pagerank/pagerank_support.hpp"  // read_expected_ranks
#include "app_runner.hpp"

namespace spgraph::test {
namespace {

AppRun pagerank(const ScratchDir& dir, const std::string& args, const std::string& env = "") {
  return run_app(dir, "pagerank", args, env);
}

// "name<TAB>rank" lines, as -o and --top write them.
std::map<std::string, double> parse_ranks(const std::vector<std::string>& lines) {
  std::map<std::string, double> ranks;
  for (const std::string& line : lines) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) continue;
    ranks[line.substr(0, tab)] = std::stod(line.substr(tab + 1));
  }
  return ranks;
}

// Malformed files (datasets/malformed, an edge list naming its line), a missing file and a
// rectangular matrix are refused with one line naming them, leaving no output file.
TEST(PageRankApp, BadInputsAreRefusedNamingThem) {
  ScratchDir dir;
  expect_inputs_refused(dir, "pagerank", refused_inputs(dir), "--backend cpu");
}

TEST(PageRankApp, RectangularMatrixIsAnError) {
  ScratchDir dir;
  std::ofstream(dir / "wide.mtx") << "%%MatrixMarket matrix coordinate pattern general\n2 3 1\n1 3\n";
  const AppRun r = pagerank(dir, quote((dir / "wide.mtx").string()) + " --backend cpu");
  EXPECT_EQ(r.status, 1);
  expect_app_error(r, "pagerank", "wide.mtx: the matrix is 2 x 3");
}

TEST(PageRankApp, BadFlagsAreUsageErrors) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  for (const std::string& args :
       {std::string(""), karate + " --bogus", karate + " --damping 1.5", karate + " --tol 0", karate + " --tol -1",
        karate + " --max-iter 0", karate + " --iterations 0", karate + " --iterations 5 --tol 1e-3",
        karate + " --iterations 5 --max-iter 9", karate + " --tol-mode l2", karate + " --precision half",
        karate + " --backend tpu", karate + " --duplicates keep", karate + " --top -1", karate + " --damping x"}) {
    SCOPED_TRACE(args);
    const AppRun r = pagerank(dir, args + " -o " + quote((dir / "ranks.tsv").string()));
    EXPECT_EQ(r.status, 2);
    const auto lines = r.err_lines();
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_EQ(lines[0].rfind("pagerank: error: ", 0), 0u) << lines[0];
    EXPECT_TRUE(dir.files().empty());
  }
}

// The message names the flag and the rule, not the range CLI11 checks (whose upper end, the
// largest double, ran to 309 digits).
TEST(PageRankApp, NonPositiveToleranceSaysWhatIsWrong) {
  ScratchDir dir;
  for (const char* args : {" --tol 0", " --tol -1e-3", " --max-iter 0"}) {
    SCOPED_TRACE(args);
    const AppRun r = pagerank(dir, quote(dataset("small/karate.mtx")) + args);
    EXPECT_EQ(r.status, 2);
    const auto lines = r.err_lines();
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_NE(lines[0].find("must be greater than 0"), std::string::npos) << lines[0];
    EXPECT_LT(lines[0].size(), 120u) << lines[0];
  }
}

TEST(PageRankApp, HelpListsEveryFlag) {
  ScratchDir dir;
  const AppRun r = pagerank(dir, "--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(r.err.empty()) << r.err;
  for (const char* flag : {"--damping", "--tol", "--tol-mode", "--max-iter", "--iterations", "--precision", "--backend",
                           "--top", "--output", "--duplicates", "--compact-ids", "graph"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

// Matrix Market vertices are named 1..n in the output, as in the file.
std::vector<double> by_index(const std::map<std::string, double>& named, std::size_t n) {
  std::vector<double> ranks(n, std::nan(""));
  for (const auto& [name, rank] : named) {
    const std::size_t v = std::stoul(name) - 1;
    if (v < n) ranks[v] = rank;
  }
  return ranks;
}

TEST(PageRankApp, CpuBackendWritesKarateRanks) {
  ScratchDir dir;
  const std::vector<double> expected = read_expected_ranks(dataset("expected/karate.pagerank.tsv"));
  for (const char* precision : {"double", "float"}) {
    SCOPED_TRACE(precision);
    const fs::path file = dir / "karate.tsv";
    const AppRun r = pagerank(dir, quote(dataset("small/karate.mtx")) + " --backend cpu --precision " + precision +
                                       " -o " + quote(file.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    EXPECT_NE(r.out.find("backend: cpu (SuiteSparse:GraphBLAS"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("pagerank: converged after"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("time: load"), std::string::npos) << r.out;
    const auto lines = lines_of(read_text(file));
    ASSERT_EQ(lines.size(), expected.size());
    EXPECT_EQ(lines.front().rfind("1\t", 0), 0u) << lines.front();
    EXPECT_LE(max_abs_diff(by_index(parse_ranks(lines), expected.size()), expected), 1e-4);
    EXPECT_EQ(dir.files(), std::vector<std::string>{"karate.tsv"});
  }
}

TEST(PageRankApp, TopPrintsTheBestVerticesInOrder) {
  ScratchDir dir;
  const std::vector<double> expected = read_expected_ranks(dataset("expected/karate.pagerank.tsv"));
  std::vector<std::size_t> order(expected.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return expected[a] > expected[b]; });

  const AppRun r = pagerank(dir, quote(dataset("small/karate.mtx")) + " --backend cpu --top 4");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto lines = lines_of(r.out);
  const auto header = std::find(lines.begin(), lines.end(), "top 4 vertices:");
  ASSERT_NE(header, lines.end()) << r.out;
  ASSERT_GE(lines.end() - header, 5);
  for (int i = 0; i < 4; ++i) {
    const std::string& line = header[1 + i];
    EXPECT_EQ(line.substr(0, line.find('\t')), std::to_string(order[i] + 1)) << line;
    EXPECT_NEAR(std::stod(line.substr(line.find('\t') + 1)), expected[order[i]], 1e-4) << line;
  }
}

TEST(PageRankApp, LabelsComeBackInTheOutput) {
  // x -> y, y has no out-links: the ranks are 20/57 and 37/57 (solved by hand in
  // tests/pagerank/behaviour_test.cpp); a 3-cycle of labels has 1/3 each.
  ScratchDir dir;
  std::ofstream(dir / "pair.abc") << "x y\n";
  std::ofstream(dir / "cycle.abc") << "alpha beta 2.5\nbeta gamma\ngamma alpha\n";
  const std::map<std::string, std::map<std::string, double>> cases = {
      {"pair.abc", {{"x", 20.0 / 57}, {"y", 37.0 / 57}}},
      {"cycle.abc", {{"alpha", 1.0 / 3}, {"beta", 1.0 / 3}, {"gamma", 1.0 / 3}}}};
  for (const auto& [name, expected] : cases) {
    SCOPED_TRACE(name);
    const fs::path file = dir / "ranks.tsv";
    const AppRun r = pagerank(dir, quote((dir / name).string()) + " --backend cpu -o " + quote(file.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    const auto ranks = parse_ranks(lines_of(read_text(file)));
    ASSERT_EQ(ranks.size(), expected.size());
    for (const auto& [label, rank] : expected) {
      ASSERT_TRUE(ranks.count(label)) << label;
      EXPECT_NEAR(ranks.at(label), rank, 1e-6) << label;
    }
  }
}

TEST(PageRankApp, NotConvergedExitsThreeAndStillWritesTheRanks) {
  ScratchDir dir;
  const fs::path file = dir / "ranks.tsv";
  const AppRun r =
      pagerank(dir, quote(dataset("small/karate.mtx")) + " --backend cpu --max-iter 3 -o " + quote(file.string()));
  EXPECT_EQ(r.status, 3);
  const auto err = r.err_lines();
  ASSERT_EQ(err.size(), 1u) << r.err;
  EXPECT_NE(err[0].find("did not converge"), std::string::npos) << err[0];
  EXPECT_NE(err[0].find("after 3 iterations"), std::string::npos) << err[0];
  EXPECT_NE(r.out.find("NOT converged after 3 iterations"), std::string::npos) << r.out;
  const auto lines = lines_of(read_text(file));
  EXPECT_EQ(lines.size(), 34u);
  double total = 0;
  for (const auto& [name, rank] : parse_ranks(lines)) total += rank;
  EXPECT_NEAR(total, 1.0, 1e-9);
}

TEST(PageRankApp, FixedIterationsAlwaysSucceed) {
  ScratchDir dir;
  const AppRun r = pagerank(dir, quote(dataset("small/karate.mtx")) + " --backend cpu --iterations 3");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("pagerank: 3 iterations (fixed)"), std::string::npos) << r.out;
}

TEST(PageRankApp, NetworkxToleranceScalesWithTheVertexCount) {
  ScratchDir dir;  // names are case-insensitive
  const AppRun r = pagerank(dir, quote(dataset("small/karate.mtx")) + " --backend CPU --tol-mode NetworkX --tol 1e-6");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("(tolerance 3.4e-05)"), std::string::npos) << r.out;  // 34 vertices
}

TEST(PageRankApp, UnwritableOutputFailsBeforeTheWork) {
  ScratchDir dir;
  expect_unwritable_output_fails_first(dir, "pagerank", quote(dataset("small/karate.mtx")) + " --backend cpu",
                                       "pagerank:");
}

// A graph too big for the device memory spgraph may use (here a 1 KiB limit) fails with one
// line naming the limit and the way out, and leaves no output file.
TEST(PageRankApp, GraphTooBigForTheGpuNamesTheLimit) {
  SPGRAPH_REQUIRE_GPU();
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  for (const char* backend : {"gpu", "auto"}) {
    SCOPED_TRACE(backend);
    // SPGRAPH_GPU_THRESHOLD=0: auto takes the GPU for karate too (backend_rule.hpp)
    const AppRun r = pagerank(dir, karate + " --backend " + backend + " -o " + quote((dir / "ranks.tsv").string()),
                              "SPGRAPH_GPU_MEMORY_LIMIT=1K SPGRAPH_GPU_THRESHOLD=0 ");
    EXPECT_EQ(r.status, 1);
    expect_app_error(r, "pagerank", "device memory limit reached");
    EXPECT_NE(r.err.find("limit of 1.0 KiB (SPGRAPH_GPU_MEMORY_LIMIT)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--backend cpu"), std::string::npos) << r.err;
    EXPECT_TRUE(dir.files().empty());
  }
  const AppRun cpu = pagerank(dir, karate + " --backend cpu", "SPGRAPH_GPU_MEMORY_LIMIT=1K ");
  EXPECT_EQ(cpu.status, 0) << cpu.err;
}

// The limit takes bytes or K, M, G, T (with or without B or iB, any case); anything else is an error.
TEST(PageRankApp, GpuMemoryLimitSyntax) {
  SPGRAPH_REQUIRE_GPU();
  ScratchDir dir;
  const AppRun r =
      pagerank(dir, quote(dataset("small/karate.mtx")) + " --backend gpu", "SPGRAPH_GPU_MEMORY_LIMIT=lots ");
  EXPECT_EQ(r.status, 1);
  expect_app_error(r, "pagerank", "SPGRAPH_GPU_MEMORY_LIMIT=lots: expected a number of bytes");
  for (const char* limit : {"8G", "8GiB", "8gb", "8589934592", "0.5T"}) {
    const AppRun fits = pagerank(dir, quote(dataset("small/karate.mtx")) + " --backend gpu",
                                 std::string("SPGRAPH_GPU_MEMORY_LIMIT=") + limit + " ");
    EXPECT_EQ(fits.status, 0) << limit << ": " << fits.err;
  }
}

// With every graph large enough for the GPU (SPGRAPH_GPU_THRESHOLD=0), auto takes it where it
// is usable; the size rule's own tests are backend_line_app_test.cpp's and backend_rule_test.cpp's.
TEST(PageRankApp, BackendChoiceFollowsTheMachine) {
  ScratchDir dir;
  std::string why;
  const bool gpu = device::gpu_available(&why);
  if (!gpu && switch_on("SPGRAPH_REQUIRE_GPU")) FAIL() << "no usable GPU (SPGRAPH_REQUIRE_GPU=1): " << why;
  const std::string karate = quote(dataset("small/karate.mtx"));
  const AppRun autorun = pagerank(dir, karate, "SPGRAPH_GPU_THRESHOLD=0 ");
  ASSERT_EQ(autorun.status, 0) << autorun.err;
  const AppRun forced = pagerank(dir, karate + " --backend gpu");
  if (gpu) {
    EXPECT_NE(autorun.out.find("backend: gpu ("), std::string::npos) << autorun.out;
    EXPECT_EQ(forced.status, 0) << forced.err;
    EXPECT_NE(forced.out.find("backend: gpu ("), std::string::npos) << forced.out;
    // karate's 156 links: every iteration in one kernel (PageRankLoop::Auto)
    EXPECT_NE(forced.out.find(", all in one GPU kernel)"), std::string::npos) << forced.out;
  } else {
    EXPECT_EQ(autorun.out.find("GPU kernel"), std::string::npos) << autorun.out;
    EXPECT_NE(autorun.out.find("backend: cpu (SuiteSparse:GraphBLAS"), std::string::npos) << autorun.out;
    EXPECT_NE(autorun.out.find("; " + why + "), chosen by --backend auto\n"), std::string::npos) << autorun.out;
    EXPECT_EQ(forced.status, 1);
    const auto err = forced.err_lines();
    ASSERT_EQ(err.size(), 1u) << forced.err;
    EXPECT_NE(err[0].find("--backend gpu: no usable GPU"), std::string::npos) << err[0];
  }
}

}  // namespace
}  // namespace spgraph::test
