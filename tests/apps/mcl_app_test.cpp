// The `mcl` program as users run it: its clusters on karate and mcl's manual example (cathat)
// against what the mcl program wrote (datasets/mcl/), on both backends; mcl's output name and
// flags (-I, -o, -P/-S/-R/-pct, -scheme with the one-dash spellings, -L, --abc); weights it
// refuses naming the line; empty graphs and isolated vertices; its exit statuses and one-line
// errors.
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "app_runner.hpp"
#include "mcl_reference.hpp"

namespace spgraph::test {
namespace {

AppRun mcl(const ScratchDir& dir, const std::string& args, const std::string& env = "") {
  return run_app(dir, "mcl", args, env);
}

// Runs mcl with `dir` as the current folder, where mcl's default output name lands (run_app
// puts `env` before the command, so a "cd" goes there).
std::string in_folder(const ScratchDir& dir) { return "cd " + quote(dir.path().string()) + " && "; }
AppRun mcl_in(const ScratchDir& dir, const std::string& args) { return mcl(dir, args, in_folder(dir)); }

using Clusters = std::vector<std::vector<std::string>>;

// The -o file: one cluster per line, names separated by tabs.
Clusters read_clusters(const fs::path& file) {
  EXPECT_TRUE(fs::exists(file)) << file;
  return fs::exists(file) ? read_cluster_file(file.string()) : Clusters{};
}

std::set<std::set<std::string>> as_sets(const Clusters& clusters) {
  std::set<std::set<std::string>> sets;
  for (const auto& c : clusters) sets.emplace(c.begin(), c.end());
  return sets;
}

// Equal as sets of clusters, with what differs when they are not.
void expect_same_clustering(const Clusters& ours, const Clusters& reference) {
  const auto a = as_sets(ours), b = as_sets(reference);
  if (a == b) return;
  std::ostringstream why;
  why << ours.size() << " clusters here, " << reference.size() << " in the reference; only here:";
  for (const auto& c : a)
    if (!b.count(c)) {
      why << " {";
      for (const auto& v : c) why << " " << v;
      why << " }";
    }
  ADD_FAILURE() << why.str();
}

// Largest first, and in each cluster the vertices in vertex order (`index` gives a name's).
void expect_mcl_order(const Clusters& clusters, const std::map<std::string, int>& index) {
  for (std::size_t c = 0; c + 1 < clusters.size(); ++c)
    EXPECT_GE(clusters[c].size(), clusters[c + 1].size()) << "cluster " << c << " is smaller than the next";
  for (const auto& cluster : clusters)
    for (std::size_t k = 0; k + 1 < cluster.size(); ++k)
      EXPECT_LT(index.at(cluster[k]), index.at(cluster[k + 1])) << cluster[k] << " before " << cluster[k + 1];
}

// Every vertex in exactly one cluster.
void expect_partition(const Clusters& clusters, const std::set<std::string>& vertices) {
  std::multiset<std::string> seen;
  for (const auto& c : clusters) seen.insert(c.begin(), c.end());
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()), vertices);
  EXPECT_EQ(seen.size(), vertices.size()) << "a vertex is in two clusters";
}

void expect_one_error_line(const AppRun& r, const std::string& mentions) { expect_app_error(r, "mcl", mentions); }

// The "N iterations" of the summary line (-1 without one).
int iterations_of(const AppRun& r) {
  for (const std::string& line : r.err_lines()) {
    const auto at = line.find(" iterations, ");
    if (line.rfind("mcl: ", 0) == 0 && at != std::string::npos)
      return std::stoi(line.substr(line.rfind("; ", at) + 2));
  }
  return -1;
}

// karate's vertices are named 1..34 (Matrix Market ids), cathat's by their labels, numbered
// in order of first appearance in the file.
std::map<std::string, int> karate_index() {
  std::map<std::string, int> index;
  for (int v = 1; v <= 34; ++v) index[std::to_string(v)] = v;
  return index;
}
const std::map<std::string, int> kCathatIndex = {{"cat", 0}, {"hat", 1}, {"bat", 2},
                                                 {"bit", 3}, {"fit", 4}, {"hit", 5}};

