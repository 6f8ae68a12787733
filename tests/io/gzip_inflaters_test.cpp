// Both inflaters behind .gz input (gzip_stream.hpp: ISA-L when libisal.so.2 loads, zlib when
// not or when SPGRAPH_GZIP=zlib) read the same text: the same graph from a file of several
// gzip members (concatenated .gz files), and the same error, at the same line, for a stream
// cut short.
#include <cstdlib>
#include <string>

#include "io_test_util.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::io {
namespace {

using test::TempDir;

// The outcome of loading `path` with the inflater SPGRAPH_GZIP names ("" for the default).
std::string load_with(const char* inflater, const std::string& path, LoadedGraph& graph) {
  if (*inflater) ::setenv("SPGRAPH_GZIP", inflater, 1);
  std::string error;
  try {
    graph = load_graph(path);
  } catch (const Error& e) {
    error = e.what();
  }
  ::unsetenv("SPGRAPH_GZIP");
  return error;
}

std::string edges(int from, int count) {
  std::string t;
  for (int k = from; k < from + count; ++k) t += std::to_string(k) + " " + std::to_string(k * 3 % 100003) + "\n";
  return t;
}

TEST(GzipInflaters, SeveralMembersReadAlikeAndWhole) {
  TempDir tmp;
  const std::string a = test::read_file(tmp.write("a.gz", edges(0, 50000)));
  const std::string b = test::read_file(tmp.write("b.gz", edges(50000, 50000)));
  const std::string path = tmp.write("ab.txt", a + b);
  LoadedGraph by_default, by_zlib;
  EXPECT_EQ(load_with("", path, by_default), "");
  EXPECT_EQ(load_with("zlib", path, by_zlib), "");
  EXPECT_EQ(by_default.matrix.nnz(), 100000);
  EXPECT_EQ(by_default.matrix.rowptr, by_zlib.matrix.rowptr);
  EXPECT_EQ(by_default.matrix.col, by_zlib.matrix.col);
}

TEST(GzipInflaters, CutStreamFailsAlike) {
  TempDir tmp;
  const std::string bytes = test::read_file(tmp.write("c.gz", edges(0, 300000)));
  const std::string path = tmp.write("cut.txt", bytes.substr(0, bytes.size() / 2));
  LoadedGraph unused;
  const std::string by_default = load_with("", path, unused), by_zlib = load_with("zlib", path, unused);
  EXPECT_NE(by_default.find(": corrupt or truncated gzip data: "), std::string::npos) << by_default;
  EXPECT_EQ(by_default.substr(0, by_default.find(": corrupt")), by_zlib.substr(0, by_zlib.find(": corrupt")));
}

}  // namespace
}  // namespace spgraph::io
