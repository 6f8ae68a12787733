// Text parsed on several threads (parallel_text.hpp) gives what one thread gives: the same
// matrix, labels and entry order, and for a bad file the same error, naming the same line,
// whichever piece the fault falls in. The files are a few MiB so that each is cut into
// several pieces (256 KiB at least); the largest, 5 MiB, is read in two blocks by one thread.
#include <omp.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "same_graph.hpp"
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::TempDir;

// What a load gave: the graph, or the error's message.
struct Outcome {
  LoadedGraph graph;
  std::string error;
};

Outcome load_on(int threads, const std::string& path, const LoadOptions& options = {}) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  Outcome out;
  try {
    out.graph = load_graph(path, options);
  } catch (const Error& e) {
    out.error = e.what();
  }
  omp_set_num_threads(before);
  return out;
}

// Loads `path` on 1 thread and on 2, 3 and 4, expecting the same outcome; returns the first.
Outcome expect_same_on_every_thread_count(const std::string& path, const LoadOptions& options = {}) {
  const Outcome serial = load_on(1, path, options);
  for (int threads : {2, 3, 4}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    const Outcome parallel = load_on(threads, path, options);
    EXPECT_EQ(parallel.error, serial.error);
    if (serial.error.empty() && parallel.error.empty()) test::expect_same_numbered_graph(serial.graph, parallel.graph);
  }
  return serial;
}

// Matrix Market entry lines: row r has entries (r, r + 1 ... r + 3) (mod n), 1-based, with
// 17-digit values, a comment or a blank line now and then; `bad` replaces line k's text.
struct MtxBody {
  int n;
  std::vector<std::string> lines;
  explicit MtxBody(int rows = 20000) : n(rows) {
    for (int r = 0; r < n; ++r) {
      for (int d = 1; d <= 3; ++d)
        lines.push_back(std::to_string(r + 1) + " " + std::to_string((r + d) % n + 1) + " 0." +
                        std::to_string(123456789012345 + r * 7 + d));
      if (r % 1000 == 0) lines.push_back(r % 2000 ? "" : "% a comment");
    }
  }
  std::size_t entries() const {
    std::size_t e = 0;
    for (const auto& l : lines) e += !l.empty() && l[0] != '%';
    return e;
  }
  std::string text(std::size_t declared, const char* eol = "\n") const {
    std::string t = "%%MatrixMarket matrix coordinate real general\n% generated\n" + std::to_string(n) + " " +
                     std::to_string(n) + " " + std::to_string(declared) + "\n";
    for (const auto& l : lines) t += l + eol;
    return t;
  }
};

TEST(ParallelParse, MatrixMarketIsTheSameOnEveryThreadCount) {
  TempDir tmp;
  MtxBody body(60000);
  const std::size_t entries = body.entries();
  const Outcome good = expect_same_on_every_thread_count(tmp.write("g.mtx", body.text(entries)));
  ASSERT_EQ(good.error, "");
  EXPECT_EQ(good.graph.matrix.nnz(), static_cast<eid_t>(entries));
  expect_same_on_every_thread_count(tmp.write("crlf.mtx", body.text(entries, "\r\n")));
  expect_same_on_every_thread_count(tmp.write("g.mtx.gz", body.text(entries)));
  // Repeats combined in file order: the first kept, or summed in order (rounding shows order).
  MtxBody dups = body;
  for (std::size_t k = 0; k + 1 < dups.lines.size(); k += 1001)
    if (const std::string& l = dups.lines[k]; !l.empty() && l[0] != '%') dups.lines[k + 1] = l.substr(0, l.rfind(' ')) + " 0.3";
  for (Duplicates d : {Duplicates::First, Duplicates::Sum}) {
    const Outcome o = expect_same_on_every_thread_count(tmp.write("dups.mtx", dups.text(dups.entries())), {.duplicates = d});
    EXPECT_EQ(o.error, "");
  }
  std::string no_last_newline = body.text(entries);
  no_last_newline.pop_back();
  expect_same_on_every_thread_count(tmp.write("nolast.mtx", no_last_newline));
}

TEST(ParallelParse, MatrixMarketErrorsNameTheSameLine) {
  TempDir tmp;
  const MtxBody clean;
  const std::size_t entries = clean.entries(), total = clean.lines.size();
  // A bad line in each quarter, alone and with a later one: the first is reported.
  for (std::size_t at : {std::size_t{5}, total / 4 + 3, total / 2 + 1, total - 1}) {
    SCOPED_TRACE("bad line " + std::to_string(at));
    MtxBody body;
    body.lines[at] = "1 x 0.5";
    const Outcome one = expect_same_on_every_thread_count(tmp.write("b.mtx", body.text(entries)));
    EXPECT_NE(one.error.find(":" + std::to_string(at + 4) + ": expected a column index"), std::string::npos)
        << one.error;
    body.lines[total - 2] = "1 2 nan";
    expect_same_on_every_thread_count(tmp.write("b2.mtx", body.text(entries)));
  }
  // Past the first 4 MiB block of one thread, and compressed.
  MtxBody big(60000);
  const std::size_t late = big.lines.size() - 10;
  big.lines[late] = "1 2 -";
  for (const char* name : {"late.mtx", "late.mtx.gz"}) {
    const Outcome one = expect_same_on_every_thread_count(tmp.write(name, big.text(big.entries())));
    EXPECT_NE(one.error.find(":" + std::to_string(late + 4) + ": value '-' is not a number"), std::string::npos)
        << one.error;
  }
  // More entries than declared, the first one too many falling in each quarter; also when
  // that line is malformed too (the count is checked first), and with a later bad line.
  for (std::size_t declared : {std::size_t{10}, entries / 4, entries / 2 + 7, entries - 1}) {
    SCOPED_TRACE("declared " + std::to_string(declared));
    MtxBody body;
    body.lines[total - 1] = "2 2 inf";
    const Outcome over = expect_same_on_every_thread_count(tmp.write("o.mtx", body.text(declared)));
    EXPECT_NE(over.error.find("more entries than the " + std::to_string(declared)), std::string::npos) << over.error;
  }
  for (std::size_t declared : {entries + 1, entries * 2}) {
    const Outcome under = expect_same_on_every_thread_count(tmp.write("u.mtx", clean.text(declared)));
    EXPECT_NE(under.error.find("file ends after " + std::to_string(entries)), std::string::npos) << under.error;
  }
  // A repeated entry: both lines named.
  MtxBody body;
  body.lines[total - 3] = body.lines[2];  // (1, 4)
  const Outcome dup = expect_same_on_every_thread_count(tmp.write("d.mtx", body.text(entries)));
  EXPECT_NE(dup.error.find("duplicate entry"), std::string::npos) << dup.error;
}

