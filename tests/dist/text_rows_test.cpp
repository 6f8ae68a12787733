// io::read_text_rows (a text graph read by the ranks together, each its byte range) against
// io::load_graph of the whole file on every rank: on every grid shape of the job's ranks, each
// rank gets exactly the rows of its grid row's block that the whole read gives, with the same
// vertex count, id base, format, links, and mirroring; a file the whole read refuses is refused
// with the same message on every rank. On the bundled graphs and malformed files, and on files
// written here so that what matters falls across the ranks' byte ranges: errors at every place
// of a file, repeats whose two lines two different ranks parse, a symmetric file's mirrors, an
// undirected edge list, a line longer than a share, more ranks than rows; the same gzip-compressed
// (one member or several), truncated and corrupt. Then io::keep_entries: each rank left with its
// 2D block of the whole read, as the apps load under mpirun.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dist_test_support.hpp"
#include "spgraph/dist/layout.hpp"
#include "spgraph/dist/text_exchange.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/load_graph.hpp"
#include "spgraph/io/text_rows.hpp"

namespace spgraph::dist::test {
namespace {

namespace fs = std::filesystem;

// Rows [begin, end) of a whole graph, every other row empty: what a rank keeps.
Csr<double> rows_of_whole(const Csr<double>& a, std::int64_t begin, std::int64_t end) {
  Csr<double> r;
  r.nrows = a.nrows;
  r.ncols = a.ncols;
  r.rowptr.assign(std::size_t(a.nrows) + 1, 0);
  const eid_t first = a.rowptr[std::size_t(begin)];
  for (std::int64_t i = 0; i < a.nrows; ++i) {
    const std::int64_t k = std::clamp<std::int64_t>(i + 1, begin, end);
    r.rowptr[std::size_t(i) + 1] = a.rowptr[std::size_t(k)] - first;
  }
  r.col.assign(a.col.begin() + first, a.col.begin() + a.rowptr[std::size_t(end)]);
  if (!a.val.empty()) r.val.assign(a.val.begin() + first, a.val.begin() + a.rowptr[std::size_t(end)]);
  return r;
}

// What a load gives, or its error message.
struct Outcome {
  io::LoadedGraph graph;
  std::string error;
};

Outcome load_whole(const std::string& path, const io::LoadOptions& options, bool undirected) {
  Outcome o;
  try {
    o.graph = io::load_graph(path, options);
    if (undirected && !o.graph.mirrored) o.graph.matrix = symmetrize(o.graph.matrix, Duplicates::Max);
  } catch (const Error& e) {
    o.error = e.what();
  }
  return o;
}

// Checks read_text_rows (then mirror_rows where `undirected`) on every grid shape against the
// whole read. Every rank reaches the same collectives whatever it finds (EXPECT only). The whole
// read's error ("" for none).
std::string expect_rows_as_whole(const std::string& path, const io::LoadOptions& options = {},
                                 bool undirected = false) {
  SCOPED_TRACE(path);
  const Outcome whole = load_whole(path, options, undirected);
  MpiRankExchange exchange(world());
  for_each_grid([&](const ProcessGrid& grid) {
    const io::RowsOf rows_of = [&](std::int64_t n) {
      const BlockRange r = matrix_row_block(n, grid.shape(), grid.row());
      return std::pair{r.begin, r.end};
    };
    Outcome got;
    try {
      got.graph = io::read_text_rows(path, options, rows_of, exchange);
      if (undirected && !got.graph.mirrored) io::mirror_rows(got.graph, rows_of, exchange);
    } catch (const io::AgreedReadError& e) {
      got.error = e.what();
    }
    EXPECT_EQ(got.error, whole.error);
    if (!whole.error.empty() || !got.error.empty()) return;
    const Csr<double>& a = whole.graph.matrix;
    const BlockRange mine = matrix_row_block(a.nrows, grid.shape(), grid.row());
    const Csr<double> want = rows_of_whole(a, mine.begin, mine.end);
    const Csr<double>& have = got.graph.matrix;
    EXPECT_EQ(have.nrows, want.nrows);
    EXPECT_EQ(have.ncols, want.ncols);
    EXPECT_EQ(have.rowptr, want.rowptr);
    EXPECT_EQ(have.col, want.col);
    EXPECT_EQ(have.val, want.val);  // bit for bit: repeats summed in the file's order
    EXPECT_EQ(got.graph.links(), a.nnz());
    EXPECT_EQ(got.graph.id_base, whole.graph.id_base);
    EXPECT_EQ(got.graph.format, whole.graph.format);
    EXPECT_EQ(got.graph.mirrored, whole.graph.mirrored);
    EXPECT_TRUE(got.graph.labels.empty());
  });
  return whole.error;
}

// A folder every rank of the job shares, removed at the end (rank 0 makes and removes it).
class SharedDir {
 public:
  SharedDir() {
    std::int64_t pid = ::getpid();
    world().broadcast(&pid, 1, 0);
    dir_ = fs::temp_directory_path() / ("spgraph-text-rows." + std::to_string(pid));
    if (world().rank() == 0) fs::create_directories(dir_);
    world().barrier();
  }
  ~SharedDir() {
    world().barrier();
    if (world().rank() == 0) fs::remove_all(dir_);
  }
  // Writes `text` (rank 0) as NAME, once every rank may read it.
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (dir_ / name).string();
    if (world().rank() == 0) std::ofstream(path, std::ios::binary) << text;
    world().barrier();
    return path;
  }
  // Writes `text` gzip-compressed (rank 0, by gzip(1)) as NAME.gz, once every rank may read it.
  std::string write_gz(const std::string& name, const std::string& text) const {
    const std::string path = write(name, text);
    if (world().rank() == 0) EXPECT_EQ(std::system(("gzip -n -f '" + path + "'").c_str()), 0);
    world().barrier();
    return path + ".gz";
  }

