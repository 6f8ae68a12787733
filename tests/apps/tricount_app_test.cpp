// The `tricount` program as users run it: the counts it prints and writes on both backends,
// the graph it counts (the undirected simple graph under the input), its exit statuses and
// one-line errors. Expected counts come from the files themselves, by brute force here.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>
#include <utility>

#include "app_runner.hpp"

namespace spgraph::test {
namespace {

const char* const kMethods[] = {"burkhardt", "cohen", "sandia", "sandia2", "sandia-dot", "sandia-dot2"};

AppRun tricount(const ScratchDir& dir, const std::string& args, const std::string& env = "") {
  return run_app(dir, "tricount", args, env);
}

// The number on the "triangles: N" line (-1 when there is none).
std::int64_t total_of(const AppRun& r) {
  for (const std::string& line : lines_of(r.out))
    if (line.rfind("triangles: ", 0) == 0) return std::stoll(line.substr(11));
  return -1;
}

// "vertex<TAB>count" lines as -o writes them, in file order.
std::vector<std::pair<std::string, std::int64_t>> read_counts(const fs::path& file) {
  std::vector<std::pair<std::string, std::int64_t>> counts;
  for (const std::string& line : lines_of(read_text(file))) {
    const auto tab = line.find('\t');
    EXPECT_NE(tab, std::string::npos) << line;
    if (tab != std::string::npos) counts.emplace_back(line.substr(0, tab), std::stoll(line.substr(tab + 1)));
  }
  return counts;
}

std::vector<std::string> sorted_files(const ScratchDir& dir) {
  auto names = dir.files();
  std::sort(names.begin(), names.end());
  return names;
}

// An input tricount must refuse: exit status 1, one error line mentioning `mentions`, no
// count printed, and no -o file left beside what the test wrote.
void expect_refused(const ScratchDir& dir, const std::string& graph, const std::string& flags,
                    const std::string& mentions) {
  SCOPED_TRACE(graph + flags);
  const auto before = sorted_files(dir);
  const AppRun r =
      tricount(dir, quote(graph) + " --backend cpu" + flags + " -o " + quote((dir / "counts.tsv").string()));
  EXPECT_EQ(r.status, 1);
  expect_app_error(r, "tricount", mentions);
  EXPECT_EQ(total_of(r), -1) << r.out;
  EXPECT_EQ(sorted_files(dir), before);
}

// ---- the reference: the undirected simple graph of a list of links, counted by brute force

struct Links {
  int n = 0;
  std::vector<std::pair<int, int>> links;  // 0-based, as given: loops, repeats and both directions allowed
};

// A Matrix Market coordinate file read without the library: comments, the size line, then
// "i j [value]" with 1-based ids.
Links read_matrix_market(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  Links g;
  bool sized = false;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '%') continue;
    std::istringstream fields(line);
    int i = 0, j = 0;
    fields >> i >> j;
    if (!sized) {
      g.n = i;
      sized = true;
    } else {
      g.links.emplace_back(i - 1, j - 1);
    }
  }
  return g;
}

// Triangles through each vertex: every triple i < j < k linked pairwise, ignoring loops and direction.
std::vector<std::int64_t> brute_force_per_vertex(const Links& g) {
  std::set<std::pair<int, int>> adjacent;
  for (auto [i, j] : g.links) {
    if (i == j) continue;
    adjacent.emplace(i, j);
    adjacent.emplace(j, i);
  }
  auto linked = [&](int i, int j) { return adjacent.count({i, j}) > 0; };
  std::vector<std::int64_t> t(g.n, 0);
  for (int i = 0; i < g.n; ++i)
    for (int j = i + 1; j < g.n; ++j) {
      if (!linked(i, j)) continue;
      for (int k = j + 1; k < g.n; ++k)
        if (linked(i, k) && linked(j, k)) ++t[i], ++t[j], ++t[k];
    }
  return t;
}

std::int64_t sum(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t{0}); }

// Checks -o's file against expected counts for vertices named name(0), name(1), ... in order.
template <class Name>
void expect_counts(const fs::path& file, const std::vector<std::int64_t>& expected, Name name) {
  const auto counts = read_counts(file);
  ASSERT_EQ(counts.size(), expected.size());
  for (std::size_t v = 0; v < expected.size(); ++v) {
    EXPECT_EQ(counts[v].first, name(v)) << "line " << v + 1;
    EXPECT_EQ(counts[v].second, expected[v]) << "vertex " << counts[v].first;
  }
}

