#include "io_test_util.hpp"
#include "spgraph/io/edge_list.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::dense;
using test::parse_error_of;
using test::TempDir;

TEST(EdgeList, CommentsAndIdsKept) {
  TempDir tmp;
  auto e = read_edge_list(tmp.write("g.txt",
                                    "# Directed graph\n"
                                    "% another comment style\n"
                                    "\n"
                                    "0\t3\n"
                                    "3 1\n"
                                    "  # indented comment\n"
                                    "1   0\n"));
  EXPECT_TRUE(e.original_ids.empty());
  EXPECT_TRUE(e.matrix.is_pattern());
  EXPECT_EQ(e.matrix.nrows, 4);  // largest id 3; vertex 2 is isolated
  EXPECT_EQ(dense(e.matrix), (std::vector<std::vector<double>>{
                                 {0, 0, 0, 1}, {1, 0, 0, 0}, {0, 0, 0, 0}, {0, 1, 0, 0}}));
}

TEST(EdgeList, CommasAndWeights) {
  TempDir tmp;
  auto e = read_edge_list(tmp.write("g.csv", "0,1,0.5\n1, 2 ,-2\n2 ,0,1e3\n"));
  EXPECT_FALSE(e.matrix.is_pattern());
  EXPECT_EQ(dense(e.matrix), (std::vector<std::vector<double>>{{0, 0.5, 0}, {0, 0, -2}, {1000, 0, 0}}));
}

TEST(EdgeList, WeightColumnMustBeConsistent) {
  TempDir tmp;
  const auto p = tmp.write("w.txt", "# x\n0 1 2.0\n1 2\n");
  EXPECT_NE(parse_error_of([&] { read_edge_list(p); })
                .find("w.txt:3: this edge has no weight but the first edge (line 2) has one"),
            std::string::npos);
  const auto q = tmp.write("v.txt", "0 1\n1 2 7\n");
  EXPECT_NE(parse_error_of([&] { read_edge_list(q); })
                .find("v.txt:2: this edge has a weight but the first edge (line 1) has none"),
            std::string::npos);
}

TEST(EdgeList, CompactionKeepsFirstAppearanceOrder) {
  TempDir tmp;
  auto e = read_edge_list(tmp.write("c.txt", "100 7\n7 5000\n5000 100\n42 42\n"), {.compact_ids = true});
  EXPECT_EQ(e.original_ids, (std::vector<vid_t>{100, 7, 5000, 42}));
  EXPECT_EQ(e.matrix.nrows, 4);
  EXPECT_EQ(dense(e.matrix), (std::vector<std::vector<double>>{
                                 {0, 1, 0, 0}, {0, 0, 1, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}}));
}

TEST(EdgeList, Gzip) {
  TempDir tmp;
  auto e = read_edge_list(tmp.write("g.txt.gz", "# gz\n0 1\n1 2\n"));
  EXPECT_EQ(e.matrix.nrows, 3);
  EXPECT_EQ(e.matrix.col, (std::vector<vid_t>{1, 2}));
}

TEST(EdgeList, EmptyFileIsAnEmptyGraph) {
  TempDir tmp;
  auto e = read_edge_list(tmp.write("e.txt", "# nothing but comments\n"));
  EXPECT_EQ(e.matrix.nrows, 0);
  EXPECT_EQ(e.matrix.nnz(), 0);
}

TEST(EdgeList, BadIdsNameTheLine) {
  TempDir tmp;
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"0 1\n-3 1\n", "b.txt:2: negative source vertex id -3"},
      {"0 1.5\n", "b.txt:1: expected a non-negative integer destination vertex id, found '1.5'"},
      {"0 x\n", "b.txt:1: expected a non-negative integer destination vertex id, found 'x'"},
      {"2147483647 0\n", "b.txt:1: source vertex id '2147483647' is too large (ids must be below 2147483647)"},
      {"1 99999999999999999999\n", "b.txt:1: destination vertex id '99999999999999999999' is too large"},
      {"0\n", "b.txt:1: missing destination vertex"},
      {"0 1 2 3\n", "b.txt:1: unexpected text after the weight: '3'"},
      {"0 1 heavy\n", "b.txt:1: weight 'heavy' is not a number"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    const auto p = tmp.write("b.txt", c.text);
    const std::string msg = parse_error_of([&] { read_edge_list(p); });
    EXPECT_EQ(msg.rfind(p + ":", 0), 0u) << msg;
    EXPECT_NE(msg.find(c.message), std::string::npos) << msg;
  }
  // The largest allowed id is 2^31-2.
  EXPECT_EQ(read_edge_list(tmp.write("ok.txt", "2147483646 0\n"), {.compact_ids = true}).original_ids[0], 2147483646);
}

TEST(EdgeList, DuplicateEdges) {
  TempDir tmp;
  const auto p = tmp.write("d.txt", "# c\n5 6 1\n6 5 2\n\n5 6 4\n");
  const std::string msg = parse_error_of([&] { read_edge_list(p, {.compact_ids = true}); });
  EXPECT_NE(msg.find("d.txt:5: duplicate edge 5 -> 6, first given at line 2"), std::string::npos) << msg;
  auto summed = read_edge_list(p, {.duplicates = Duplicates::Sum});
  EXPECT_EQ(dense(summed.matrix)[5][6], 5.0);
}

TEST(EdgeList, WebNotreDame) {
  const std::string path = test::shared_dataset("real/web-NotreDame.txt.gz");
  SPGRAPH_REQUIRE_SHARED_DATASET(path);
  auto e = read_edge_list(path);
  EXPECT_EQ(e.matrix.nrows, 325729);
  EXPECT_EQ(e.matrix.nnz(), 1497134);
  EXPECT_TRUE(e.matrix.is_pattern());
}

}  // namespace
}  // namespace spgraph::io