 private:
  fs::path dir_;
};

std::string source(const std::string& relative) { return std::string(SPGRAPH_SOURCE_DIR) + "/" + relative; }

TEST(TextRows, BundledGraphsAndMalformedFiles) {
  for (const char* folder : {"datasets/small", "datasets/malformed"}) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(source(folder))) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());  // every rank in the same order
    for (const std::string& f : files) expect_rows_as_whole(f);
  }
  // Repeats combined instead of refused; negative weights refused; the graph as undirected.
  expect_rows_as_whole(source("datasets/malformed/mangled14.mtx"), {.duplicates = Duplicates::Sum});
  expect_rows_as_whole(source("datasets/small/west0067.mtx"), {.require_nonnegative_weights = true});
  expect_rows_as_whole(source("datasets/small/west0067.mtx"), {}, /*undirected=*/true);
  expect_rows_as_whole(source("datasets/small/hep-th.mtx"), {}, /*undirected=*/true);
}

// A random file of about `entries` lines among comments and blank lines (CRLF ends too), with
// repeats whose values sum to other bits in another order.
std::string random_matrix_market(int n, int entries, unsigned seed, const std::string& field,
                                 const std::string& symmetry) {
  std::mt19937 rng(seed);
  std::ostringstream lines;
  int written = 0;
  for (int k = 0; k < entries; ++k) {
    int i = int(rng() % unsigned(n)) + 1, j = int(rng() % unsigned(n)) + 1;
    if (symmetry != "general" && i < j) std::swap(i, j);
    if (symmetry == "skew-symmetric" && i == j) continue;  // its diagonal is not stored
    lines << i << " " << j;
    if (field == "integer") lines << " " << int(rng() % 9);
    if (field == "real") lines << " " << 0.1 * double(rng() % 7);
    lines << (k % 5 == 0 ? "\r\n" : "\n");
    if (k % 17 == 0) lines << "% between entries\n\n";
    ++written;
  }
  return "%%MatrixMarket matrix coordinate " + field + " " + symmetry + "\n% a comment\n%\n" + std::to_string(n) +
         " " + std::to_string(n) + " " + std::to_string(written) + "\n" + lines.str();
}