// A count overflow or a bad line exactly at a piece's first line (wherever the cut falls).
TEST(ParallelParse, FaultsAroundTheCutsBetweenPieces) {
  TempDir tmp;
  MtxBody body;
  body.lines.resize(60000);  // ~1.5 MB: 4 pieces at 4 threads
  const std::size_t entries = body.entries();
  for (std::size_t k = entries / 4 - 12; k < entries / 4 + 12; ++k) {
    SCOPED_TRACE("at " + std::to_string(k));
    expect_same_on_every_thread_count(tmp.write("o.mtx", body.text(k)));
  }
}

// Edge lists: ids, weights, the weight column's consistency, --compact-ids.
std::string edge_text(int edges, bool weighted, int unweighted_from = -1) {
  std::string t = "# generated\n";
  for (int k = 0; k < edges; ++k) {
    t += std::to_string(k * 7 % 1000003) + "\t" + std::to_string((k * 13 + 5) % 1000003);  // no repeats
    if (weighted && (unweighted_from < 0 || k < unweighted_from)) t += "\t" + std::to_string(k % 97) + ".25";
    t += k % 5000 == 0 ? "\n# note\n" : "\n";
  }
  return t;
}

TEST(ParallelParse, EdgeListsAreTheSameOnEveryThreadCount) {
  TempDir tmp;
  for (bool weighted : {false, true}) {
    const std::string p = tmp.write(weighted ? "w.txt" : "u.txt", edge_text(120000, weighted));
    const Outcome good = expect_same_on_every_thread_count(p);
    ASSERT_EQ(good.error, "");
    EXPECT_EQ(good.graph.matrix.nnz(), 120000);
    const Outcome compact = expect_same_on_every_thread_count(p, {.compact_ids = true});
    EXPECT_EQ(compact.graph.labels, load_on(3, p, {.compact_ids = true}).graph.labels);
  }
  // The weight column stops anywhere, a piece's first line included.
  for (int from : {1, 30000, 90000, 119998})
    for (int shift = 0; shift < 2; ++shift) {
      SCOPED_TRACE("unweighted from edge " + std::to_string(from + shift));
      const Outcome mixed =
          expect_same_on_every_thread_count(tmp.write("m.txt", edge_text(120000, true, from + shift)));
      EXPECT_NE(mixed.error.find("this edge has no weight but the first edge (line 2) has one"), std::string::npos)
          << mixed.error;
    }
  // A bad id late in the file, then an earlier one too.
  std::string t = edge_text(120000, false);
  t.replace(t.size() - 20, 1, "-");
  expect_same_on_every_thread_count(tmp.write("b.txt", t));
  t.replace(t.size() / 3, 1, "x");
  expect_same_on_every_thread_count(tmp.write("b.txt.gz", t));
}

// The weight column changes exactly at the cut: the piece's first edge is unlike the file's.
TEST(ParallelParse, EdgeListWeightColumnChangingAtACut) {
  TempDir tmp;
  for (int from = 30000 - 60; from < 30000 + 60; from += 3)
    expect_same_on_every_thread_count(tmp.write("m.txt", edge_text(120000, true, from)));
}

// Every file of datasets/malformed (and ../shared/datasets/malformed), with 1 MiB of comment
// lines after its size line so that its faults land in a later piece.
TEST(ParallelParse, MalformedFilesPaddedFailTheSameWay) {
  TempDir tmp;
  const std::string padding = [] {
    std::string p;
    while (p.size() < (std::size_t{1} << 20)) p += "% padding to push the entries into later pieces\n";
    return p;
  }();
  int files = 0;
  for (const std::string& dir : {test::dataset("malformed"), test::shared_dataset("malformed")}) {
    if (!std::filesystem::is_directory(dir)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      SCOPED_TRACE(entry.path().string());
      std::string text = test::read_file(entry.path().string());
      // after the first line that is neither the banner nor a comment: the size line
      std::size_t at = 0;
      while (at != std::string::npos && at < text.size() && text[at] == '%') {
        at = text.find('\n', at);
        if (at != std::string::npos) ++at;
      }
      if (at != std::string::npos) at = text.find('\n', at);
      if (at == std::string::npos) continue;
      text.insert(at + 1, padding);
      expect_same_on_every_thread_count(tmp.write(entry.path().filename().string(), text));
      ++files;
    }
  }
  EXPECT_GE(files, 20);
}

}  // namespace
}  // namespace spgraph::io
