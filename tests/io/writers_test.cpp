// The edge-list and .abc writers, and save_graph: what each writes reads back as the same graph
// (every format to every other and back), the vertex names each format keeps, the notes on
// what it cannot keep, and the refusals that leave no file.
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>

#include "io_test_util.hpp"
#include "same_graph.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/abc.hpp"
#include "spgraph/io/edge_list.hpp"
#include "spgraph/io/save_graph.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::dense;
using test::read_file;
using test::expect_same_named_graph;
using test::expect_same_numbered_graph;
using test::TempDir;

// n vertices on a directed cycle (so none is without edges) plus random links, self-loops
// among them; valued graphs get doubles of full precision.
Csr<double> random_graph(vid_t n, int extra, bool valued, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Coo<double> coo;
  coo.nrows = coo.ncols = n;
  auto add = [&](vid_t i, vid_t j) {
    coo.row.push_back(i);
    coo.col.push_back(j);
    coo.val.push_back(std::ldexp(static_cast<double>(rng() >> 11), -40) - 1000.0);
  };
  for (vid_t i = 0; i < n; ++i) add(i, (i + 1) % n);
  for (int k = 0; k < extra; ++k) add(static_cast<vid_t>(rng() % n), static_cast<vid_t>(rng() % n));
  Csr<double> a = coo_to_csr(std::move(coo), Duplicates::First);
  return valued ? a : drop_values(std::move(a));
}

LoadedGraph graph_of(Csr<double> a, int id_base = 0) {
  LoadedGraph g;
  g.matrix = std::move(a);
  g.id_base = id_base;
  return g;
}

bool no_file_but(const TempDir& tmp, const std::vector<std::string>& names) {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(tmp.dir())) ++count;
  for (const auto& n : names)
    if (!std::filesystem::exists(tmp.path(n))) return false;
  return count == names.size();
}

// ---- the writers on their own

TEST(EdgeListWrite, ReadsBackAsTheSameMatrix) {
  TempDir tmp;
  for (bool valued : {false, true}) {
    const Csr<double> a = random_graph(40, 200, valued, 7);
    for (const char* name : {"g.txt", "g.txt.gz", "g.csv"}) {
      SCOPED_TRACE(std::string(name) + (valued ? " valued" : " pattern"));
      write_edge_list(tmp.path(name), a, {}, std::string(name) == "g.csv" ? ',' : '\t');
      const EdgeList back = read_edge_list(tmp.path(name));
      expect_same_numbered_graph(graph_of(a), graph_of(back.matrix));
    }
  }
  EXPECT_EQ(read_file(tmp.path("g.csv")).substr(0, 4), "0,1,");
}

TEST(EdgeListWrite, IdsNameTheVertices) {
  TempDir tmp;
  Csr<double> a;  // 0 -> 1, 1 -> 2 written as 10 -> 3, 3 -> 7
  a.nrows = a.ncols = 3;
  a.rowptr = {0, 1, 2, 2};
  a.col = {1, 2};
  write_edge_list(tmp.path("ids.el"), a, {10, 3, 7});
  EXPECT_EQ(read_file(tmp.path("ids.el")), "10\t3\n3\t7\n");
}