TEST(TextRows, GeneratedMatrixMarket) {
  SharedDir dir;
  const std::pair<std::string, std::string> kinds[] = {
      {"real", "general"}, {"pattern", "symmetric"}, {"integer", "symmetric"}, {"real", "skew-symmetric"}};
  int f = 0;
  for (const auto& [field, symmetry] : kinds) {
    for (const int n : {3, 40, 700}) {
      const std::string text = random_matrix_market(n, 3 * n, unsigned(17 * n + f), field, symmetry);
      const std::string path = dir.write("g" + std::to_string(f++) + ".mtx", text);
      for (const Duplicates d : {Duplicates::Error, Duplicates::Sum, Duplicates::First, Duplicates::Max})
        expect_rows_as_whole(path, {.duplicates = d});
    }
  }
  // The size line's count against the entries: too many, too few, by one at the end.
  const std::string body = random_matrix_market(50, 200, 5, "real", "general");
  const std::size_t size_line = body.find("\n50 50 200\n") + 1;
  for (const char* count : {"150", "199", "201", "260"}) {
    std::string text = body;
    text.replace(size_line, 9, std::string("50 50 ") + count);
    expect_rows_as_whole(dir.write(std::string("count") + count + ".mtx", text));
  }
  // Header only; a BOM; entries without a final newline; a symmetric repeat through its mirror.
  expect_rows_as_whole(dir.write("header.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 0\n"));
  expect_rows_as_whole(dir.write("bom.mtx", "\xEF\xBB\xBF%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1"));
  expect_rows_as_whole(dir.write("mirror.mtx", "%%MatrixMarket matrix coordinate real symmetric\n4 4 3\n2 1 1\n3 3 2\n"
                                               "% the mirror of (2, 1)\n1 2 3\n"));
}

// Lines of a long file, so that every rank's byte range holds some, and a defect at `at`.
std::string long_edge_list(int lines, int at, const std::string& defect, bool weights) {
  std::ostringstream out;
  out << "# Directed graph\n";
  for (int k = 0; k < lines; ++k) {
    if (k == at) {
      out << defect << "\n";
      continue;
    }
    out << (k * 7) % 97 + 1 << "\t" << (k * 13 + 1) % 89 + 1;
    if (weights) out << "\t" << (k % 5) * 0.25;
    out << "\n";
  }
  return out.str();
}

TEST(TextRows, ErrorsAnywhereInTheFile) {
  SharedDir dir;
  const int lines = 400;
  for (const int at : {0, 1, 99, 100, 199, 200, 201, 299, 300, 399}) {
    SCOPED_TRACE("defect at edge line " + std::to_string(at));
    const std::string k = std::to_string(at);
    expect_rows_as_whole(dir.write("id" + k + ".txt", long_edge_list(lines, at, "5 x", false)));
    expect_rows_as_whole(dir.write("weight" + k + ".txt", long_edge_list(lines, at, "5 6 1.5", false)));
    expect_rows_as_whole(dir.write("noweight" + k + ".txt", long_edge_list(lines, at, "5 6", true)));
    expect_rows_as_whole(dir.write("negative" + k + ".txt", long_edge_list(lines, at, "5 6 -1", true)),
                         {.require_nonnegative_weights = true});
    // The first edge repeated here: its two lines parsed by different ranks.
    expect_rows_as_whole(dir.write("repeat" + k + ".txt", long_edge_list(lines, at, "1\t2", false)));
    // In Matrix Market, ids are 1-based: 0 is out of range.
    expect_rows_as_whole(dir.write("mm" + k + ".mtx",
                                   "%%MatrixMarket matrix coordinate pattern general\n%\n100 100 " +
                                       std::to_string(lines) + "\n" + long_edge_list(lines, at, "0 3", false).substr(17)));
  }
  // Repeats early and late: the earliest repeat of the file is named, whichever rank holds it.
  std::string text = long_edge_list(lines, 390, "50 60", false);
  text += "7 14\n50 60\n";
  expect_rows_as_whole(dir.write("repeats.txt", text));
  expect_rows_as_whole(dir.write("repeats_summed.txt", text), {.duplicates = Duplicates::Sum});
}

