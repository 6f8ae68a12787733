// Undirected graphs stored one way (issue 41): an edge list whose header says "# Undirected
// graph" (SNAP's, storing each pair once) is read with every link both ways by every app,
// whose graph line says so; pagerank and msbfs take --undirected for any input. tricount and
// mcl, which make the graph undirected anyway, give the same answers with or without it, and
// spgraph-convert writes the mirrored graph, which reads back the same in every format.
#include "app_runner.hpp"

namespace spgraph::test {
namespace {

constexpr const char* kHeaderNote = "; links mirrored: the file's header says undirected";
constexpr const char* kFlagNote = "; links mirrored: --undirected";

// A star with a tail, each link once (0 -> 1, 0 -> 2, 0 -> 3, 3 -> 4) and a triangle 1-2-0 by
// 1 -> 2: as stored, 4 reaches nothing and 0 everything.
struct Files {
  std::string snap, plain;
};
Files write_graphs(const ScratchDir& dir) {
  const std::string links = "0\t1\n0\t2\n0\t3\n3\t4\n1\t2\n";
  std::ofstream(dir / "snap.txt") << "# Undirected graph: snap.txt\n# Nodes: 5 Edges: 5\n# FromNodeId\tToNodeId\n"
                                  << links;
  std::ofstream(dir / "plain.txt") << "# FromNodeId\tToNodeId\n" << links;
  return {quote((dir / "snap.txt").string()), quote((dir / "plain.txt").string())};
}

AppRun ok(const ScratchDir& dir, const std::string& app, const std::string& args) {
  AppRun r = run_app(dir, app, args);
  EXPECT_EQ(r.status, 0) << app << " " << args << "\n" << r.out << r.err;
  return r;
}

std::string graph_line(const AppRun& r) {
  for (const std::string& line : lines_of(r.out))
    if (line.starts_with("graph: ")) return line;
  return "";
}

TEST(Undirected, MsbfsFollowsTheHeaderAndTheFlag) {
  ScratchDir dir;
  const Files g = write_graphs(dir);
  const AppRun snap = ok(dir, "msbfs", g.snap + " --backend cpu --sources 4");
  EXPECT_TRUE(graph_line(snap).ends_with(": 5 vertices, 10 edges (edge-list)" + std::string(kHeaderNote)))
      << graph_line(snap);
  EXPECT_NE(snap.out.find("source 4: reached 5, depth 3\n"), std::string::npos) << snap.out;

  const AppRun stored = ok(dir, "msbfs", g.plain + " --backend cpu --sources 4");
  EXPECT_TRUE(graph_line(stored).ends_with(": 5 vertices, 5 edges (edge-list)")) << graph_line(stored);
  EXPECT_NE(stored.out.find("source 4: reached 1, depth 0\n"), std::string::npos) << stored.out;

  const AppRun flag = ok(dir, "msbfs", g.plain + " --backend cpu --undirected --sources 4");
  EXPECT_TRUE(graph_line(flag).ends_with(": 5 vertices, 10 edges (edge-list)" + std::string(kFlagNote)))
      << graph_line(flag);
  EXPECT_NE(flag.out.find("source 4: reached 5, depth 3\n"), std::string::npos) << flag.out;
  // The header already mirrored the links: the flag changes nothing, and the line names the header.
  const AppRun both = ok(dir, "msbfs", g.snap + " --backend cpu --undirected --sources 4");
  EXPECT_EQ(graph_line(both), graph_line(snap));
}

// PageRank of the header's graph is PageRank of the plain list with --undirected, and differs
// from the plain list's.
TEST(Undirected, PagerankFollowsTheHeaderAndTheFlag) {
  ScratchDir dir;
  const Files g = write_graphs(dir);
  const std::string snap = (dir / "snap.tsv").string(), flag = (dir / "flag.tsv").string(),
                    stored = (dir / "stored.tsv").string();
  EXPECT_NE(graph_line(ok(dir, "pagerank", g.snap + " --backend cpu -o " + quote(snap))).find(kHeaderNote),
            std::string::npos);
  EXPECT_NE(graph_line(ok(dir, "pagerank", g.plain + " --backend cpu --undirected -o " + quote(flag))).find(kFlagNote),
            std::string::npos);
  EXPECT_EQ(graph_line(ok(dir, "pagerank", g.plain + " --backend cpu -o " + quote(stored))).find("mirrored"),
            std::string::npos);
  EXPECT_EQ(read_text(snap), read_text(flag));
  EXPECT_NE(read_text(snap), read_text(stored));
}

// tricount and mcl make the graph undirected themselves: the same answers either way.
TEST(Undirected, TricountAndMclAnswerTheSame) {
  ScratchDir dir;
  const Files g = write_graphs(dir);
  const AppRun snap = ok(dir, "tricount", g.snap + " --backend cpu -o " + quote((dir / "snap.tsv").string()));
  const AppRun plain = ok(dir, "tricount", g.plain + " --backend cpu -o " + quote((dir / "plain.tsv").string()));
  EXPECT_NE(graph_line(snap).find(": 5 vertices, 10 links as stored (edge-list)" + std::string(kHeaderNote)),
            std::string::npos)
      << graph_line(snap);
  EXPECT_NE(snap.out.find("triangles: 1 (undirected edges: 5)\n"), std::string::npos) << snap.out;
  EXPECT_NE(plain.out.find("triangles: 1 (undirected edges: 5)\n"), std::string::npos) << plain.out;
  EXPECT_EQ(read_text(dir / "snap.tsv"), read_text(dir / "plain.tsv"));

  const AppRun m = ok(dir, "mcl", g.snap + " --backend cpu -o " + quote((dir / "snap.mcl").string()));
  EXPECT_NE(graph_line(m).find(kHeaderNote), std::string::npos) << graph_line(m);
  ok(dir, "mcl", g.plain + " --backend cpu -o " + quote((dir / "plain.mcl").string()));
  EXPECT_EQ(read_text(dir / "snap.mcl"), read_text(dir / "plain.mcl"));
}

// spgraph-convert converts the graph the apps see: both directions written, a note saying so;
// the output, in any format, gives the same ranks as the input.
TEST(Undirected, ConvertWritesBothDirections) {
  ScratchDir dir;
  const Files g = write_graphs(dir);
  const fs::path tsv = dir / "out.tsv";
  const AppRun r = ok(dir, "spgraph-convert", g.snap + " " + quote(tsv.string()));
  EXPECT_NE(r.err.find("spgraph-convert: note: links mirrored: the file's header says undirected; the output holds "
                       "each link both ways\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(read_text(tsv), "0\t1\n0\t2\n0\t3\n1\t0\n1\t2\n2\t0\n2\t1\n3\t0\n3\t4\n4\t3\n");
  const std::string ranks = (dir / "ranks.tsv").string(), again = (dir / "again.tsv").string();
  ok(dir, "pagerank", g.snap + " --backend cpu -o " + quote(ranks));
  for (const char* name : {"out.tsv", "out.mtx", "out.spgcsr"}) {
    SCOPED_TRACE(name);
    if (std::string(name) != "out.tsv") ok(dir, "spgraph-convert", g.snap + " " + quote((dir / name).string()));
    const AppRun reread = ok(dir, "pagerank", quote((dir / name).string()) + " --backend cpu -o " + quote(again));
    EXPECT_EQ(graph_line(reread).find("mirrored"), std::string::npos) << graph_line(reread);
    if (std::string(name) != "out.mtx") EXPECT_EQ(read_text(again), read_text(ranks));  // .mtx names vertices 1..n
  }
}

TEST(Undirected, HelpNamesTheFlagAndTheHeader) {
  ScratchDir dir;
  for (const char* app : {"pagerank", "msbfs"}) {
    const AppRun r = ok(dir, app, "--help");
    EXPECT_NE(r.out.find("--undirected"), std::string::npos) << app;
  }
  for (const char* app : {"pagerank", "msbfs", "tricount", "mcl", "spgraph-convert"}) {
    const AppRun r = ok(dir, app, "--help");
    EXPECT_NE(r.out.find("'Undirected graph'"), std::string::npos) << app;
  }
  // The others make the graph undirected themselves (spgraph-convert: --symmetrize).
  const std::string karate = quote(dataset("small/karate.mtx"));
  for (const char* app : {"tricount", "mcl", "spgraph-convert"}) {
    const AppRun r = run_app(dir, app, karate + " --undirected");
    EXPECT_EQ(r.status, 2) << app;
    expect_app_error(r, app, "--undirected");
  }
}

// email-Enron as SNAP's header describes it: before, 6 of 8 random sources reached only
// themselves; every vertex of the undirected graph has a link, so each reaches another.
TEST(Undirected, EmailEnronIsSearchedAsUndirected) {
  const std::string enron = shared_dataset("real/email-Enron.txt.gz");
  SPGRAPH_REQUIRE_SHARED_DATASET(enron);
  ScratchDir dir;
  const AppRun r = ok(dir, "msbfs", quote(enron) + " --backend cpu --random 8");
  EXPECT_NE(graph_line(r).find(": 36692 vertices, 367662 edges (edge-list)" + std::string(kHeaderNote)),
            std::string::npos)
      << graph_line(r);
  int sources = 0;
  for (const std::string& line : lines_of(r.out)) {
    if (!line.starts_with("source ")) continue;
    ++sources;
    EXPECT_EQ(line.find(": reached 1,"), std::string::npos) << line;
  }
  EXPECT_EQ(sources, 8);
}

}  // namespace
}  // namespace spgraph::test