std::string one_based(std::size_t v) { return std::to_string(v + 1); }
std::string zero_based(std::size_t v) { return std::to_string(v); }

// An edge list (ids from 0) of the undirected graph on 7 vertices with two triangles, {0,1,2}
// and {2,3,4}, written with every kind of noise the definition removes: self-loops (also on
// 5 and 6, whose loops would close "triangles" 5-5-6 if they counted), a repeated link, and
// links given in both directions.
const char* const kNoisyEdgeList =
    "# two triangles and a tail\n"
    "0 1\n1 2\n2 0\n"
    "1 0\n0 1\n"        // reciprocal and repeated
    "2 3\n3 4\n4 2\n"
    "4 3\n3 2\n2 2\n"   // reciprocal, a loop
    "4 5\n5 5\n5 6\n6 6\n";
const std::vector<std::int64_t> kNoisyPerVertex = {1, 1, 2, 1, 1, 0, 0};

// A graph of skewed degrees, large enough for LAGraph's relabeling rule: a path 0-1-...-3999
// (degree 2) and 20 hubs 4000..4019, each linked to vertices 0..1499. The only triangles are
// a hub with a path link inside 0..1499: 20 * 1499 of them. Average degree 16.9; most
// vertices have degree 2 and the mean is over 4 times that.
constexpr int kPath = 4000, kHubs = 20, kCovered = 1500;
constexpr std::int64_t kSkewedTriangles = std::int64_t{kHubs} * (kCovered - 1);

void write_skewed(const fs::path& file) {
  std::ofstream out(file);
  for (int i = 0; i + 1 < kPath; ++i) out << i << ' ' << i + 1 << '\n';
  for (int h = 0; h < kHubs; ++h)
    for (int i = 0; i < kCovered; ++i) out << kPath + h << ' ' << i << '\n';
}

std::vector<std::int64_t> skewed_per_vertex() {
  std::vector<std::int64_t> t(kPath + kHubs, 0);
  for (int i = 0; i < kCovered; ++i) t[i] = (i == 0 || i == kCovered - 1) ? kHubs : 2 * kHubs;
  for (int h = 0; h < kHubs; ++h) t[kPath + h] = kCovered - 1;
  return t;
}

// ---- counts

void expect_karate_everywhere(const ScratchDir& dir, const std::string& backend) {
  const std::string karate = quote(dataset("small/karate.mtx"));
  for (const char* method : kMethods)
    for (const char* form : {"", " --materialize"}) {
      SCOPED_TRACE(std::string(method) + form);
      const AppRun r = tricount(dir, karate + " --backend " + backend + " --method " + method + form);
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_TRUE(r.err.empty()) << r.err;
      EXPECT_EQ(total_of(r), 45) << r.out;
      EXPECT_NE(r.out.find("backend: " + backend + " ("), std::string::npos) << r.out;
      EXPECT_NE(r.out.find(std::string("method: ") + method + ", presort none (chosen by --presort auto)"),
                std::string::npos)
          << r.out;
      EXPECT_NE(r.out.find("time: load "), std::string::npos) << r.out;
    }
}

TEST(TricountApp, KarateHas45TrianglesByEveryMethod) {
  ScratchDir dir;
  expect_karate_everywhere(dir, "cpu");
}

TEST(TricountApp, EveryRelabelingGivesTheSameCount) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  for (const char* method : {"sandia", "sandia2", "sandia-dot", "sandia-dot2"})
    for (const char* presort : {"none", "ascending", "descending"}) {
      SCOPED_TRACE(std::string(method) + " " + presort);
      const AppRun r =
          tricount(dir, karate + " --backend cpu --method " + method + " --presort " + presort);
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(total_of(r), 45) << r.out;
      EXPECT_NE(r.out.find(std::string("presort ") + presort + ","), std::string::npos) << r.out;
    }
  // Burkhardt's and Cohen's methods never relabel, and the app says so when asked to.
  for (const char* method : {"burkhardt", "cohen"}) {
    SCOPED_TRACE(method);
    const AppRun r = tricount(dir, karate + " --backend cpu --presort descending --method " + method);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(total_of(r), 45) << r.out;
    EXPECT_NE(r.out.find(std::string("presort none (--presort descending does not apply to ") + method + "),"),
              std::string::npos)
        << r.out;
  }
}

