#include "io_test_util.hpp"
#include "spgraph/io/abc.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::dense;
using test::parse_error_of;
using test::TempDir;

// The example of mcl(1): labels become vertices in order of first appearance.
TEST(Abc, MclManualExample) {
  TempDir tmp;
  auto g = read_abc(tmp.write("cathat",
                              "cat hat  0.2\nhat bat  0.16\nbat cat  1.0\nbat bit  0.125\n"
                              "bit fit  0.25\nfit hit  0.5\nhit bit  0.16\n"));
  EXPECT_EQ(g.labels, (std::vector<std::string>{"cat", "hat", "bat", "bit", "fit", "hit"}));
  EXPECT_EQ(g.matrix.nrows, 6);
  EXPECT_EQ(g.matrix.nnz(), 7);
  const auto d = dense(g.matrix);
  EXPECT_EQ(d[0][1], 0.2);    // cat -> hat
  EXPECT_EQ(d[2][0], 1.0);    // bat -> cat
  EXPECT_EQ(d[5][3], 0.16);   // hit -> bit
  EXPECT_EQ(d[1][0], 0.0);    // directed as given: mcl symmetrizes later, not the reader
}

// mcl(1): "MCL deduplicates repeated edges by taking the one with the maximum value"
// (checked with mcxload -abc: "a b 1" then "a b 2" gives a->b 2).
TEST(Abc, RepeatedEdgesKeepTheMaximumLikeMcl) {
  TempDir tmp;
  const auto p = tmp.write("r.abc", "cat hat 0.2\nhat cat 0.16\nhat cat 0.8\nhat cat 0.5\n");
  auto g = read_abc(p);
  EXPECT_EQ(g.matrix.nnz(), 2);
  EXPECT_EQ(dense(g.matrix)[1][0], 0.8);
  const std::string msg = parse_error_of([&] { read_abc(p, {.duplicates = Duplicates::Error}); });
  EXPECT_NE(msg.find("r.abc:3: duplicate edge 'hat' -> 'cat', first given at line 2"), std::string::npos) << msg;
}

TEST(Abc, CommentsBlankLinesMissingWeightsAndUnweightedFiles) {
  TempDir tmp;
  auto g = read_abc(tmp.write("m.abc", "# comment\n\nx\ty 3\ny z\n"));
  EXPECT_EQ(g.labels, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(dense(g.matrix)[1][2], 1.0);  // a missing weight is 1, as in mcl
  EXPECT_EQ(dense(g.matrix)[0][1], 3.0);

  auto u = read_abc(tmp.write("u.abc.gz", "p q\nq r\n"));
  EXPECT_TRUE(u.matrix.is_pattern());
  EXPECT_EQ(u.labels, (std::vector<std::string>{"p", "q", "r"}));
}

TEST(Abc, MalformedLines) {
  TempDir tmp;
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"a b\nlonely\n", "2: expected 'label1 label2 [weight]'; found only 'lonely'"},
      {"a b 1 extra\n", "1: expected 'label1 label2 [weight]'; found more fields: 'extra'"},
      {"a b heavy\n", "1: weight 'heavy' is not a number"},
      {"a b nan\n", "1: weight 'nan' is not a finite number; NaN and infinite values are refused in every format"},
  };
  for (const auto& c : cases) {
    const auto p = tmp.write("bad.abc", c.text);
    EXPECT_EQ(parse_error_of([&] { read_abc(p); }), p + ":" + c.message);
  }
}

}  // namespace
}  // namespace spgraph::io