TEST(EdgeListWrite, RefusesWhatItsReaderWouldRefuse) {
  TempDir tmp;
  Csr<double> wide;
  wide.nrows = 1;
  wide.ncols = 2;
  wide.rowptr = {0, 0};
  EXPECT_NE(test::error_of([&] { write_edge_list(tmp.path("w.txt"), wide); }).find("is 1 x 2"), std::string::npos);
  Csr<double> a = random_graph(5, 3, true, 1);
  a.val[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(test::error_of([&] { write_edge_list(tmp.path("nan.txt"), a); }).find("not a finite number"),
            std::string::npos);
  EXPECT_TRUE(no_file_but(tmp, {}));
}

TEST(AbcWrite, ReadsBackAsTheSameLabeledGraph) {
  TempDir tmp;
  const LabeledGraph cathat = read_abc(test::dataset("mcl/cathat.abc"));
  for (bool valued : {true, false}) {
    LoadedGraph g = graph_of(valued ? cathat.matrix : drop_values(cathat.matrix));
    g.labels = cathat.labels;
    for (const char* name : {"c.abc", "c.abc.gz"}) {
      SCOPED_TRACE(name);
      write_abc(tmp.path(name), g.matrix, g.labels);
      const LabeledGraph back = read_abc(tmp.path(name));
      LoadedGraph b = graph_of(back.matrix);
      b.labels = back.labels;
      expect_same_numbered_graph(g, b);  // written in row order, so first appearance keeps the order here
    }
  }
}

TEST(AbcWrite, RefusesLabelsItsReaderWouldNotGiveBack) {
  TempDir tmp;
  Csr<double> a;  // 0 -> 1
  a.nrows = a.ncols = 3;
  a.rowptr = {0, 1, 1, 1};
  a.col = {1};
  for (const auto& [bad, why] : std::vector<std::pair<std::string, std::string>>{
           {"two words", "holds a blank"}, {"#1", "starts with '#'"}, {"", "an empty label"}, {"a\nb", "line break"}}) {
    SCOPED_TRACE(why);
    const std::string message = test::error_of([&] { write_abc(tmp.path("bad.abc"), a, {"x", bad, "unused"}); });
    EXPECT_NE(message.find(why), std::string::npos) << message;
  }
  // A vertex without edges is not written, so its label does not matter.
  write_abc(tmp.path("ok.abc"), a, {"x", "y", "not written"});
  EXPECT_EQ(read_file(tmp.path("ok.abc")), "x\ty\n");
  std::filesystem::remove(tmp.path("ok.abc"));
  EXPECT_TRUE(no_file_but(tmp, {}));
}

// ---- save_graph

TEST(SaveGraph, FormatByName) {
  EXPECT_EQ(save_format_by_name("a/b.MTX.gz"), SaveFormat::MatrixMarket);
  EXPECT_EQ(save_format_by_name("x.spgcsr"), SaveFormat::Cache);
  EXPECT_EQ(save_format_by_name("x.abc.gz"), SaveFormat::Abc);
  for (const char* name : {"x.txt", "x.tsv.gz", "x.csv", "x.el", "x.edges", "x.edgelist", "x.snap"})
    EXPECT_EQ(save_format_by_name(name), SaveFormat::EdgeList) << name;
  for (const char* name : {"x.png", "x", "x.gz", "mtx"}) EXPECT_EQ(save_format_by_name(name), std::nullopt) << name;
}

TEST(SaveGraph, LabelIds) {
  EXPECT_EQ(label_ids({"3", "0", "17"}), (std::vector<vid_t>{3, 0, 17}));
  EXPECT_EQ(label_ids({"2147483646"}), (std::vector<vid_t>{2147483646}));
  for (const auto& labels : std::vector<std::vector<std::string>>{
           {}, {"1", "x"}, {"007"}, {"-1"}, {"+1"}, {"1", "1"}, {"2147483647"}, {"1.0"}, {""}})
    EXPECT_TRUE(label_ids(labels).empty()) << labels.size();
}

// The graphs every format goes through: pattern and valued, from the small datasets and random.
std::vector<std::pair<std::string, LoadedGraph>> round_trip_graphs() {
  return {{"karate", load_graph(test::dataset("small/karate.mtx"))},
          {"west0067", load_graph(test::dataset("small/west0067.mtx"))},
          {"random pattern", graph_of(random_graph(50, 300, false, 3))},
          {"random valued", graph_of(random_graph(50, 300, true, 4))}};
}

const char* const kNames[] = {"g.mtx", "g.mtx.gz", "g.txt", "g.tsv.gz", "g.csv", "g.abc", "g.abc.gz", "g.spgcsr"};

LoadedGraph through(const TempDir& tmp, const LoadedGraph& g, const std::string& name) {
  save_graph(tmp.path(name), g, *save_format_by_name(name));
  return load_graph(tmp.path(name));
}

// X -> Y -> X keeps what expect_round_trip_kept says.
TEST(SaveGraph, EveryFormatToEveryOtherAndBack) {
  TempDir tmp;
  for (const auto& [graph, g] : round_trip_graphs()) {
    for (const std::string from : kNames) {
      const LoadedGraph start = through(tmp, g, "start-" + from);
      for (const std::string to : kNames) {
        SCOPED_TRACE(graph + ": " + from + " -> " + to + " -> " + from);
        const LoadedGraph back = through(tmp, through(tmp, start, "via-" + to), "back-" + from);
        test::expect_round_trip_kept(start, back, from, to);
      }
    }
  }
}

TEST(SaveGraph, TheCacheKeepsLabelsAndIdBase) {
  TempDir tmp;
  LoadedGraph g = load_graph(test::dataset("mcl/cathat.abc"));
  expect_same_numbered_graph(g, through(tmp, g, "c.spgcsr"));
  expect_same_named_graph(g, through(tmp, through(tmp, g, "c.spgcsr"), "c2.abc"));
  LoadedGraph karate = load_graph(test::dataset("small/karate.mtx"));
  EXPECT_EQ(through(tmp, karate, "k.spgcsr").id_base, 1);
}

TEST(SaveGraph, NumericLabelsAreIds) {
  TempDir tmp;
  // vertices named 5, 2, 9 (an .abc of numbers): 5 -> 2, 2 -> 9
  LoadedGraph g = load_graph(tmp.write("n.abc", "5 2 0.5\n2 9 0.25\n"));
  ASSERT_EQ(g.labels, (std::vector<std::string>{"5", "2", "9"}));
  save_graph(tmp.path("n.txt"), g, SaveFormat::EdgeList);
  EXPECT_EQ(read_file(tmp.path("n.txt")), "5\t2\t0.5\n2\t9\t0.25\n");
  const LoadedGraph mtx = through(tmp, g, "n.mtx");  // row k is the vertex named k
  EXPECT_EQ(mtx.matrix.nrows, 9);
  expect_same_named_graph(g, mtx);
  // A label 0 moves every vertex one up, as an edge list's ids become 1-based.
  g.labels = {"5", "0", "9"};
  const LoadedGraph shifted = through(tmp, g, "z.mtx");
  EXPECT_EQ(shifted.matrix.nrows, 10);
  EXPECT_EQ(dense(shifted.matrix)[5][0], 0.5);
}

TEST(SaveGraph, NotesSayWhatTheFormatCannotKeep) {
  TempDir tmp;
  // 4 vertices: 0 -> 1 and two without edges, one of them last
  LoadedGraph g = load_graph(tmp.write("in.mtx", "%%MatrixMarket matrix coordinate pattern general\n4 4 1\n1 2\n"));
  auto notes = [&](const std::string& name) { return save_graph(tmp.path(name), g, *save_format_by_name(name)); };
  const SaveResult abc = notes("o.abc");
  EXPECT_EQ(abc.vertices, 2);
  ASSERT_EQ(abc.notes.size(), 1u);
  EXPECT_NE(abc.notes[0].find("2 vertices without edges left out"), std::string::npos) << abc.notes[0];
  const SaveResult el = notes("o.txt");
  EXPECT_EQ(el.vertices, 2);
  ASSERT_EQ(el.notes.size(), 1u);
  EXPECT_NE(el.notes[0].find("2 vertices without edges left out"), std::string::npos) << el.notes[0];
  EXPECT_TRUE(notes("o.mtx").notes.empty());
  EXPECT_EQ(notes("o.mtx").vertices, 4);

  LoadedGraph named = load_graph(test::dataset("mcl/cathat.abc"));
  const SaveResult mtx = save_graph(tmp.path("cathat.mtx"), named, SaveFormat::MatrixMarket);
  ASSERT_EQ(mtx.notes.size(), 1u);
  EXPECT_NE(mtx.notes[0].find("the labels are left out"), std::string::npos) << mtx.notes[0];
}

TEST(SaveGraph, RefusalsLeaveNoFile) {
  TempDir tmp;
  LoadedGraph g = graph_of(random_graph(4, 2, true, 2));
  const std::string cache = test::error_of([&] { save_graph(tmp.path("g.spgcsr.gz"), g, SaveFormat::Cache); });
  EXPECT_NE(cache.find("not compressed"), std::string::npos) << cache;
  g.labels = {"0", "1", "2", "2000000000"};  // ids far beyond the 5 or so entries
  const std::string far = test::error_of([&] { save_graph(tmp.path("g.mtx"), g, SaveFormat::MatrixMarket); });
  EXPECT_NE(far.find("--relabel compact"), std::string::npos) << far;
  g.labels.clear();
  g.matrix.val[0] = std::numeric_limits<double>::infinity();
  for (const char* name : {"g.mtx", "g.txt", "g.abc"}) {
    const std::string message = test::error_of([&] { save_graph(tmp.path(name), g, *save_format_by_name(name)); });
    EXPECT_NE(message.find("not a finite number"), std::string::npos) << message;
  }
  EXPECT_TRUE(no_file_but(tmp, {}));
}

}  // namespace
}  // namespace spgraph::io
