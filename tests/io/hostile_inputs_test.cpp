// Hostile inputs refused cheaply (issue 32, section 5): a vertex count the entries do not
// justify is refused before allocating, quoted input text is cut to a readable prefix, a
// UTF-8 byte order mark is skipped, a broken gzip stream is reported at the line it breaks, and
// a compressed file's size line is held to what the file could inflate to.
#include <algorithm>
#include <string>

#include "io_test_util.hpp"
#include "spgraph/io/abc.hpp"
#include "spgraph/io/edge_list.hpp"
#include "spgraph/io/load_graph.hpp"
#include "spgraph/io/matrix_market.hpp"

namespace spgraph::io {
namespace {

using test::parse_error_of;
using test::TempDir;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The line number in "PATH:LINE: reason" (0 when there is none).
long long line_of(const std::string& msg, const std::string& path) {
  if (!msg.starts_with(path + ":")) return 0;
  return std::atoll(msg.c_str() + path.size() + 1);
}

// ---- 1. vertex counts: refused when n > 64 * (entries + 1) + 2^20 -------------------------

constexpr long long kLimitForOneEntry = 64 * 2 + (1 << 20);  // 1048704

TEST(HostileVertexCount, EdgeListWithAHugeIdIsRefusedNamingTheWayOut) {
  TempDir tmp;
  const auto path = tmp.write("huge.txt", "0 2147483646\n");  // would be 16 GiB of row offsets
  const std::string msg = parse_error_of([&] { read_edge_list(path); });
  EXPECT_TRUE(msg.starts_with(path + ": the largest vertex id, 2147483646, makes 2147483647 vertices for 1 entry"))
      << msg;
  EXPECT_TRUE(has(msg, "16384 MiB of row offsets")) << msg;
  EXPECT_TRUE(has(msg, "--compact-ids")) << msg;
  EXPECT_TRUE(has(msg, "--trust-vertex-count")) << msg;
  // load_graph refuses it too, and --compact-ids loads it as two vertices.
  EXPECT_TRUE(has(parse_error_of([&] { load_graph(path); }), "--compact-ids"));
  const auto compact = load_graph(path, {.compact_ids = true});
  EXPECT_EQ(compact.matrix.nrows, 2);
  EXPECT_EQ(compact.labels, (std::vector<std::string>{"0", "2147483646"}));
}

TEST(HostileVertexCount, EdgeListBoundaryAndOptIn) {
  TempDir tmp;
  const auto at_limit = tmp.write("at.txt", "0 " + std::to_string(kLimitForOneEntry - 1) + "\n");
  EXPECT_EQ(read_edge_list(at_limit).matrix.nrows, kLimitForOneEntry);
  const auto above = tmp.write("above.txt", "0 " + std::to_string(kLimitForOneEntry) + "\n");
  EXPECT_TRUE(has(parse_error_of([&] { read_edge_list(above); }), "vertices for 1 entry"));
  EXPECT_EQ(read_edge_list(above, {.trust_vertex_count = true}).matrix.nrows, kLimitForOneEntry + 1);
  EXPECT_EQ(load_graph(above, {.trust_vertex_count = true}).matrix.nrows, kLimitForOneEntry + 1);
  // More entries justify more vertices: 64 per entry.
  std::string text;
  for (int k = 0; k < 1000; ++k) text += std::to_string(k) + " " + std::to_string(k + 1) + "\n";
  text += "0 " + std::to_string(64 * 1002 + (1 << 20) - 1) + "\n";  // 1001 entries
  EXPECT_EQ(read_edge_list(tmp.write("many.txt", text)).matrix.nrows, 64 * 1002 + (1 << 20));
  // An empty list is no graph at all, not a refusal.
  EXPECT_EQ(read_edge_list(tmp.write("empty.txt", "# nothing\n")).matrix.nrows, 0);
}

TEST(HostileVertexCount, MatrixMarketSizeLineIsRefusedAtItsLine) {
  TempDir tmp;
  const std::string body = "%%MatrixMarket matrix coordinate pattern general\n% c\n268435456 268435456 1\n1 1\n";
  for (const std::string name : {"big.mtx", "big.mtx.gz"}) {
    SCOPED_TRACE(name);
    const auto path = tmp.write(name, body);
    const std::string msg = parse_error_of([&] { read_matrix_market(path); });
    EXPECT_TRUE(msg.starts_with(path + ":3: the size line declares 268435456 x 268435456, that is 268435456 "
                                       "vertices for 1 entry"))
        << msg;
    EXPECT_TRUE(has(msg, "2048 MiB of row offsets")) << msg;
    EXPECT_TRUE(has(msg, "--trust-vertex-count")) << msg;
    EXPECT_TRUE(has(parse_error_of([&] { load_graph(path); }), "--trust-vertex-count"));
  }
  // Columns count as well as rows.
  const auto wide = tmp.write("wide.mtx", "%%MatrixMarket matrix coordinate real general\n2 3000000 1\n1 1 1\n");
  EXPECT_TRUE(has(parse_error_of([&] { read_matrix_market(wide); }), "3000000 vertices for 1 entry"));
  EXPECT_EQ(read_matrix_market(wide, {.trust_vertex_count = true}).matrix.ncols, 3000000);
  EXPECT_EQ(load_graph(wide, {.trust_vertex_count = true}).matrix.ncols, 3000000);
  // At the limit it loads unasked.
  const auto at_limit = tmp.write("at.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n" +
                                                std::to_string(kLimitForOneEntry) + " " +
                                                std::to_string(kLimitForOneEntry) + " 1\n2 1\n");
  EXPECT_EQ(read_matrix_market(at_limit).matrix.nrows, kLimitForOneEntry);
}

// ---- 2. quoted input text is cut to a readable prefix --------------------------------------

TEST(HostileText, LongFieldsAreCutInEveryReader) {
  TempDir tmp;
  const std::string junk(1'000'000, 'x');
  const std::string mm = "%%MatrixMarket matrix coordinate real general\n";
  struct Case {
    std::string name, text, reason;
  } cases[] = {
      {"w.txt", "0 1 " + junk + "\n", "weight '"},
      {"after.txt", "0 1 2 " + junk + "\n", "unexpected text after the weight: '"},
      {"id.txt", "0 " + junk + "\n", "expected a non-negative integer destination vertex id, found '"},
      {"one.abc", junk + "\n", "found only '"},
      {"more.abc", "a b 1 " + junk + "\n", "found more fields: '"},
      {"entry.mtx", mm + "2 2 1\n1 1 1 " + junk + "\n", "unexpected text after the entry: '"},
      {"value.mtx", mm + "2 2 1\n1 1 " + junk + "\n", "value '"},
      {"size.mtx", mm + junk + "\n", "the size line must be '<rows> <columns> <entries>'; found '"},
      {"banner.mtx", "%%MatrixMarket matrix coordinate real general " + junk + "\n2 2 0\n",
       "unexpected text after the banner: '"},
      {"field.mtx", "%%MatrixMarket matrix coordinate " + junk + " general\n2 2 0\n", "unknown field '"},
      {"type.mtx", "%%MatrixMarket matrix coordinate real general\n%%GraphBLAS type " + junk + "\n2 2 0\n",
       "unknown GraphBLAS type '"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto path = tmp.write(c.name, c.text);
    const std::string msg = parse_error_of([&] { load_graph(path); });
    EXPECT_TRUE(has(msg, c.reason + std::string(80, 'x') + "...' (1000000 bytes)")) << msg.substr(0, 400);
    EXPECT_LT(msg.size(), path.size() + 400) << msg.substr(0, 400);
  }
}

TEST(HostileText, ShortTextIsQuotedWholeAndCutsKeepUtf8Whole) {
  TempDir tmp;
  const std::string eighty(80, 'y');
  EXPECT_TRUE(has(parse_error_of([&] { load_graph(tmp.write("a.abc", eighty + "\n")); }),
                  "found only '" + eighty + "'"));
  // 79 ASCII bytes then a two-byte character straddling the cut: the cut backs off before it.
  const std::string label = std::string(79, 'z') + "\xC3\xA9" + std::string(20, 'z');
  const std::string msg = parse_error_of([&] { load_graph(tmp.write("b.abc", label + "\n")); });
  EXPECT_TRUE(has(msg, "found only '" + std::string(79, 'z') + "...' (101 bytes)")) << msg;
  // Duplicate labels are quoted the same way.
  const std::string long_label(500, 'q');
  const auto dup = tmp.write("d.abc", long_label + " b\n" + long_label + " b\n");
  const std::string dmsg = parse_error_of([&] { read_abc(dup, {.duplicates = Duplicates::Error}); });
  EXPECT_TRUE(has(dmsg, "duplicate edge '" + std::string(80, 'q') + "...' (500 bytes) -> 'b'")) << dmsg;
}

// ---- 3. a UTF-8 byte order mark is skipped ---------------------------------------------------

const std::string kBom = "\xEF\xBB\xBF";

TEST(HostileBom, SkippedInEveryTextFormatPlainAndCompressed) {
  TempDir tmp;
  for (const std::string gz : {"", ".gz"}) {
    SCOPED_TRACE(gz);
    const auto e = read_edge_list(tmp.write("g.txt" + gz, kBom + "0 2\n2 1\n"));
    EXPECT_EQ(e.matrix.nrows, 3);
    EXPECT_EQ(e.matrix.nnz(), 2);
    const auto c = load_graph(tmp.write("c.txt" + gz, kBom + "5 7\n"), {.compact_ids = true});
    EXPECT_EQ(c.labels, (std::vector<std::string>{"5", "7"}));
    const auto a = read_abc(tmp.write("g.abc" + gz, kBom + "alpha beta 2\nbeta alpha 3\n"));
    EXPECT_EQ(a.labels, (std::vector<std::string>{"alpha", "beta"}));
    const auto m = read_matrix_market(
        tmp.write("g.mtx" + gz, kBom + "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 0.5\n"));
    EXPECT_EQ(m.matrix.nnz(), 1);
    EXPECT_EQ(read_matrix_market_header(tmp.write("h.mtx" + gz, kBom + "%%MatrixMarket matrix coordinate "
                                                                        "pattern general\n3 3 0\n"))
                  .nrows,
              3);
    // A file of nothing but the mark is an empty file.
    EXPECT_EQ(read_edge_list(tmp.write("bom.txt" + gz, kBom)).matrix.nrows, 0);
  }
}

TEST(HostileBom, OnlyAtTheStart) {
  TempDir tmp;
  const auto path = tmp.write("mid.txt", "0 1\n" + kBom + "1 2\n");
  const std::string msg = parse_error_of([&] { read_edge_list(path); });
  EXPECT_TRUE(msg.starts_with(path + ":2: ")) << msg;
}

// ---- 4. gzip errors name the line the stream breaks at ------------------------------------

// An edge list of `lines` lines "k k+1", gzip-compressed, as bytes.
std::string compressed_edges(const TempDir& tmp, int lines) {
  std::string text;
  for (int k = 0; k < lines; ++k) text += std::to_string(k) + " " + std::to_string(k + 1) + "\n";
  return test::read_file(tmp.write("whole.txt.gz", text));
}

// The line a truncated gzip stream breaks in: the complete lines zlib can inflate, plus one.
long long line_where_inflate_stops(const std::string& gz) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = static_cast<uInt>(gz.size());
  std::string out(1 << 16, '\0');
  long long newlines = 0;
  int rc = Z_OK;
  do {
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    rc = inflate(&z, Z_NO_FLUSH);
    newlines += std::count(out.data(), out.data() + (out.size() - z.avail_out), '\n');
  } while (rc == Z_OK && z.avail_out == 0);
  inflateEnd(&z);
  return newlines + 1;
}

TEST(HostileGzip, TruncatedStreamIsReportedAtTheLineItEndsIn) {
  TempDir tmp;
  const int lines = 600'000;  // about 8 MB of text, several buffers
  const std::string bytes = compressed_edges(tmp, lines);
  const std::string kept = bytes.substr(0, bytes.size() * 3 / 4);
  const auto cut = tmp.write("cut.txt", kept);
  const std::string msg = parse_error_of([&] { read_edge_list(cut); });
  EXPECT_TRUE(has(msg, ": corrupt or truncated gzip data: ")) << msg;
  const long long line = line_of(msg, cut);
  EXPECT_GT(line, lines / 2) << msg;  // about three quarters in
  EXPECT_EQ(line, line_where_inflate_stops(kept)) << msg;
}

TEST(HostileGzip, BadChecksumIsReportedNearTheEnd) {
  TempDir tmp;
  const int lines = 600'000;
  std::string bytes = compressed_edges(tmp, lines);
  bytes[bytes.size() - 8] ^= 0x55;  // the trailer's CRC-32: every block inflates, the check fails
  const auto bad = tmp.write("crc.txt", bytes);
  const std::string msg = parse_error_of([&] { read_edge_list(bad); });
  EXPECT_TRUE(has(msg, ": corrupt or truncated gzip data: ")) << msg;
  EXPECT_GT(line_of(msg, bad), 1) << msg;  // lines decompressed before the failing block were read
}

TEST(HostileGzip, SmallBrokenStreamStillNamesALine) {
  TempDir tmp;
  std::string text = "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n";
  for (int k = 0; k < 2000; ++k) text += "% padding so the compressed stream is long enough to cut\n";
  const std::string bytes = test::read_file(tmp.write("c.mtx.gz", text));
  const auto cut = tmp.write("cut.mtx", bytes.substr(0, bytes.size() / 2));
  const std::string msg = parse_error_of([&] { read_matrix_market(cut); });
  EXPECT_TRUE(has(msg, "gzip")) << msg;
  EXPECT_GT(line_of(msg, cut), 3) << msg;  // past the entry, in the comments
}

// ---- compressed input: the size line against what the file can hold ------------------------

// "1 1" lines compress about 1000:1: a few KB of .gz that inflate to megabytes.
std::string one_one_lines(long long declared, int lines) {
  std::string text = "%%MatrixMarket matrix coordinate pattern general\n1 1 " + std::to_string(declared) + "\n";
  text.reserve(text.size() + 4 * static_cast<std::size_t>(lines));
  for (int k = 0; k < lines; ++k) text += "1 1\n";
  return text;
}

// 10^12 entries cannot be in a few KB of gzip (at most 1032 bytes of text a byte): refused
// at the size line before any entry is read or allocated.
TEST(HostileGzip, DeclaredCountNoGzipOfThatSizeCouldHoldIsRefusedAtTheSizeLine) {
  TempDir tmp;
  const auto path = tmp.write("big.mtx.gz", one_one_lines(1'000'000'000'000, 1'000'000));
  const std::string msg = parse_error_of([&] { read_matrix_market(path); });
  EXPECT_EQ(line_of(msg, path), 2) << msg;
  EXPECT_TRUE(has(msg, "the size line declares 1000000000000 entries, but a gzip file of ")) << msg;
  EXPECT_TRUE(has(msg, "(at most 1032 times that as text) can hold at most ")) << msg;
}

// A count the file could hold passes that check, however well it compresses: here the text is
// read, and its repeats are the error.
TEST(HostileGzip, HighlyCompressedButPossibleCountIsRead) {
  TempDir tmp;
  const auto path = tmp.write("dup.mtx.gz", one_one_lines(1'000'000, 1'000'000));
  const std::string msg = parse_error_of([&] { read_matrix_market(path); });
  EXPECT_TRUE(has(msg, path + ":4: duplicate entry (1, 1)")) << msg;
}

// More entries than declared stop the read at the first one too many, not at the end.
TEST(HostileGzip, MoreEntriesThanDeclaredStopAtTheFirstExtraLine) {
  TempDir tmp;
  const auto path = tmp.write("over.mtx.gz", one_one_lines(10, 2'000'000));
  EXPECT_EQ(parse_error_of([&] { read_matrix_market(path); }),
            path + ":13: more entries than the 10 the size line declares");
}

}  // namespace
}  // namespace spgraph::io
