// io::write_vertex_values: one "name<TAB>value" line per vertex, in order, however many blocks
// and threads format it, with the names and numbers a reader gets back exactly.
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "spgraph/io/vertex_values.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::TempDir;

LoadedGraph vertices(vid_t n, int id_base = 0, std::vector<std::string> labels = {}) {
  LoadedGraph g;
  g.matrix.nrows = g.matrix.ncols = n;
  g.matrix.rowptr.assign(std::size_t(n) + 1, 0);
  g.id_base = id_base;
  g.labels = std::move(labels);
  return g;
}

template <class T>
std::string written(const TempDir& tmp, const LoadedGraph& g, const std::vector<T>& values) {
  const std::string path = tmp.path("values.tsv");
  AtomicFile out(path);
  write_vertex_values(out, g, values);
  out.commit();
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(VertexValues, NamesAndShortestExactNumbers) {
  TempDir tmp;
  EXPECT_EQ(written(tmp, vertices(3, 1), std::vector<double>{0.1, 1.0 / 3.0, -2.5e300}),
            "1\t0.1\n2\t0.3333333333333333\n3\t-2.5e+300\n");
  EXPECT_EQ(written(tmp, vertices(2, 0, {"cat", "hat"}), std::vector<std::int64_t>{-7, INT64_MAX}),
            "cat\t-7\nhat\t9223372036854775807\n");
  EXPECT_EQ(written(tmp, vertices(1), std::vector<float>{0.1f}), "0\t0.1\n");
  EXPECT_EQ(written(tmp, vertices(0), std::vector<float>{}), "");
}

// More vertices than one round of blocks (64K vertices a block, 4 blocks a thread): every line
// in order, each value read back equal.
TEST(VertexValues, ManyBlocksStayInOrder) {
  TempDir tmp;
  const vid_t n = 3 * 65536 * 4 * 2 + 12345;
  std::vector<double> values(n);
  for (vid_t v = 0; v < n; ++v) values[v] = 1.0 / (v + 3.0);
  std::istringstream lines(written(tmp, vertices(n, 5), values));
  std::string line;
  vid_t v = 0;
  while (std::getline(lines, line)) {
    const auto tab = line.find('\t');
    ASSERT_EQ(line.substr(0, tab), std::to_string(v + 5)) << "line " << v + 1;
    ASSERT_EQ(std::stod(line.substr(tab + 1)), values[v]) << "line " << v + 1;
    ++v;
  }
  EXPECT_EQ(v, n);
}

TEST(VertexValues, CountMismatchNamesTheFile) {
  TempDir tmp;
  AtomicFile out(tmp.path("short.tsv"));
  const std::string what = test::error_of([&] { write_vertex_values(out, vertices(3), std::vector<double>{1, 2}); });
  EXPECT_NE(what.find("2 values for 3 vertices"), std::string::npos) << what;
  EXPECT_NE(what.find("short.tsv"), std::string::npos) << what;
}

}  // namespace
}  // namespace spgraph::io
