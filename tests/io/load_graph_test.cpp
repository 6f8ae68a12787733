#include <filesystem>

#include "io_test_util.hpp"
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::TempDir;

TEST(LoadGraph, DispatchesOnTheExtension) {
  TempDir tmp;
  auto mm = load_graph(test::dataset("small/karate.mtx"));
  EXPECT_EQ(mm.format, "matrix-market");
  EXPECT_EQ(mm.id_base, 1);
  EXPECT_EQ(mm.vertex_name(0), "1");  // the file's 1-based id
  EXPECT_EQ(mm.matrix.nnz(), 156);

  auto mmgz = load_graph(tmp.write("G.MTX.GZ", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n"));
  EXPECT_EQ(mmgz.format, "matrix-market");

  for (const char* name : {"e.txt", "e.tsv", "e.el", "e.edges", "e.csv", "e.txt.gz", "noextension"}) {
    auto el = load_graph(tmp.write(name, "0 1\n1 2\n"));
    EXPECT_EQ(el.format, "edge-list") << name;
    EXPECT_EQ(el.id_base, 0);
    EXPECT_EQ(el.vertex_name(2), "2");
    EXPECT_EQ(el.matrix.nnz(), 2);
  }

  auto abc = load_graph(tmp.write("g.abc", "cat hat 1\nhat cat 2\nhat cat 5\n"));
  EXPECT_EQ(abc.format, "abc");
  EXPECT_EQ(abc.vertex_name(1), "hat");
  EXPECT_EQ(test::dense(abc.matrix)[1][0], 5.0);  // the default policy is mcl's max for .abc
  auto abcgz = load_graph(tmp.write("g.abc.gz", "x y\n"));
  EXPECT_EQ(abcgz.format, "abc");
}

TEST(LoadGraph, CompactedEdgeListKeepsOriginalIdsAsLabels) {
  TempDir tmp;
  auto g = load_graph(tmp.write("c.txt", "10 20\n20 30\n"), {.compact_ids = true});
  EXPECT_EQ(g.matrix.nrows, 3);
  EXPECT_EQ(g.labels, (std::vector<std::string>{"10", "20", "30"}));
  EXPECT_EQ(g.vertex_name(2), "30");
}

TEST(LoadGraph, DuplicatesOptionReachesTheReaders) {
  TempDir tmp;
  const auto el = tmp.write("d.txt", "0 1 1\n0 1 2\n");
  EXPECT_THROW(load_graph(el), ParseError);
  EXPECT_EQ(load_graph(el, {.duplicates = Duplicates::Sum}).matrix.val, std::vector<double>{3});
  const auto abc = tmp.write("d.abc", "a b 1\na b 2\n");
  EXPECT_EQ(load_graph(abc, {.duplicates = Duplicates::First}).matrix.val, std::vector<double>{1});
  EXPECT_THROW(load_graph(test::dataset("malformed/mangled14.mtx")), ParseError);
  EXPECT_EQ(load_graph(test::dataset("malformed/mangled14.mtx"), {.duplicates = Duplicates::Max}).matrix.nnz(), 2);
}

// LoadOptions::format names the reader whatever the file is called (mcl's --abc).
TEST(LoadGraph, FormatOptionOverridesTheName) {
  TempDir tmp;
  const auto labels = tmp.write("labels.txt", "cat hat 0.5\nhat 7\n");
  EXPECT_THROW(load_graph(labels), ParseError);  // by its name an edge list, and 'cat' is no id
  const LoadedGraph g = load_graph(labels, {.format = GraphFormat::Abc});
  EXPECT_EQ(g.format, "abc");
  EXPECT_EQ(g.labels, (std::vector<std::string>{"cat", "hat", "7"}));
  const auto mm = tmp.write("matrix.dat", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  EXPECT_EQ(load_graph(mm, {.format = GraphFormat::MatrixMarket}).format, "matrix-market");
  const auto el = tmp.write("edges.abc", "0 1\n1 2\n");
  const LoadedGraph e = load_graph(el, {.format = GraphFormat::EdgeList});
  EXPECT_EQ(e.format, "edge-list");
  EXPECT_EQ(e.vertex_name(2), "2");
  EXPECT_EQ(load_graph(el, {.format = GraphFormat::ByName}).format, "abc");
}

TEST(LoadGraph, CacheRoundTripKeepsLabelsAndIdBase) {
  TempDir tmp;
  auto abc = load_graph(tmp.write("g.abc", "cat hat 0.5\nhat bat\n"));
  save_cache(tmp.path("g.spgcsr"), abc);
  auto back = load_graph(tmp.path("g.spgcsr"));
  EXPECT_EQ(back.format, "spgcsr");
  EXPECT_EQ(back.labels, abc.labels);
  EXPECT_EQ(back.matrix.val, abc.matrix.val);

  auto mm = load_graph(test::dataset("small/west0067.mtx"));
  save_cache(tmp.path("w.spgcsr"), mm);
  auto w = load_graph(tmp.path("w.spgcsr"));
  EXPECT_EQ(w.id_base, 1);
  EXPECT_EQ(w.vertex_name(66), "67");
  EXPECT_EQ(w.matrix.col, mm.matrix.col);
}

TEST(LoadGraph, MissingOrUnreadableFileNamesPathAndErrno) {
  for (const std::string path : {"/nonexistent/g.mtx", "/nonexistent/g.txt", "/nonexistent/g.spgcsr", "/nonexistent/g.abc"}) {
    try {
      load_graph(path);
      ADD_FAILURE() << path;
    } catch (const ParseError& e) {
      ADD_FAILURE() << "a missing file is not a parse error: " << e.what();
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), "cannot open " + path + ": No such file or directory");
    }
  }
  TempDir tmp;
  try {
    load_graph(tmp.dir().string());
    ADD_FAILURE() << "a directory loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Is a directory"), std::string::npos) << e.what();
  }
}

