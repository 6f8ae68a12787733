// A refusal that offers a way out names the flag a user types (issue 41): "--trust-vertex-count",
// "--compact-ids", "--duplicates max", never the C++ option behind it
// ("MatrixMarketOptions::trust_vertex_count"), which users of the apps never see.
#include <string>

#include "io_test_util.hpp"
#include "spgraph/io/abc.hpp"
#include "spgraph/io/edge_list.hpp"
#include "spgraph/io/matrix_market.hpp"

namespace spgraph::io {
namespace {

using test::parse_error_of;
using test::TempDir;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Names no C++ identifier: no "Options", no "::", no snake_case option name.
void expect_flags_only(const std::string& msg) {
  SCOPED_TRACE(msg);
  EXPECT_FALSE(msg.empty());
  for (const char* internal : {"Options", "::", "trust_vertex_count", "compact_ids", "duplicates policy", "Duplicates"})
    EXPECT_FALSE(has(msg, internal)) << internal;
}

TEST(RefusalsNameFlags, VertexCounts) {
  TempDir tmp;
  const std::string edges = parse_error_of([&] { read_edge_list(tmp.write("huge.txt", "0 2147483646\n")); });
  expect_flags_only(edges);
  EXPECT_TRUE(has(edges, "use --compact-ids to number the vertices 0..n-1 by first appearance, or "
                         "--trust-vertex-count to allocate them all"))
      << edges;
  const std::string mtx = parse_error_of([&] {
    read_matrix_market(tmp.write("huge.mtx", "%%MatrixMarket matrix coordinate pattern general\n268435456 268435456 1\n1 1\n"));
  });
  expect_flags_only(mtx);
  EXPECT_TRUE(mtx.ends_with("; pass --trust-vertex-count if the matrix really is this sparse")) << mtx;
}

TEST(RefusalsNameFlags, Duplicates) {
  TempDir tmp;
  const std::string edges = parse_error_of([&] { read_edge_list(tmp.write("d.txt", "0 1\n0 1\n")); });
  expect_flags_only(edges);
  EXPECT_TRUE(edges.ends_with("(--duplicates sum, max or first combines repeats)")) << edges;
  const std::string mtx = parse_error_of([&] {
    read_matrix_market(tmp.write("d.mtx", "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n1 2\n"));
  });
  expect_flags_only(mtx);
  EXPECT_TRUE(mtx.ends_with("(--duplicates sum, max or first combines repeats)")) << mtx;
  const std::string abc =
      parse_error_of([&] { read_abc(tmp.write("d.abc", "a b 1\na b 2\n"), {.duplicates = Duplicates::Error}); });
  expect_flags_only(abc);
  EXPECT_TRUE(abc.ends_with("(mcl keeps the larger weight: --duplicates max does too)")) << abc;
}

}  // namespace
}  // namespace spgraph::io
