// One rule for a graph without vertices, in every app (issue 41): it is valid input; each app
// says "the graph is empty" on its graph line (spgraph-convert in a note), gives the empty
// result and exits 0. msbfs alone fails, since the sources it is given cannot be vertices of it.
#include "app_runner.hpp"

namespace spgraph::test {
namespace {

// An empty edge list, one with comments only, an empty Matrix Market matrix and an empty
// .abc: each a graph of no vertices.
std::vector<std::string> empty_graphs(const ScratchDir& dir) {
  std::ofstream(dir / "empty.txt") << "";
  std::ofstream(dir / "comments.txt") << "# Undirected graph: comments.txt\n# Nodes: 0 Edges: 0\n";
  std::ofstream(dir / "empty.mtx") << "%%MatrixMarket matrix coordinate pattern general\n0 0 0\n";
  std::ofstream(dir / "empty.abc") << "";
  return {(dir / "empty.txt").string(), (dir / "comments.txt").string(), (dir / "empty.mtx").string(),
          (dir / "empty.abc").string()};
}

// `app GRAPH args -o FILE` exits 0, prints "the graph is empty" on its graph line and
// `stdout_has`, says nothing on stderr but what `stderr_has` names, and writes FILE empty.
void expect_empty_result(const ScratchDir& dir, const std::string& app, const std::string& args,
                         const std::string& stdout_has, const std::string& stderr_has = "") {
  for (const std::string& graph : empty_graphs(dir)) {
    SCOPED_TRACE(app + " " + graph);
    const fs::path file = dir / "result";
    const AppRun r = run_app(dir, app, quote(graph) + " " + args + " -o " + quote(file.string()));
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("graph: " + graph + ": 0 vertices, 0 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("; the graph is empty\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(stdout_has), std::string::npos) << r.out;
    if (stderr_has.empty()) EXPECT_TRUE(r.err.empty()) << r.err;
    else EXPECT_NE(r.err.find(stderr_has), std::string::npos) << r.err;
    ASSERT_TRUE(fs::exists(file));
    EXPECT_EQ(read_text(file), "");
    fs::remove(file);
  }
}

TEST(EmptyGraph, PagerankHasNoRanks) {
  ScratchDir dir;
  expect_empty_result(dir, "pagerank", "--backend cpu", "pagerank: no ranks: the graph is empty\n");
  expect_empty_result(dir, "pagerank", "--backend cpu --top 5", "top 0 vertices:\n");
}

TEST(EmptyGraph, TricountHasNoTriangles) {
  ScratchDir dir;
  expect_empty_result(dir, "tricount", "--backend cpu", "triangles: 0 (undirected edges: 0)\n");
}

TEST(EmptyGraph, MclHasNoClusters) {
  ScratchDir dir;
  expect_empty_result(dir, "mcl", "--backend cpu", "settings: ", "mcl: 0 clusters written to ");
}

// Every source named or drawn would have to be a vertex: the error says the graph is empty.
TEST(EmptyGraph, MsbfsSourcesAreNotVertices) {
  ScratchDir dir;
  for (const std::string& graph : empty_graphs(dir)) {
    for (const std::string sources : {"--sources 1", "--random 1"}) {
      SCOPED_TRACE(graph + " " + sources);
      const fs::path file = dir / "levels.tsv";
      const AppRun r = run_app(dir, "msbfs", quote(graph) + " --backend cpu " + sources + " -o " + quote(file.string()));
      EXPECT_EQ(r.status, 1);
      expect_app_error(r, "msbfs", "(the graph is empty)");
      EXPECT_NE(r.out.find("; the graph is empty\n"), std::string::npos) << r.out;
      EXPECT_FALSE(fs::exists(file));
    }
  }
}

// spgraph-convert prints one line and its notes on stderr: the empty graph is one of them.
TEST(EmptyGraph, ConvertWritesAnEmptyGraph) {
  ScratchDir dir;
  for (const std::string& graph : empty_graphs(dir)) {
    for (const char* to : {"out.mtx", "out.txt", "out.spgcsr"}) {
      SCOPED_TRACE(graph + " -> " + to);
      const fs::path out = dir / to;
      const AppRun r = run_app(dir, "spgraph-convert", quote(graph) + " " + quote(out.string()));
      ASSERT_EQ(r.status, 0) << r.err;
      EXPECT_NE(r.out.find(": 0 vertices, 0 edges ("), std::string::npos) << r.out;
      EXPECT_NE(r.err.find("spgraph-convert: note: the graph is empty\n"), std::string::npos) << r.err;
      EXPECT_TRUE(fs::exists(out));
      fs::remove(out);
    }
  }
}

}  // namespace
}  // namespace spgraph::test