const std::pair<const char*, const char*> kInflations[] = {{"1.4", "I14"}, {"2", "I20"}, {"3", "I30"}};

// karate (.mtx) and cathat (.abc read with --abc) at -I 1.4, 2 and 3 give mcl's clusters.
void expect_references(const ScratchDir& dir, const std::string& backend) {
  const fs::path file = dir / "clusters.txt";
  const struct {
    std::string name, args;
    std::map<std::string, int> index;
  } graphs[] = {{"karate", quote(dataset("small/karate.mtx")), karate_index()},
                {"cathat", quote(dataset("mcl/cathat.abc")) + " --abc", kCathatIndex}};
  for (const auto& g : graphs)
    for (const auto& [inflation, tag] : kInflations) {
      SCOPED_TRACE(g.name + " -I " + inflation + " on " + backend);
      const AppRun r =
          mcl(dir, g.args + " -I " + inflation + " --backend " + backend + " -o " + quote(file.string()));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_NE(r.out.find("backend: " + backend + " ("), std::string::npos) << r.out;
      const Clusters ours = read_clusters(file);
      expect_same_clustering(ours, read_cluster_file(mcl_reference_path(g.name + "." + tag)));
      expect_mcl_order(ours, g.index);
      EXPECT_NE(r.err.find("mcl: " + std::to_string(ours.size()) + (ours.size() == 1 ? " cluster" : " clusters") +
                           " written to " + file.string() + "; "),
                std::string::npos)
          << r.err;
      EXPECT_NE(r.err.find(", converged; time: load "), std::string::npos) << r.err;
      EXPECT_EQ(dir.files(), std::vector<std::string>{"clusters.txt"});
    }
  // cathat's two clusters of three: equal sizes go by their smallest vertex
  ASSERT_EQ(mcl(dir, quote(dataset("mcl/cathat.abc")) + " --backend " + backend + " -o " + quote(file.string())).status,
            0);
  EXPECT_EQ(read_text(file), "cat\that\tbat\nbit\tfit\thit\n");
}

TEST(MclApp, KarateAndCathatMatchTheMclProgram) {
  ScratchDir dir;
  expect_references(dir, "cpu");
}