// Shares of several parse blocks each (4 MiB a thread), where counts and repeats cross blocks.
TEST(TextRows, LargeFile) {
  SharedDir dir;
  const int n = 60000, entries = 700000;
  std::string text = random_matrix_market(n, entries, 11, "real", "general");
  expect_rows_as_whole(dir.write("large.mtx", text), {.duplicates = Duplicates::Sum});
  expect_rows_as_whole(dir.write("large_repeats.mtx", text));  // a repeat refused, named by its lines
  const std::string size_line = "\n" + std::to_string(n) + " " + std::to_string(n) + " ";
  const std::size_t at = text.find(size_line) + size_line.size();
  const std::size_t end = text.find('\n', at);
  text.replace(at, end - at, std::to_string(std::stoll(text.substr(at, end - at)) - 1));
  expect_rows_as_whole(dir.write("large_too_many.mtx", text), {.duplicates = Duplicates::Sum});
}

TEST(TextRows, GeneratedEdgeLists) {
  SharedDir dir;
  // SNAP's undirected header: every edge mirrored, a pair given both ways kept once (larger weight).
  std::ostringstream undirected;
  undirected << "# Undirected graph: test\n# Nodes: 60\n";
  for (int k = 0; k < 300; ++k) undirected << (k * 11) % 60 << "," << (k * 7 + 3) % 60 << "," << (k % 4) << "\n";
  const std::string u = dir.write("undirected.csv", undirected.str());
  expect_rows_as_whole(u, {.duplicates = Duplicates::Max});
  expect_rows_as_whole(u, {.duplicates = Duplicates::Sum, .mirror_undirected = false});
  expect_rows_as_whole(u, {.duplicates = Duplicates::First}, /*undirected=*/true);
  // A comment line longer than a rank's byte range; more ranks than rows; empty files.
  expect_rows_as_whole(dir.write("long_line.txt", "0 1\n#" + std::string(5000, 'x') + "\n1 2\n2 0\n"));
  expect_rows_as_whole(dir.write("two.txt", "0 1\n"));
  expect_rows_as_whole(dir.write("empty.txt", ""));
  expect_rows_as_whole(dir.write("comments.txt", "# nothing\n% here\n\n"));
  // A vertex count the edges do not justify, refused, then trusted.
  const std::string big = dir.write("big_id.txt", "0 1\n1 20000000\n");
  expect_rows_as_whole(big);
  expect_rows_as_whole(big, {.trust_vertex_count = true});
}

std::string file_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

