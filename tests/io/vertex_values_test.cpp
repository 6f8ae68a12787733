// io::write_vertex_values: one "name<TAB>value" line per vertex, in order, however many blocks
// and threads format it, with the names and numbers a reader gets back exactly.
#include <omp.h>

#include <charconv>
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

// More vertices than one round of blocks: every line in order, each value read back equal.
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

// The plain single-threaded formatting the parallel writer must reproduce byte for byte.
template <class T>
std::string one_line_at_a_time(const LoadedGraph& g, const std::vector<T>& values) {
  std::string s;
  char buf[64];
  for (vid_t v = 0; v < g.matrix.nrows; ++v) {
    s += g.labels.empty() ? std::to_string(v + g.id_base) : g.labels[v];
    s += '\t';
    s.append(buf, std::to_chars(buf, buf + sizeof buf, values[v]).ptr);
    s += '\n';
  }
  return s;
}

// Several rounds on every thread count (round k formatted while round k - 1 is written), with
// numbers and labels of varying lengths: the same bytes as one line at a time.
TEST(VertexValues, LargeOutputIsByteIdenticalToSerialFormatting) {
  TempDir tmp;
  const vid_t n = 600'001;  // 3 rounds of 32 blocks of 8K vertices on 1-4 threads
  std::vector<std::string> labels(n);
  for (vid_t v = 0; v < n; ++v) labels[v] = "v" + std::string(v % 7, 'x') + std::to_string(v * 7919LL % n);
  std::vector<double> d(n);
  std::vector<float> f(n);
  for (vid_t v = 0; v < n; ++v) {
    d[v] = (v % 5 == 0 ? -1.0 : 1.0) / (v + 1.0) * (v % 3 == 0 ? 1e-300 : 1.0);
    f[v] = static_cast<float>(0.15 + v) / static_cast<float>(n);
  }
  d[n - 1] = -2.2250738585072014e-308;  // the longest texts, 24 and 14 characters
  f[n - 1] = -1.17549435e-38f;
  const int threads = omp_get_max_threads();
  for (const LoadedGraph& g : {vertices(n, 1), vertices(n, 0, labels)}) {
    const std::string want_d = one_line_at_a_time(g, d), want_f = one_line_at_a_time(g, f);
    for (int t : {1, 2, 3, 4}) {
      omp_set_num_threads(t);
      const std::string what = std::string(g.labels.empty() ? "ids, " : "labels, ") + std::to_string(t) + " threads";
      EXPECT_TRUE(written(tmp, g, d) == want_d) << "double, " << what;
      EXPECT_TRUE(written(tmp, g, f) == want_f) << "float, " << what;
    }
  }
  omp_set_num_threads(threads);
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