TEST(TricountApp, KaratePerVertexCountsMatchBruteForce) {
  ScratchDir dir;
  const std::string path = dataset("small/karate.mtx");
  const std::vector<std::int64_t> expected = brute_force_per_vertex(read_matrix_market(path));
  ASSERT_EQ(expected.size(), 34u);
  ASSERT_EQ(sum(expected), 3 * 45);
  EXPECT_EQ(expected[0], 18);  // Zachary's instructor and president, as networkx counts them
  EXPECT_EQ(expected[33], 15);
  const fs::path file = dir / "karate.tsv";
  // -o alone implies --per-vertex
  for (const char* flags : {" --per-vertex -o ", " -o "}) {
    SCOPED_TRACE(flags);
    const AppRun r = tricount(dir, quote(path) + " --backend cpu" + flags + quote(file.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(total_of(r), 45) << r.out;
    EXPECT_NE(r.out.find(", per-vertex "), std::string::npos) << r.out;
    expect_counts(file, expected, one_based);
    EXPECT_EQ(dir.files(), std::vector<std::string>{"karate.tsv"});
  }
}

TEST(TricountApp, EdgeListCountsItsUndirectedSimpleGraph) {
  ScratchDir dir;
  std::ofstream(dir / "noisy.txt") << kNoisyEdgeList;
  Links links;
  links.n = 7;
  for (const auto& [i, j] : std::vector<std::pair<int, int>>{
           {0, 1}, {1, 2}, {2, 0}, {1, 0}, {0, 1}, {2, 3}, {3, 4}, {4, 2}, {4, 3}, {3, 2}, {2, 2}, {4, 5}, {5, 5}, {5, 6}, {6, 6}})
    links.links.emplace_back(i, j);
  ASSERT_EQ(brute_force_per_vertex(links), kNoisyPerVertex);
  const fs::path file = dir / "counts.tsv";
  for (const char* method : kMethods) {
    SCOPED_TRACE(method);
    const AppRun r = tricount(dir, quote((dir / "noisy.txt").string()) + " --backend cpu --method " + method +
                                       " -o " + quote(file.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(total_of(r), 2) << r.out;
    expect_counts(file, kNoisyPerVertex, zero_based);
  }
}

// Repeats are merged by default; --duplicates error still rejects them, naming the lines.
TEST(TricountApp, DuplicatesErrorStillRejectsRepeats) {
  ScratchDir dir;
  std::ofstream(dir / "noisy.txt") << kNoisyEdgeList;
  expect_refused(dir, (dir / "noisy.txt").string(), " --duplicates error", "noisy.txt");
}

TEST(TricountApp, LabelsComeBackInTheOutput) {
  ScratchDir dir;
  std::ofstream(dir / "labels.abc") << "alpha beta\nbeta gamma 2.5\ngamma alpha\ngamma delta\n";
  const fs::path file = dir / "counts.tsv";
  const AppRun r = tricount(dir, quote((dir / "labels.abc").string()) + " --backend cpu -o " + quote(file.string()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(total_of(r), 1) << r.out;
  const auto counts = read_counts(file);
  const std::vector<std::pair<std::string, std::int64_t>> expected = {
      {"alpha", 1}, {"beta", 1}, {"gamma", 1}, {"delta", 0}};
  EXPECT_EQ(counts, expected);
}

TEST(TricountApp, EmptyGraphsHaveNoTriangles) {
  ScratchDir dir;
  std::ofstream(dir / "empty.mtx") << "%%MatrixMarket matrix coordinate pattern general\n0 0 0\n";
  std::ofstream(dir / "empty.txt") << "# an edge list with no edges\n";
  std::ofstream(dir / "isolated.mtx") << "%%MatrixMarket matrix coordinate pattern general\n5 5 0\n";
  for (const char* name : {"empty.mtx", "empty.txt", "isolated.mtx"})
    for (const char* method : {"sandia-dot", "burkhardt"}) {
      SCOPED_TRACE(std::string(name) + " " + method);
      const fs::path file = dir / "counts.tsv";
      const AppRun r = tricount(dir, quote((dir / name).string()) + " --backend cpu --method " + method + " -o " +
                                         quote(file.string()));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(total_of(r), 0) << r.out;
      const std::size_t n = std::string(name) == "isolated.mtx" ? 5 : 0;
      expect_counts(file, std::vector<std::int64_t>(n, 0), one_based);
    }
}

// LAGraph's rule relabels a large graph of skewed degrees (ascending for the lower-triangle
// methods, descending for the upper) and never Burkhardt's or Cohen's; the count is the same.
void expect_skewed_everywhere(const ScratchDir& dir, const std::string& backend) {
  write_skewed(dir / "skewed.txt");
  const std::string graph = quote((dir / "skewed.txt").string());
  const std::vector<std::pair<std::string, std::string>> relabel = {
      {"burkhardt", "none"}, {"cohen", "none"},          {"sandia", "ascending"},
      {"sandia2", "descending"}, {"sandia-dot", "ascending"}, {"sandia-dot2", "descending"}};
  for (const auto& [method, presort] : relabel) {
    SCOPED_TRACE(method);
    const AppRun r = tricount(dir, graph + " --backend " + backend + " --method " + method);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(total_of(r), kSkewedTriangles) << r.out;
    EXPECT_NE(r.out.find("presort " + presort + " (chosen by --presort auto)"), std::string::npos) << r.out;
  }
  const fs::path file = dir / "counts.tsv";
  for (const char* presort : {"auto", "none"}) {
    SCOPED_TRACE(presort);
    const AppRun r =
        tricount(dir, graph + " --backend " + backend + " --presort " + presort + " -o " + quote(file.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(total_of(r), kSkewedTriangles) << r.out;
    expect_counts(file, skewed_per_vertex(), zero_based);
  }
}

TEST(TricountApp, SkewedGraphIsRelabeledAndCountsTheSame) {
  ScratchDir dir;
  ASSERT_EQ(sum(skewed_per_vertex()), 3 * kSkewedTriangles);
  expect_skewed_everywhere(dir, "cpu");
}

// ---- the GPU gives the same answers

TEST(TricountApp, GpuKarateByEveryMethod) {
  SPGRAPH_REQUIRE_GPU();
  ScratchDir dir;
  expect_karate_everywhere(dir, "gpu");
}

TEST(TricountApp, GpuPerVertexCounts) {
  SPGRAPH_REQUIRE_GPU();
  ScratchDir dir;
  const std::string karate = dataset("small/karate.mtx");
  const fs::path file = dir / "counts.tsv";
  for (const char* form : {"", " --materialize"}) {
    SCOPED_TRACE(form);
    AppRun r = tricount(dir, quote(karate) + " --backend gpu -o " + quote(file.string()) + form);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(total_of(r), 45) << r.out;
    expect_counts(file, brute_force_per_vertex(read_matrix_market(karate)), one_based);

    std::ofstream(dir / "noisy.txt") << kNoisyEdgeList;
    r = tricount(dir, quote((dir / "noisy.txt").string()) + " --backend gpu -o " + quote(file.string()) + form);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(total_of(r), 2) << r.out;
    expect_counts(file, kNoisyPerVertex, zero_based);
  }
}

TEST(TricountApp, GpuSkewedGraph) {
  SPGRAPH_REQUIRE_GPU();
  ScratchDir dir;
  expect_skewed_everywhere(dir, "gpu");
}

TEST(TricountApp, GpuEmptyGraphs) {
  SPGRAPH_REQUIRE_GPU();
  ScratchDir dir;
  std::ofstream(dir / "empty.txt") << "# no edges\n";
  std::ofstream(dir / "isolated.mtx") << "%%MatrixMarket matrix coordinate pattern general\n5 5 0\n";
  for (const char* name : {"empty.txt", "isolated.mtx"}) {
    SCOPED_TRACE(name);
    const AppRun r = tricount(dir, quote((dir / name).string()) + " --backend gpu -o " +
                                       quote((dir / "counts.tsv").string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(total_of(r), 0) << r.out;
  }
}

// With every graph large enough for the GPU (SPGRAPH_GPU_THRESHOLD=0), auto takes it where it
// is usable; the size rule's own tests are backend_line_app_test.cpp's and backend_rule_test.cpp's.
TEST(TricountApp, BackendChoiceFollowsTheMachine) {
  ScratchDir dir;
  std::string why;
  const bool gpu = device::gpu_available(&why);
  if (!gpu && switch_on("SPGRAPH_REQUIRE_GPU")) FAIL() << "no usable GPU (SPGRAPH_REQUIRE_GPU=1): " << why;
  const AppRun r = tricount(dir, quote(dataset("small/karate.mtx")), "SPGRAPH_GPU_THRESHOLD=0 ");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(total_of(r), 45) << r.out;
  EXPECT_NE(r.out.find(gpu ? "backend: gpu (" : "backend: cpu (SuiteSparse:GraphBLAS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(gpu ? ", chosen by --backend auto: 156 links is at or above the GPU threshold of 0"
                           : ", chosen by --backend auto\n"),
            std::string::npos)
      << r.out;
  if (!gpu) {
    EXPECT_NE(r.out.find("; " + why + "), chosen by --backend auto\n"), std::string::npos) << r.out;
    const AppRun forced = tricount(dir, quote(dataset("small/karate.mtx")) + " --backend gpu");
    EXPECT_EQ(forced.status, 1);
    expect_app_error(forced, "tricount", "--backend gpu: no usable GPU");
  }
}

// ---- flags and failures

TEST(TricountApp, BadFlagsAreUsageErrors) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  for (const std::string& args :
       {std::string(""), karate + " --bogus", karate + " --method", karate + " --method sandia3",
        karate + " --presort sideways", karate + " --backend tpu", karate + " --duplicates keep",
        karate + " --materialize=maybe", karate + " " + karate}) {
    SCOPED_TRACE(args);
    const AppRun r = tricount(dir, args + " -o " + quote((dir / "counts.tsv").string()));
    EXPECT_EQ(r.status, 2);
    const auto lines = r.err_lines();
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_EQ(lines[0].rfind("tricount: error: ", 0), 0u) << lines[0];
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_TRUE(dir.files().empty());
  }
  // --per-vertex without -o: says what it needs
  const AppRun r = tricount(dir, karate + " --per-vertex");
  EXPECT_EQ(r.status, 2);
  expect_app_error(r, "tricount", "--output");
}

TEST(TricountApp, UnknownMethodIsRefusedAndNamesAreCaseInsensitive) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  const AppRun bad = tricount(dir, karate + " --backend cpu --method triangles");
  EXPECT_EQ(bad.status, 2);
  expect_app_error(bad, "tricount", "triangles");
  EXPECT_EQ(total_of(bad), -1) << bad.out;
  const AppRun good = tricount(dir, karate + " --backend CPU --method Sandia-Dot2 --presort NONE");
  ASSERT_EQ(good.status, 0) << good.err;
  EXPECT_EQ(total_of(good), 45) << good.out;
  EXPECT_NE(good.out.find("method: sandia-dot2, presort none,"), std::string::npos) << good.out;
}

// Malformed files (datasets/malformed, an edge list naming its line), a missing file and a
// rectangular matrix are refused with one line naming them, leaving no output file.
TEST(TricountApp, BadInputsAreRefusedNamingThem) {
  ScratchDir dir;
  expect_inputs_refused(dir, "tricount", refused_inputs(dir), "--backend cpu");
}

TEST(TricountApp, UnwritableOutputFailsBeforeTheWork) {
  ScratchDir dir;
  expect_unwritable_output_fails_first(dir, "tricount", quote(dataset("small/karate.mtx")) + " --backend cpu");
}

TEST(TricountApp, HelpListsEveryFlagAndTheDefinition) {
  ScratchDir dir;
  const AppRun r = tricount(dir, "--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(r.err.empty()) << r.err;
  for (const char* text : {"--method", "--presort", "--materialize", "--per-vertex", "--output", "--backend",
                           "--duplicates", "--compact-ids", "graph", "self-loops", "64-bit", "sandia-dot2"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
}

}  // namespace
}  // namespace spgraph::test
