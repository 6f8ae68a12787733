// SNAP's header of an undirected graph, "# Undirected graph: <file>", over a file that stores
// each pair once (issue 41): the edge-list reader adds every link the other way and says so
// (EdgeList::mirrored, LoadedGraph::mirrored), so the graph is ranked and searched as the
// undirected graph it is. A pair given both ways stays one edge; other headers change nothing.
#include <omp.h>

#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/edge_list.hpp"
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::dense;
using test::TempDir;

using Dense = std::vector<std::vector<double>>;

// The path 0 - 1 - 2 both ways, as a dense pattern.
const Dense kPathBothWays = {{0, 1, 0}, {1, 0, 1}, {0, 1, 0}};
const Dense kPathAsStored = {{0, 1, 0}, {0, 0, 1}, {0, 0, 0}};

TEST(UndirectedHeader, SnapHeaderMirrorsEveryLink) {
  TempDir tmp;
  for (const std::string name : {"u.txt", "u.txt.gz"}) {
    SCOPED_TRACE(name);
    const auto path = tmp.write(name, "# Undirected graph: ../../data/output/u.txt\n# Nodes: 3 Edges: 2\n"
                                      "# FromNodeId\tToNodeId\n0\t1\n1\t2\n");
    const EdgeList e = read_edge_list(path);
    EXPECT_TRUE(e.mirrored);
    EXPECT_EQ(dense(e.matrix), kPathBothWays);
    const LoadedGraph g = load_graph(path);
    EXPECT_TRUE(g.mirrored);
    EXPECT_EQ(dense(g.matrix), kPathBothWays);
  }
}

TEST(UndirectedHeader, AnyCaseAndCommentStyleBeforeTheFirstEdge) {
  TempDir tmp;
  for (const std::string header : {"#Undirected graph", "  %  UNDIRECTED GRAPH: x", "# undirected Graph\n# more"}) {
    SCOPED_TRACE(header);
    const EdgeList e = read_edge_list(tmp.write("u.txt", header + "\n\n0 1\n1 2\n"));
    EXPECT_TRUE(e.mirrored);
    EXPECT_EQ(dense(e.matrix), kPathBothWays);
  }
}

// SNAP's header of some directed graphs ("each unordered pair of nodes is saved once"), other
// comments, and the words after the first edge leave the links as stored.
TEST(UndirectedHeader, OtherHeadersAndLateCommentsLeaveTheLinksAsStored) {
  TempDir tmp;
  for (const std::string text :
       {"# Directed graph (each unordered pair of nodes is saved once): web-NotreDame.txt\n0 1\n1 2\n",
        "# An undirected graph, but not SNAP's header\n0 1\n1 2\n", "0 1\n# Undirected graph\n1 2\n",
        "# Nodes: 3\n0 1\n1 2\n"}) {
    SCOPED_TRACE(text);
    const EdgeList e = read_edge_list(tmp.write("d.txt", text));
    EXPECT_FALSE(e.mirrored);
    EXPECT_EQ(dense(e.matrix), kPathAsStored);
  }
}

// Many SNAP files under this header store both directions (ca-GrQc): a pair given both ways is
// one edge, of the larger weight, not a duplicate; a line repeated in the same direction still
// is one, by the duplicates policy.
TEST(UndirectedHeader, PairsGivenBothWaysAreOneEdge) {
  TempDir tmp;
  const EdgeList both = read_edge_list(tmp.write("b.txt", "# Undirected graph\n0 1 2\n1 0 5\n1 2 1\n"));
  EXPECT_EQ(dense(both.matrix), (Dense{{0, 5, 0}, {5, 0, 1}, {0, 1, 0}}));
  const std::string repeated = tmp.write("r.txt", "# Undirected graph\n0 1\n1 2\n0 1\n");
  const std::string msg = test::parse_error_of([&] { read_edge_list(repeated); });
  EXPECT_TRUE(msg.starts_with(repeated + ":4: duplicate edge 0 -> 1, first given at line 2")) << msg;
  EXPECT_EQ(dense(read_edge_list(repeated, {.duplicates = Duplicates::First}).matrix), kPathBothWays);
}