// The cases above gzip-compressed: every rank inflates the whole stream, keeping what its share
// is cut from; the rows and the errors are the one-process read's of the same .gz.
TEST(TextRows, GzipCompressed) {
  SharedDir dir;
  for (const char* f : {"karate.mtx", "west0067.mtx", "hep-th.mtx", "zenios.mtx", "A.mtx"}) {
    const std::string gz = dir.write_gz(f, file_bytes(source(std::string("datasets/small/") + f)));
    EXPECT_EQ(expect_rows_as_whole(gz), "");
  }
  expect_rows_as_whole(dir.write_gz("undirected.mtx", file_bytes(source("datasets/small/west0067.mtx"))), {},
                       /*undirected=*/true);
  std::vector<std::string> malformed;
  for (const auto& e : fs::directory_iterator(source("datasets/malformed"))) malformed.push_back(e.path().string());
  std::sort(malformed.begin(), malformed.end());
  for (const std::string& f : malformed)
    expect_rows_as_whole(dir.write_gz(fs::path(f).filename().string(), file_bytes(f)));
  for (const auto& [field, symmetry] : {std::pair{"real", "general"}, {"integer", "symmetric"}})
    for (const int n : {3, 700}) {
      const std::string name = std::string("g") + field + std::to_string(n) + ".mtx";
      expect_rows_as_whole(dir.write_gz(name, random_matrix_market(n, 3 * n, unsigned(n), field, symmetry)),
                           {.duplicates = Duplicates::Sum});
    }
  expect_rows_as_whole(dir.write_gz("header.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 0\n"));
  EXPECT_EQ(expect_rows_as_whole(dir.write_gz(
                "bom.mtx", "\xEF\xBB\xBF%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1")),
            "");
  EXPECT_EQ(expect_rows_as_whole(dir.write_gz("bom.txt", "\xEF\xBB\xBF" "0 1\n1 2\n2 0")), "");
  expect_rows_as_whole(dir.write_gz("long_line.txt", "0 1\n#" + std::string(5000, 'x') + "\n1 2\n2 0\n"));
  expect_rows_as_whole(dir.write_gz("empty.txt", ""));
  expect_rows_as_whole(dir.write_gz("comments.txt", "# nothing\n% here\n\n"));
  // A malformed line, named by its line in the whole text (line 1 is the header comment).
  for (const int at : {0, 150, 399}) {
    const std::string k = std::to_string(at), line = ":" + std::to_string(at + 2) + ": ";
    const std::string id = dir.write_gz("id" + k + ".txt", long_edge_list(400, at, "5 x", false));
    const std::string error = expect_rows_as_whole(id);
    EXPECT_NE(error.find(id + line), std::string::npos) << error;
    expect_rows_as_whole(dir.write_gz("weight" + k + ".txt", long_edge_list(400, at, "5 6 1.5", false)));
    expect_rows_as_whole(dir.write_gz("repeat" + k + ".txt", long_edge_list(400, at, "1\t2", false)));
  }
  // Several gzip members, the cut inside a line: one text.
  const std::string text = long_edge_list(400, -1, "", true);
  const std::size_t cut = text.size() / 3 + 2;
  const std::string members = dir.write(
      "members.txt.gz", file_bytes(dir.write_gz("one.txt", text.substr(0, cut))) +
                            file_bytes(dir.write_gz("two.txt", text.substr(cut))));
  EXPECT_EQ(expect_rows_as_whole(members), "");
  EXPECT_EQ(io::load_graph(members).matrix.col, io::load_graph(dir.write("members.txt", text)).matrix.col);
}

// A truncated or corrupt stream of several parse blocks: the break named at the one-process
// reader's line, unless a malformed line before it is the first error.
TEST(TextRows, GzipBroken) {
  SharedDir dir;
  const std::string text = random_matrix_market(60000, 700000, 11, "real", "general");
  const std::string large = dir.write_gz("large.mtx", text), gz = file_bytes(large);
  EXPECT_EQ(expect_rows_as_whole(large, {.duplicates = Duplicates::Sum}), "");
  const std::string truncated = dir.write("truncated.mtx.gz", gz.substr(0, gz.size() / 2));
  EXPECT_NE(expect_rows_as_whole(truncated, {.duplicates = Duplicates::Sum}).find("corrupt or truncated gzip data"),
            std::string::npos);
  // A wrong checksum is found at the end of the stream; damage in the middle may first inflate
  // to text that does not parse.
  std::string damaged = gz;
  damaged[damaged.size() - 8] = char(damaged[damaged.size() - 8] ^ 0x5a);
  const std::string checksum =
      expect_rows_as_whole(dir.write("checksum.mtx.gz", damaged), {.duplicates = Duplicates::Sum});
  EXPECT_NE(checksum.find("corrupt or truncated gzip data"), std::string::npos) << checksum;
  damaged = gz;
  for (std::size_t k = damaged.size() / 2; k < damaged.size() / 2 + 64; ++k) damaged[k] = char(damaged[k] ^ 0x5a);
  EXPECT_NE(expect_rows_as_whole(dir.write("corrupt.mtx.gz", damaged), {.duplicates = Duplicates::Sum}), "");
  std::string bad_line = text;
  bad_line.replace(bad_line.find('\n', bad_line.size() / 10) + 1, 1, "x");
  const std::string early = file_bytes(dir.write_gz("early.mtx", bad_line));
  const std::string both = dir.write("early_truncated.mtx.gz", early.substr(0, early.size() / 2));
  const std::string error = expect_rows_as_whole(both, {.duplicates = Duplicates::Sum});
  EXPECT_NE(error, "");
  EXPECT_EQ(error.find("gzip"), std::string::npos) << error;
}

