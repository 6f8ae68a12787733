// LoadOptions::require_nonnegative_weights (what the mcl app asks for): a weight that is
// negative is refused naming the file, the line and the value, in each text format; zero
// weights pass; without the option the readers keep negative weights. NaN and infinity are
// refused by every text reader whatever the options (one rule for every format).
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "io_test_util.hpp"
#include "spgraph/io/abc.hpp"
#include "spgraph/io/edge_list.hpp"
#include "spgraph/io/load_graph.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::parse_error_of;
using test::TempDir;

const LoadOptions kRequire{.require_nonnegative_weights = true};

struct Format {
  const char* name;    // file name: its extension picks the reader
  std::string header;  // lines before the entries
  std::string (*entry)(int from, int to, const std::string& weight);
};

const Format kFormats[] = {
    {"g.mtx", "%%MatrixMarket matrix coordinate real general\n% a comment\n3 3 3\n",
     [](int a, int b, const std::string& w) { return std::to_string(a + 1) + " " + std::to_string(b + 1) + " " + w; }},
    {"g.txt", "# from to weight\n",
     [](int a, int b, const std::string& w) { return std::to_string(a) + " " + std::to_string(b) + " " + w; }},
    {"g.abc", "# label pairs\n",
     [](int a, int b, const std::string& w) { return "v" + std::to_string(a) + "\tv" + std::to_string(b) + "\t" + w; }},
    {"g.txt.gz", "# compressed\n",
     [](int a, int b, const std::string& w) { return std::to_string(a) + "," + std::to_string(b) + "," + w; }},
};

// Three entries, the bad one last: on line header + 3, after a blank line.
std::string file_text(const Format& f, const std::string& bad) {
  return f.header + f.entry(0, 1, "0.5") + "\n" + f.entry(1, 2, "0") + "\n\n" + f.entry(2, 0, bad) + "\n";
}

long long bad_line(const Format& f) {
  long long lines = 0;
  for (char c : f.header) lines += c == '\n';
  return lines + 4;
}

TEST(NonnegativeWeights, EachBadValueIsRefusedNamingFileLineAndValue) {
  TempDir tmp;
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"-1", "weight -1 is negative"},           {"-0.25", "weight -0.25 is negative"},
      {"-1e-300", "weight -1e-300 is negative"}, {"nan", "nan"},
      {"inf", "inf"},                            {"-inf", "inf"},
      {"+inf", "inf"}};
  for (const Format& f : kFormats)
    for (const auto& [value, says] : bad) {
      SCOPED_TRACE(std::string(f.name) + " " + value);
      const std::string path = tmp.write(f.name, file_text(f, value));
      const std::string msg = parse_error_of([&] { load_graph(path, kRequire); });
      EXPECT_EQ(msg.rfind(path + ":" + std::to_string(bad_line(f)) + ": ", 0), 0u) << msg;
      EXPECT_NE(msg.find(says), std::string::npos) << msg;
    }
}

// The message says which rule the value breaks, not only that it is bad.
TEST(NonnegativeWeights, TheMessageGivesTheReason) {
  TempDir tmp;
  const Format& mtx = kFormats[0];
  auto message = [&](const std::string& value) {
    return parse_error_of([&] { load_graph(tmp.write(mtx.name, file_text(mtx, value)), kRequire); });
  };
  const std::string path = tmp.path(mtx.name) + ":" + std::to_string(bad_line(mtx)) + ": ";
  EXPECT_EQ(message("-2.5"),
            path + "weight -2.5 is negative; the weights must be non-negative finite numbers here");
  EXPECT_EQ(message("nan"), path + "weight 'nan' is not a finite number; NaN and infinite values are refused in every format");
  EXPECT_EQ(message("-inf"), path + "weight '-inf' is not a finite number; NaN and infinite values are refused in every format");
  // an integer file's negative value too
  const std::string ints =
      tmp.write("i.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 3\n2 1 -4\n");
  EXPECT_EQ(parse_error_of([&] { load_graph(ints, kRequire); }),
            ints + ":4: weight -4 is negative; the weights must be non-negative finite numbers here");
}

TEST(NonnegativeWeights, ZeroAndPositiveWeightsPass) {
  TempDir tmp;
  for (const Format& f : kFormats)
    for (const char* value : {"0", "-0", "0.0", "1e-300", "3", "1e300"}) {
      SCOPED_TRACE(std::string(f.name) + " " + value);
      const LoadedGraph g = load_graph(tmp.write(f.name, file_text(f, value)), kRequire);
      EXPECT_EQ(g.matrix.nnz(), 3);
    }
}

// Off by default: the readers keep negative weights, as before the option.
TEST(NonnegativeWeights, OffByDefault) {
  TempDir tmp;
  for (const Format& f : kFormats) {
    SCOPED_TRACE(f.name);
    const LoadedGraph g = load_graph(tmp.write(f.name, file_text(f, "-1")));
    EXPECT_EQ(test::dense(g.matrix)[2][0], -1.0);
  }
}