TEST(UndirectedHeader, SelfLoopsAndCompactIdsAndNoEdges) {
  TempDir tmp;
  const EdgeList loops = read_edge_list(tmp.write("l.txt", "# Undirected graph\n0 0\n0 1\n"));
  EXPECT_EQ(dense(loops.matrix), (Dense{{1, 1}, {1, 0}}));  // the loop once
  const LoadedGraph compact =
      load_graph(tmp.write("c.txt", "# Undirected graph\n700 5\n5 9\n"), {.compact_ids = true});
  EXPECT_TRUE(compact.mirrored);
  EXPECT_EQ(compact.labels, (std::vector<std::string>{"700", "5", "9"}));
  EXPECT_EQ(dense(compact.matrix), kPathBothWays);
  const EdgeList none = read_edge_list(tmp.write("n.txt", "# Undirected graph\n"));
  EXPECT_EQ(none.matrix.nrows, 0);
}

TEST(UndirectedHeader, OptionReadsTheLinksAsStored) {
  TempDir tmp;
  const auto path = tmp.write("u.txt", "# Undirected graph\n0 1\n1 2\n");
  const EdgeList e = read_edge_list(path, {.mirror_undirected = false});
  EXPECT_FALSE(e.mirrored);
  EXPECT_EQ(dense(e.matrix), kPathAsStored);
  const LoadedGraph g = load_graph(path, {.mirror_undirected = false});
  EXPECT_FALSE(g.mirrored);
  EXPECT_EQ(dense(g.matrix), kPathAsStored);
}

// The header counts in whichever piece of a parallel parse it falls: here it is followed by
// more comment text than a piece holds, so the pieces after it start with edges.
TEST(UndirectedHeader, HonouredOnEveryThreadCount) {
  TempDir tmp;
  std::string text = "# Undirected graph: big.txt\n";
  for (int k = 0; k < 12000; ++k) text += "# filler comment line to push the edges into later pieces\n";
  const int n = 100000;
  for (int v = 0; v + 1 < n; ++v) text += std::to_string(v) + "\t" + std::to_string(v + 1) + "\n";
  const auto path = tmp.write("big.txt", text);
  const int before = omp_get_max_threads();
  for (int threads : {1, 2, 4}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    omp_set_num_threads(threads);
    const LoadedGraph g = load_graph(path);
    EXPECT_TRUE(g.mirrored);
    EXPECT_EQ(g.matrix.nrows, n);
    EXPECT_EQ(g.matrix.nnz(), 2 * (n - 1));
    EXPECT_EQ(g.matrix.row_length(0), 1);
    EXPECT_EQ(g.matrix.row_length(n / 2), 2);
  }
  omp_set_num_threads(before);
}

// email-Enron as ../shared/datasets has it (SNAP's graph, "# Undirected graph" over each of its
// 183,831 pairs once): read as the symmetric graph of 367,662 links. web-NotreDame's header
// says directed, and its 1,497,134 links stay as stored.
TEST(UndirectedHeader, RealSnapGraphs) {
  const std::string enron = test::shared_dataset("real/email-Enron.txt.gz");
  SPGRAPH_REQUIRE_SHARED_DATASET(enron);
  const LoadedGraph e = load_graph(enron);
  EXPECT_TRUE(e.mirrored);
  EXPECT_EQ(e.matrix.nrows, 36692);
  EXPECT_EQ(e.matrix.nnz(), 2 * 183831);
  const Csr<double> t = transpose(e.matrix);
  EXPECT_EQ(t.rowptr, e.matrix.rowptr);
  EXPECT_EQ(t.col, e.matrix.col);
  EXPECT_EQ(load_graph(enron, {.mirror_undirected = false}).matrix.nnz(), 183831);

  const std::string notre_dame = test::shared_dataset("real/web-NotreDame.txt.gz");
  SPGRAPH_REQUIRE_SHARED_DATASET(notre_dame);
  const LoadedGraph d = load_graph(notre_dame);
  EXPECT_FALSE(d.mirrored);
  EXPECT_EQ(d.matrix.nnz(), 1497134);
}

}  // namespace
}  // namespace spgraph::io