// The entries of a whole graph that rank r keeps in 2D (matrix_owner), every other entry absent.
Csr<double> block_of_whole(const Csr<double>& a, GridShape shape, int r) {
  Coo<double> kept;
  kept.nrows = a.nrows;
  kept.ncols = a.ncols;
  for (vid_t i = 0; i < a.nrows; ++i)
    for (eid_t k = a.rowptr[std::size_t(i)]; k < a.rowptr[std::size_t(i) + 1]; ++k)
      if (matrix_owner(a.nrows, a.ncols, shape, i, a.col[std::size_t(k)]) == r) {
        kept.row.push_back(i);
        kept.col.push_back(a.col[std::size_t(k)]);
        if (!a.val.empty()) kept.val.push_back(a.val[std::size_t(k)]);
      }
  return coo_to_csr(std::move(kept));
}

// What the apps load under mpirun: each rank reads its piece of the rows (then mirrors them
// where `undirected`) and keep_entries sends every entry to its block's rank: each rank ends
// with its block of the whole read, bit for bit, and the whole graph's link count.
void expect_blocks_as_whole(const std::string& path, bool undirected = false) {
  SCOPED_TRACE(path);
  const Outcome whole = load_whole(path, {}, undirected);
  ASSERT_EQ(whole.error, "");
  MpiRankExchange exchange(world());
  for_each_grid([&](const ProcessGrid& grid) {
    const io::RowsOf rows_of = [&](std::int64_t n) {
      const BlockRange r = vector_piece(n, grid.shape(), grid.world().rank());
      return std::pair{r.begin, r.end};
    };
    io::LoadedGraph got = io::read_text_rows(path, {}, rows_of, exchange);
    if (undirected && !got.mirrored) io::mirror_rows(got, rows_of, exchange);
    const std::int64_t n = got.matrix.nrows;
    io::keep_entries(
        got, [&](std::int64_t i, std::int64_t j) { return matrix_owner(n, n, grid.shape(), i, j); }, exchange);
    const Csr<double> want = block_of_whole(whole.graph.matrix, grid.shape(), grid.world().rank());
    const Csr<double>& have = got.matrix;
    EXPECT_EQ(have.nrows, want.nrows);
    EXPECT_EQ(have.ncols, want.ncols);
    EXPECT_EQ(have.rowptr, want.rowptr);
    EXPECT_EQ(have.col, want.col);
    EXPECT_EQ(have.val, want.val);
    EXPECT_EQ(got.links(), whole.graph.matrix.nnz());
  });
}

TEST(TextRows, EntriesKeptByTheirBlocks) {
  for (const char* f : {"karate.mtx", "west0067.mtx", "hep-th.mtx", "zenios.mtx", "A.mtx"})
    expect_blocks_as_whole(source(std::string("datasets/small/") + f));
  expect_blocks_as_whole(source("datasets/small/west0067.mtx"), /*undirected=*/true);
}

TEST(TextRows, WholeReadsForWhatCannotBeShared) {
  // --compact-ids and .abc number vertices over the whole file; a pipe has no bytes to share out.
  // A file that cannot be opened is read_text_rows's error; a .gz is read by rows.
  EXPECT_EQ(io::text_rows_refusal(source("datasets/small/karate.mtx"), {}), "");
  EXPECT_EQ(io::text_rows_refusal(source("datasets/small/absent.mtx"), {}), "");
  EXPECT_NE(io::text_rows_refusal(source("datasets/small/karate.mtx"), {.format = io::GraphFormat::Abc}), "");
  EXPECT_NE(io::text_rows_refusal("graph.txt", {.compact_ids = true}), "");
  EXPECT_NE(io::text_rows_refusal("/dev/null", {}), "");
  SharedDir dir;
  const std::string gz = dir.write("g.txt.gz", std::string("\x1f\x8b\x08\x00", 4));
  EXPECT_EQ(io::text_rows_refusal(gz, {}), "");
  expect_rows_as_whole(source("datasets/small/absent.mtx"));  // the open error, on every rank
}

}  // namespace
}  // namespace spgraph::dist::test