// NaN and infinity: one rule for every text reader (plain and compressed), with or without
// the option: refused naming the file, the line and the text as written.
TEST(NonFiniteWeights, RefusedByEveryTextReaderWhateverTheOptions) {
  TempDir tmp;
  for (const LoadOptions& options : {LoadOptions{}, kRequire})
    for (const Format& f : kFormats)
      for (const char* value : {"nan", "NaN", "-nan", "inf", "-inf", "+inf", "Infinity", "1e999"}) {
        SCOPED_TRACE(std::string(f.name) + " " + value);
        const std::string path = tmp.write(f.name, file_text(f, value));
        const std::string msg = parse_error_of([&] { load_graph(path, options); });
        const std::string at = path + ":" + std::to_string(bad_line(f)) + ": weight '" + value + "'";
        if (std::string(value) == "1e999")  // out of double's range: refused as such, not as infinite
          EXPECT_EQ(msg.rfind(path + ":" + std::to_string(bad_line(f)) + ": ", 0), 0u) << msg;
        else
          EXPECT_EQ(msg, at + " is not a finite number; NaN and infinite values are refused in every format");
      }
}

// The dense Matrix Market reader (vectors) follows the same rule, calling them values.
TEST(NonFiniteWeights, DenseVectorsToo) {
  TempDir tmp;
  const std::string path = tmp.write("v.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\ninf\n2\n");
  EXPECT_EQ(parse_error_of([&] { read_matrix_market_dense(path); }),
            path + ":4: value 'inf' is not a finite number; NaN and infinite values are refused in every format");
}

// Pattern files and edge lists without weights have nothing to refuse.
TEST(NonnegativeWeights, UnweightedFilesPass) {
  TempDir tmp;
  EXPECT_EQ(load_graph(tmp.write("p.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n"),
                       kRequire)
                .matrix.nnz(),
            4);
  EXPECT_EQ(load_graph(tmp.write("p.txt", "0 1\n1 2\n"), kRequire).matrix.nnz(), 2);
  EXPECT_EQ(load_graph(tmp.write("p.abc", "a b\nb c\n"), kRequire).matrix.nnz(), 2);
  EXPECT_EQ(load_graph(test::dataset("small/karate.mtx"), kRequire).matrix.nnz(), 156);
}

// A symmetric file's mirror is the same value; a skew-symmetric file's is its negation, so
// any positive value there is refused too, naming the mirror.
TEST(NonnegativeWeights, SymmetricFilesCheckTheMirror) {
  TempDir tmp;
  const std::string sym =
      tmp.write("s.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 0.5\n3 3 1\n3 2 -1\n");
  EXPECT_NE(parse_error_of([&] { load_graph(sym, kRequire); }).find(sym + ":5: weight -1 is negative"),
            std::string::npos);
  const std::string skew =
      tmp.write("k.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 0\n3 2 2\n");
  EXPECT_EQ(parse_error_of([&] { load_graph(skew, kRequire); }),
            skew + ":4: weight -2 of the skew-symmetric mirror (2, 3) of this entry is negative; the weights must be "
                   "non-negative finite numbers here");
  const std::string zero = tmp.write("z.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 0\n");
  EXPECT_EQ(load_graph(zero, kRequire).matrix.nnz(), 2);  // a zero's mirror is -0: zero
}

// A .spgcsr cache has no lines: the refusal names the file and the link as the graph names
// its vertices.
TEST(NonnegativeWeights, CacheNamesTheLink) {
  TempDir tmp;
  const LoadedGraph g = load_graph(tmp.write("g.abc", "cat hat 0.5\nhat bat -2\n"));
  const std::string cache = tmp.path("g.spgcsr");
  save_cache(cache, g);
  EXPECT_EQ(load_graph(cache).matrix.nnz(), 2);
  try {
    load_graph(cache, kRequire);
    ADD_FAILURE() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              cache + ": weight -2 of the link hat -> bat is negative; the weights must be non-negative finite "
                      "numbers here");
  }
}

// Each format's own reader takes the option too.
TEST(NonnegativeWeights, TheReadersTakeTheOption) {
  TempDir tmp;
  const std::string mtx = tmp.write("r.mtx", file_text(kFormats[0], "-1"));
  const std::string txt = tmp.write("r.txt", file_text(kFormats[1], "-1"));
  const std::string abc = tmp.write("r.abc", file_text(kFormats[2], "-1"));
  EXPECT_NE(parse_error_of([&] { read_matrix_market(mtx, {.require_nonnegative_weights = true}); }).find(mtx + ":7:"),
            std::string::npos);
  EXPECT_NE(parse_error_of([&] { read_edge_list(txt, {.require_nonnegative_weights = true}); }).find(txt + ":5:"),
            std::string::npos);
  EXPECT_NE(parse_error_of([&] { read_abc(abc, {.require_nonnegative_weights = true}); }).find(abc + ":5:"),
            std::string::npos);
}

}  // namespace
}  // namespace spgraph::io