TEST(LoadGraph, Cnr2000) {
  const std::string path = test::shared_dataset("real/cnr-2000.mtx.gz");
  SPGRAPH_REQUIRE_SHARED_DATASET(path);
  auto g = load_graph(path);
  EXPECT_EQ(g.matrix.nrows, 325557);
  EXPECT_EQ(g.matrix.ncols, 325557);
  EXPECT_EQ(g.matrix.nnz(), 3216152);
  EXPECT_TRUE(g.matrix.is_pattern());
}

TEST(LoadGraph, WebNotreDameThroughTheCache) {
  const std::string path = test::shared_dataset("real/web-NotreDame.txt.gz");
  SPGRAPH_REQUIRE_SHARED_DATASET(path);
  auto g = load_graph(path);
  EXPECT_EQ(g.format, "edge-list");
  EXPECT_EQ(g.matrix.nrows, 325729);
  EXPECT_EQ(g.matrix.nnz(), 1497134);
  TempDir tmp;
  save_cache(tmp.path("nd.spgcsr"), g);
  auto c = load_graph(tmp.path("nd.spgcsr"));
  EXPECT_EQ(c.matrix.rowptr, g.matrix.rowptr);
  EXPECT_EQ(c.matrix.col, g.matrix.col);
}

// LoadOptions::progress hears the text readers: bytes of the file read, rising to its size.
TEST(LoadGraph, ProgressReportsTheBytesReadUpToTheFileSize) {
  TempDir tmp;
  std::string text;
  for (int k = 0; k < 400000; ++k) text += std::to_string(k) + " " + std::to_string(k + 1) + "\n";  // ~5 MB
  for (const char* name : {"p.txt", "p.txt.gz"}) {
    SCOPED_TRACE(name);
    const std::string path = tmp.write(name, text);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
    LoadOptions options;
    options.progress = [&](std::uint64_t read, std::uint64_t total) { calls.emplace_back(read, total); };
    load_graph(path, options);
    ASSERT_FALSE(calls.empty());
    for (std::size_t k = 0; k < calls.size(); ++k) {
      EXPECT_EQ(calls[k].second, std::filesystem::file_size(path));
      EXPECT_LE(calls[k].first, calls[k].second);
      if (k > 0) EXPECT_GE(calls[k].first, calls[k - 1].first);
    }
    if (std::string(name) == "p.txt") EXPECT_EQ(calls.back().first, text.size());
  }
}

}  // namespace
}  // namespace spgraph::io