// One stderr line per iteration (iteration, chaos, seconds, entries, "-" for the GPU memory on
// the CPU), then the summary; the report on stdout.
TEST(MclApp, PrintsAProgressLinePerIterationAndASummary) {
  ScratchDir dir;
  const AppRun r = mcl(dir, quote(dataset("small/karate.mtx")) + " --backend cpu -o " + quote((dir / "c").string()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("graph: " + dataset("small/karate.mtx") + ": 34 vertices, 156 edges (matrix-market)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("settings: -I 2 -P 10000 -S 1100 -R 1400 -pct 90 -L 10000\n"), std::string::npos) << r.out;
  const auto lines = r.err_lines();
  const int iterations = iterations_of(r);
  ASSERT_GT(iterations, 0) << r.err;
  ASSERT_EQ(lines.size(), static_cast<std::size_t>(iterations) + 2) << r.err;  // header, iterations, summary
  EXPECT_NE(lines[0].find("ite"), std::string::npos);
  EXPECT_NE(lines[0].find("chaos"), std::string::npos);
  for (int i = 1; i <= iterations; ++i) {
    std::istringstream row(lines[i]);
    int ite = 0;
    double chaos = -1, seconds = -1;
    long long entries = 0;
    std::string peak;
    row >> ite >> chaos >> seconds >> entries >> peak;
    EXPECT_EQ(ite, i) << lines[i];
    EXPECT_GE(chaos, 0) << lines[i];
    EXPECT_GE(seconds, 0) << lines[i];
    EXPECT_GE(entries, 34) << lines[i];  // every vertex keeps an entry
    EXPECT_EQ(peak, "-") << lines[i];
    if (i == iterations) EXPECT_LT(chaos, 1e-4) << lines[i];
  }
  const std::string& summary = lines.back();
  for (const char* part : {"mcl: 2 clusters written to ", " iterations, converged; time: load ", ", build ",
                           ", iterate ", ", interpret ", ", write ", "; backend cpu"})
    EXPECT_NE(summary.find(part), std::string::npos) << part << " in " << summary;
}

// mcl's name: "out." + the input's file name + ".I" + the inflation with one decimal and no
// point, in the current folder whatever folder the input is in.
TEST(MclApp, DefaultOutputNameIsMcls) {
  ScratchDir dir;
  fs::create_directories(dir / "sub");
  fs::copy_file(dataset("mcl/cathat.abc"), dir / "sub" / "cathat.abc");
  const std::string karate = quote(dataset("small/karate.mtx")) + " --backend cpu";
  const std::pair<std::string, std::string> cases[] = {
      {karate, "out.karate.mtx.I20"},           {karate + " -I 2.0", "out.karate.mtx.I20"},
      {karate + " -I 1.4", "out.karate.mtx.I14"}, {karate + " -I 2.5", "out.karate.mtx.I25"},
      {karate + " -I 3", "out.karate.mtx.I30"},   {karate + " -I 10", "out.karate.mtx.I100"},
      {karate + " -I 1.55", "out.karate.mtx.I15"},  // as a float 1.5499999: mcl writes I15
      {"sub/cathat.abc --backend cpu -I 3", "out.cathat.abc.I30"}};
  for (const auto& [args, name] : cases) {
    SCOPED_TRACE(args);
    const AppRun r = mcl_in(dir, args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir / name)) << r.err;
    EXPECT_NE(r.err.find(" written to " + name + ";"), std::string::npos) << r.err;
    const std::string tag = name.substr(name.rfind('.') + 1);
    if (tag == "I14" || tag == "I20" || tag == "I30")  // the inflations with a reference
      expect_same_clustering(read_clusters(dir / name),
                             read_cluster_file(mcl_reference_path(name.substr(4, name.find('.', 4) - 4) + "." + tag)));
    fs::remove(dir / name);
  }
  EXPECT_FALSE(fs::exists(dir / "sub" / "out.cathat.abc.I30"));
}

TEST(MclApp, OutputFlagNamesTheFile) {
  ScratchDir dir;
  for (const char* flag : {"-o", "--output"}) {
    const fs::path file = dir / (std::string("clusters") + flag);
    const AppRun r = mcl_in(dir, quote(dataset("small/karate.mtx")) + " --backend cpu " + flag + " " +
                                     quote(file.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    expect_same_clustering(read_clusters(file), read_cluster_file(mcl_reference_path("karate.I20")));
  }
  EXPECT_FALSE(fs::exists(dir / "out.karate.mtx.I20"));
}

// -scheme k sets -P/-S/-R/-pct; those flags given too override it in any order; mcl's one-dash
// spellings work as the two-dash ones.
TEST(MclApp, SchemeAndPruningFlags) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx")) + " --backend cpu -o " + quote((dir / "c").string());
  const std::pair<std::string, std::string> cases[] = {
      {" -scheme 1", "-P 3000 -S 400 -R 500 -pct 90 -L 10000 (-scheme 1)"},
      {" --scheme 7", "-P 10000 -S 1200 -R 1600 -pct 90 -L 10000 (-scheme 7)"},
      {" -scheme=2", "-P 4000 -S 500 -R 600 -pct 90 -L 10000 (-scheme 2)"},
      {" -scheme 1 -P 5000", "-P 5000 -S 400 -R 500 -pct 90"},
      {" -P 5000 -scheme 1", "-P 5000 -S 400 -R 500 -pct 90"},
      {" -pct 80 -scheme 3 -S 50", "-P 5000 -S 50 -R 700 -pct 80"},
      {" -P 2000 -S 30 -R 40 -pct 95", "-P 2000 -S 30 -R 40 -pct 95 -L 10000\n"},
      {" --pct 70 -L 50", "-P 10000 -S 1100 -R 1400 -pct 70 -L 50\n"},
      {" -P 0", "-P 0 -S 1100"}};
  std::set<std::string> vertices;
  for (int v = 1; v <= 34; ++v) vertices.insert(std::to_string(v));
  for (const auto& [flags, settings] : cases) {
    SCOPED_TRACE(flags);
    const AppRun r = mcl(dir, karate + flags);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("settings: -I 2 " + settings), std::string::npos) << r.out;
    const Clusters clusters = read_clusters(dir / "c");
    expect_partition(clusters, vertices);
    expect_mcl_order(clusters, karate_index());
  }
}

// --abc reads any file as label pairs; without it a .txt is an edge list, and labels are no ids.
TEST(MclApp, AbcFlagReadsLabelsWhateverTheName) {
  ScratchDir dir;
  fs::copy_file(dataset("mcl/cathat.abc"), dir / "cathat.txt");
  const std::string graph = quote((dir / "cathat.txt").string()) + " --backend cpu -o " + quote((dir / "c").string());
  const AppRun r = mcl(dir, graph + " --abc");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("6 vertices, 7 edges (abc)"), std::string::npos) << r.out;
  EXPECT_EQ(read_text(dir / "c"), "cat\that\tbat\nbit\tfit\thit\n");
  fs::remove(dir / "c");
  const AppRun plain = mcl(dir, graph);
  EXPECT_EQ(plain.status, 1);
  expect_one_error_line(plain, "cathat.txt:1: ");
  EXPECT_FALSE(fs::exists(dir / "c"));
}

// Weights that MCL cannot take are refused naming the file and the line, in each format, and
// no output file is left (neither -o's nor mcl's default name).
TEST(MclApp, NegativeOrNanWeightsFailNamingTheLine) {
  ScratchDir dir;
  const std::pair<std::string, std::string> files[] = {
      {"neg.abc", "a b 1\nb c 0.5\n# note\nc a -1\n"},
      {"nan.abc", "a b 1\nb c nan\n"},
      {"neg.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1\n2 3 -0.5\n3 1 1\n"},
      {"nan.mtx", "%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 2\n2 1 1\n3 2 nan\n"},
      {"neg.txt", "# edges\n0 1 1\n1 2 -2\n"},
      {"nan.txt", "0 1 1\n1 2 1\n2 0 NaN\n"},
      {"inf.txt", "0 1 inf\n"}};
  const std::map<std::string, std::string> line = {{"neg.abc", ":4: "}, {"nan.abc", ":2: "}, {"neg.mtx", ":4: "},
                                                   {"nan.mtx", ":5: "}, {"neg.txt", ":3: "}, {"nan.txt", ":3: "},
                                                   {"inf.txt", ":1: "}};
  for (const auto& [name, text] : files) std::ofstream(dir / name) << text;
  for (const auto& [name, text] : files)
    for (const char* output : {"", " -o clusters.txt"}) {
      SCOPED_TRACE(name + output);
      const auto before = dir.files();
      const AppRun r = mcl_in(dir, name + " --backend cpu" + output);
      EXPECT_EQ(r.status, 1);
      expect_one_error_line(r, name + line.at(name) + "weight ");
      EXPECT_EQ(dir.files().size(), before.size()) << "an output file was left";
    }
}

// Zero weights are no link; a zero-weight link joins nothing.
TEST(MclApp, ZeroWeightsAreNoLinks) {
  ScratchDir dir;
  std::ofstream(dir / "z.abc") << "a b 1\nb c 0\nc d 1\n";
  const AppRun r = mcl(dir, quote((dir / "z.abc").string()) + " --backend cpu -o " + quote((dir / "c").string()));
  ASSERT_EQ(r.status, 0) << r.err;
  expect_same_clustering(read_clusters(dir / "c"), {{"a", "b"}, {"c", "d"}});
}

// A graph without vertices has no clusters (an empty file, as mcl writes); isolated vertices
// are each a cluster of their own, in vertex order.
TEST(MclApp, EmptyGraphsAndIsolatedVertices) {
  ScratchDir dir;
  std::ofstream(dir / "empty.mtx") << "%%MatrixMarket matrix coordinate pattern general\n0 0 0\n";
  std::ofstream(dir / "empty.txt") << "# no edges\n";
  std::ofstream(dir / "empty.abc") << "";
  for (const char* name : {"empty.mtx", "empty.txt", "empty.abc"}) {
    SCOPED_TRACE(name);
    const fs::path file = dir / "clusters.txt";
    const AppRun r = mcl(dir, quote((dir / name).string()) + " --backend cpu -o " + quote(file.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_TRUE(fs::exists(file));
    EXPECT_EQ(read_text(file), "");
    EXPECT_NE(r.err.find("mcl: 0 clusters written to "), std::string::npos) << r.err;
    fs::remove(file);
  }
  std::ofstream(dir / "isolated.mtx") << "%%MatrixMarket matrix coordinate pattern general\n5 5 0\n";
  std::ofstream(dir / "loops.abc") << "x x\ny y 2\nz z\n";
  const std::pair<std::string, std::string> cases[] = {{"isolated.mtx", "1\n2\n3\n4\n5\n"},
                                                       {"loops.abc", "x\ny\nz\n"}};
  for (const auto& [name, expected] : cases) {
    SCOPED_TRACE(name);
    const fs::path file = dir / "clusters.txt";
    const AppRun r = mcl(dir, quote((dir / name).string()) + " --backend cpu -o " + quote(file.string()));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(read_text(file), expected);
  }
}

// mcl writes the clustering of the last matrix after -L iterations without complaint: so does
// this, exit 0, and says on stderr that it stopped at the limit.
TEST(MclApp, IterationLimitStillWritesTheClusters) {
  ScratchDir dir;
  const fs::path file = dir / "clusters.txt";
  const AppRun r = mcl(dir, quote(dataset("small/karate.mtx")) + " --backend cpu -L 2 -o " + quote(file.string()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(iterations_of(r), 2) << r.err;
  EXPECT_NE(r.err.find("mcl: stopped at the iteration limit (-L 2) with chaos "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" iterations, not converged (stopped at -L 2); "), std::string::npos) << r.err;
  std::set<std::string> vertices;
  for (int v = 1; v <= 34; ++v) vertices.insert(std::to_string(v));
  expect_partition(read_clusters(file), vertices);
}

TEST(MclApp, BadFlagValuesAreUsageErrors) {
  ScratchDir dir;
  const std::string karate = quote(dataset("small/karate.mtx"));
  // in dir as the current folder, where a run would write mcl's default output name
  expect_usage_errors(dir, "mcl",
                      {{karate + " -I 0", "-I: must be above 0 and at most 30 (mcl's range), got 0"},
                       {karate + " -I -1", "-I"},
                       {karate + " -I 31", "-I: must be above 0 and at most 30 (mcl's range), got 31"},
                       {karate + " -I two", "-I: not a number: two"},
                       {karate + " -I", "-I"},
                       {karate + " -scheme 9", "--scheme: must be from 1 to 7, got 9"},
                       {karate + " -scheme 0", "--scheme: must be from 1 to 7, got 0"},
                       {karate + " -pct 101", "--pct: must be from 0 to 100, got 101"},
                       {karate + " --pct -1", "--pct"},
                       {karate + " -P -5", "-P"},
                       {karate + " -S 1.5", "-S: not a whole number: 1.5"},
                       {karate + " -L 0", "-L: must be 1 or more, got 0"},
                       {karate + " --backend tpu", "--backend"},
                       {karate + " --memory-budget lots", "--memory-budget"},
                       {karate + " -o -", "-o -"},
                       {karate + " --bogus", "--bogus"},
                       {"-I 2", "graph"}},
                      in_folder(dir));
  // --memory-budget takes bytes, or K, M, G for powers of 1024
  const AppRun r = mcl(dir, karate + " --backend cpu --memory-budget 64M -o " + quote((dir / "c").string()));
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST(MclApp, MalformedInputsFailNamingTheFile) {
  ScratchDir dir;
  std::ofstream(dir / "short.abc") << "a b\nlonely\n";
  auto cases = refused_inputs(dir);
  cases.emplace_back((dir / "short.abc").string(), "short.abc:2");
  expect_inputs_refused(dir, "mcl", cases, "--backend cpu");
}

TEST(MclApp, UnwritableOutputFailsBeforeTheWork) {
  ScratchDir dir;
  expect_unwritable_output_fails_first(dir, "mcl", quote(dataset("small/karate.mtx")) + " --backend cpu");
}

TEST(MclApp, HelpGivesTheDefinitionAndEveryFlag) {
  ScratchDir dir;
  const AppRun r = mcl(dir, "--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(r.err.empty()) << r.err;
  for (const char* text : {"-I", "--output", "-P", "-S", "-R", "--pct", "-pct", "--scheme", "-scheme", "-L",
                           "--abc", "--backend", "--memory-budget", "--duplicates", "--compact-ids", "graph",
                           "out.<input's file name>.I<inflation", "chaos", "largest first", "non-negative",
                           "3000/400/500/90", "1-based"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
}

// With every graph large enough for the GPU (SPGRAPH_GPU_THRESHOLD=0), auto takes it where it
// is usable; the size rule's own tests are backend_line_app_test.cpp's and backend_rule_test.cpp's.
TEST(MclApp, BackendAutoFollowsTheMachine) {
  ScratchDir dir;
  std::string why;
  const bool gpu = device::gpu_available(&why);
  if (!gpu && switch_on("SPGRAPH_REQUIRE_GPU")) FAIL() << "no usable GPU (SPGRAPH_REQUIRE_GPU=1): " << why;
  const std::string args = quote(dataset("small/karate.mtx")) + " -o " + quote((dir / "c").string());
  const AppRun r = mcl(dir, args, "SPGRAPH_GPU_THRESHOLD=0 ");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(gpu ? "backend: gpu (" : "backend: cpu (SuiteSparse:GraphBLAS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(gpu ? ", chosen by --backend auto: 156 links is at or above the GPU threshold of 0"
                           : ", chosen by --backend auto\n"),
            std::string::npos)
      << r.out;
  if (!gpu) {
    fs::remove(dir / "c");
    const AppRun forced = mcl(dir, args + " --backend gpu");
    EXPECT_EQ(forced.status, 1);
    expect_one_error_line(forced, "--backend gpu: no usable GPU");
    EXPECT_FALSE(fs::exists(dir / "c"));
  }
}

// ---- the GPU gives the same clusters

TEST(MclApp, GpuKarateAndCathatMatchTheMclProgram) {
  SPGRAPH_REQUIRE_GPU();
  ScratchDir dir;
  expect_references(dir, "gpu");
}

// On the GPU each progress line gives the peak device memory, and the summary the largest.
TEST(MclApp, GpuProgressGivesDeviceMemory) {
  SPGRAPH_REQUIRE_GPU();
  ScratchDir dir;
  const AppRun r = mcl(dir, quote(dataset("small/karate.mtx")) + " --backend gpu -o " + quote((dir / "c").string()));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto lines = r.err_lines();
  ASSERT_GE(lines.size(), 3u) << r.err;
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) {
    EXPECT_EQ(lines[i].find(" - "), std::string::npos) << lines[i];
    EXPECT_TRUE(lines[i].ends_with("KiB") || lines[i].ends_with("MiB") || lines[i].ends_with("bytes")) << lines[i];
  }
  EXPECT_NE(lines.back().find("; backend gpu, peak GPU memory "), std::string::npos) << lines.back();
}

// A graph that does not fit the GPU memory spgraph may take fails with one line naming the
// limit and the way out, and leaves no output file.
TEST(MclApp, GpuGraphTooBigNamesTheLimit) {
  SPGRAPH_REQUIRE_GPU();
  ScratchDir dir;
  expect_gpu_memory_limit_named(dir, "mcl", quote(dataset("small/karate.mtx")));
}

}  // namespace
}  // namespace spgraph::test
