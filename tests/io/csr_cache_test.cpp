#include <cstring>
#include <fstream>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "io_test_util.hpp"
#include "spgraph/io/csr_cache.hpp"
#include "spgraph/io/generators.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "same_graph.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::parse_error_of;
using test::TempDir;

constexpr long kHeaderBytes = 80;
constexpr long kChecksumOffset = 64;
constexpr std::size_t kBlockBytes = 1 << 20;

void overwrite(const std::string& path, long offset, const void* bytes, std::size_t n) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(offset);
  f.write(static_cast<const char*>(bytes), static_cast<std::streamsize>(n));
}

// The checksum as the header comment specifies it, computed here independently of the reader:
// XXH3-64 of the header (checksum zero) followed by the XXH3-64 of each 1 MiB payload block.
std::uint64_t specified_checksum(std::string file) {
  std::memset(file.data() + kChecksumOffset, 0, 8);
  std::string stream = file.substr(0, kHeaderBytes);
  for (std::size_t at = kHeaderBytes; at < file.size(); at += kBlockBytes) {
    const std::uint64_t h = XXH3_64bits(file.data() + at, std::min(kBlockBytes, file.size() - at));
    stream.append(reinterpret_cast<const char*>(&h), sizeof h);
  }
  return XXH3_64bits(stream.data(), stream.size());
}

// Writes `value` at `offset` and a checksum matching the new contents: a file whose arrays are
// wrong but whose checksum is right, as a buggy writer would make.
template <class T>
void overwrite_resealed(const std::string& path, long offset, T value) {
  overwrite(path, offset, &value, sizeof value);
  const std::uint64_t sum = specified_checksum(test::read_file(path));
  overwrite(path, kChecksumOffset, &sum, sizeof sum);
}

long col_offset(const Csr<double>& a, eid_t entry) {
  return kHeaderBytes + static_cast<long>(a.rowptr.size() * sizeof(eid_t) + entry * sizeof(vid_t));
}

class CsrCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    west = read_matrix_market(test::dataset("small/west0067.mtx")).matrix;
    path = tmp.path("west.spgcsr");
    write_csr_cache(path, west);
  }
  TempDir tmp;
  Csr<double> west;
  std::string path;
};

TEST_F(CsrCacheTest, RoundTrip) {
  CsrCache c = read_csr_cache(path);
  test::expect_same_matrix(west, c.matrix);
  EXPECT_TRUE(c.labels.empty());
  EXPECT_EQ(c.id_base, 0);
}

// One rank's share (the distributed apps): the rows asked for, as the whole read has them, and
// every other row empty; labels and the file's entry count too.
TEST_F(CsrCacheTest, RowsAloneAreTheWholeReadsRows) {
  const CsrCache whole = read_csr_cache(path);
  for (auto [begin, end] : {std::pair<std::int64_t, std::int64_t>{0, 67}, {0, 0}, {10, 30}, {66, 67}, {67, 67}}) {
    SCOPED_TRACE(std::to_string(begin) + ".." + std::to_string(end));
    const CsrCacheRows rows = read_csr_cache_rows(path, [&](std::int64_t n) {
      EXPECT_EQ(n, 67);
      return std::pair{begin, end};
    });
    EXPECT_EQ(rows.links, whole.matrix.nnz());
    const Csr<double>& a = rows.cache.matrix;
    ASSERT_EQ(a.nrows, 67);
    ASSERT_EQ(a.rowptr.size(), 68u);
    for (vid_t i = 0; i < 67; ++i) {
      const bool mine = i >= begin && i < end;
      ASSERT_EQ(a.row_length(i), mine ? whole.matrix.row_length(i) : 0) << "row " << i;
      for (eid_t k = 0; mine && k < a.row_length(i); ++k) {
        EXPECT_EQ(a.col[std::size_t(a.rowptr[i] + k)], whole.matrix.col[std::size_t(whole.matrix.rowptr[i] + k)]);
        EXPECT_EQ(a.val[std::size_t(a.rowptr[i] + k)], whole.matrix.val[std::size_t(whole.matrix.rowptr[i] + k)]);
      }
    }
  }
  EXPECT_THROW(read_csr_cache_rows(path, [](std::int64_t n) { return std::pair<std::int64_t, std::int64_t>{0, n + 1}; }),
               Error);
}

TEST_F(CsrCacheTest, ChecksumIsTheSpecifiedOne) {
  const std::string bytes = test::read_file(path);
  std::uint64_t stored;
  std::memcpy(&stored, bytes.data() + kChecksumOffset, sizeof stored);
  EXPECT_EQ(stored, specified_checksum(bytes));
}

TEST_F(CsrCacheTest, PatternLabelsAndIdBase) {
  auto karate = read_matrix_market(test::dataset("small/karate.mtx")).matrix;
  std::vector<std::string> labels;
  for (int i = 0; i < karate.nrows; ++i) labels.push_back(i % 5 ? "member " + std::to_string(i) : "");
  const auto p = tmp.path("k.spgcsr");
  write_csr_cache(p, karate, labels, 1);
  CsrCache c = read_csr_cache(p);
  EXPECT_TRUE(c.matrix.is_pattern());
  test::expect_same_matrix(karate, c.matrix);
  EXPECT_EQ(c.labels, labels);
  EXPECT_EQ(c.id_base, 1);
}

TEST_F(CsrCacheTest, EmptyGraph) {
  const auto p = tmp.path("e.spgcsr");
  write_csr_cache(p, Csr<double>{});
  CsrCache c = read_csr_cache(p);
  EXPECT_EQ(c.matrix.nrows, 0);
  EXPECT_EQ(c.matrix.ncols, 0);
  EXPECT_EQ(c.matrix.rowptr, std::vector<eid_t>{0});
  EXPECT_TRUE(c.matrix.col.empty());
  EXPECT_EQ(test::read_file(p).size(), 88u);  // the header and rowptr[0]
}

TEST_F(CsrCacheTest, NoRowsOrNoEntries) {
  Csr<double> wide;  // 0 x 7
  wide.ncols = 7;
  const auto p = tmp.path("w.spgcsr");
  write_csr_cache(p, wide);
  test::expect_same_matrix(wide, read_csr_cache(p).matrix);

  Csr<double> isolated;  // 5 vertices, no edges, labelled
  isolated.nrows = isolated.ncols = 5;
  isolated.rowptr.assign(6, 0);
  const std::vector<std::string> names = {"a", "", "ccc", "d", "e"};
  write_csr_cache(p, isolated, names);
  const CsrCache c = read_csr_cache(p);
  test::expect_same_matrix(isolated, c.matrix);
  EXPECT_EQ(c.labels, names);
}

// Every single-byte change is refused: in the payload and in the header fields that do not
// change sizes, by the checksum; elsewhere in the header by the check that reads that field.
TEST_F(CsrCacheTest, EveryFlippedByteIsRefused) {
  const std::string bytes = test::read_file(path);
  const std::string checksum_error =
      path + ": checksum mismatch: the file is corrupt (re-create the cache from the original graph)";
  // Header bytes 40..47 (id base, reserved) and 64..79 (checksum, reserved) change no size.
  auto checksum_only = [](std::size_t at) { return at >= 64 || (at >= 40 && at < 48); };
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    const char flipped = static_cast<char>(bytes[at] ^ 0x10);
    overwrite(path, static_cast<long>(at), &flipped, 1);
    const std::string error = parse_error_of([&] { read_csr_cache(path); });
    if (checksum_only(at))
      EXPECT_EQ(error, checksum_error) << "byte " << at;
    else
      EXPECT_FALSE(error.empty()) << "byte " << at;
    overwrite(path, static_cast<long>(at), &bytes[at], 1);
  }
}

TEST_F(CsrCacheTest, Version1IsRefusedWithHowToRecreate) {
  const std::uint32_t version = 1;
  overwrite(path, 8, &version, sizeof version);
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(path); }),
            path + ": cache version 1, but this build reads version 2: re-create it from the original graph "
                   "(spgraph-convert GRAPH " +
                path + ")");
}

TEST_F(CsrCacheTest, BadMagicIsRefused) {
  overwrite(path, 0, "SPGCSX", 6);
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(path); }), path + ": not an spgraph CSR cache (bad magic number)");
  const auto text = tmp.write("text.spgcsr", "%%MatrixMarket matrix coordinate pattern general\n");
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(text); }), text + ": not an spgraph CSR cache (bad magic number)");
  const auto empty = tmp.write("empty.spgcsr", "");
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(empty); }), empty + ": not an spgraph CSR cache (bad magic number)");
}

TEST_F(CsrCacheTest, TruncatedFileIsRefused) {
  const std::string bytes = test::read_file(path);
  for (std::size_t keep : {bytes.size() - 1, bytes.size() / 2, std::size_t{81}, std::size_t{80}}) {
    const auto cut = tmp.write("cut.spgcsr", bytes.substr(0, keep));
    EXPECT_EQ(parse_error_of([&] { read_csr_cache(cut); }),
              cut + ": truncated: the header describes " + std::to_string(bytes.size()) + " bytes, the file has " +
                  std::to_string(keep));
  }
  const auto head = tmp.write("head.spgcsr", bytes.substr(0, 40));
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(head); }),
            head + ": truncated: 40 bytes, shorter than the 80-byte header");
  const auto longer = tmp.write("long.spgcsr", bytes + "x");
  EXPECT_NE(parse_error_of([&] { read_csr_cache(longer); }).find("1 more than its header describes"),
            std::string::npos);
}

TEST_F(CsrCacheTest, ImpossibleSizesAreRefusedWithoutAllocating) {
  const std::int64_t nnz = std::int64_t{1} << 60;
  overwrite(path, 32, &nnz, sizeof nnz);
  EXPECT_NE(parse_error_of([&] { read_csr_cache(path); }).find(": truncated: the header describes"), std::string::npos);
}

// Arrays that a checksum cannot catch (the writer's bug, not the disk's) are refused by the
// CSR checks with Csr::validate's message.
TEST_F(CsrCacheTest, InconsistentArraysAreRefused) {
  const std::string good = test::read_file(path);
  const std::string prefix = path + ": invalid CSR structure despite a valid checksum: Csr::validate: ";
  auto refusal = [&](long offset, auto value) {
    tmp.write("west.spgcsr", good);
    overwrite_resealed(path, offset, value);
    return parse_error_of([&] { read_csr_cache(path); });
  };
  EXPECT_EQ(refusal(kHeaderBytes + 3 * 8, eid_t{1}),
            prefix + "row 2: row offsets decrease (rowptr[2] = " + std::to_string(west.rowptr[2]) + ", rowptr[3] = 1)");
  EXPECT_EQ(refusal(kHeaderBytes, eid_t{1}), prefix + "rowptr[0] is 1, expected 0");
  EXPECT_EQ(refusal(kHeaderBytes + 67 * 8, eid_t{293}), prefix + "rowptr ends at 293 but there are 294 column indices");
  const eid_t p = west.rowptr[10];
  EXPECT_EQ(refusal(col_offset(west, p), vid_t{67}),
            prefix + "row 10, entry " + std::to_string(p) + ": column 67 out of range [0, 67)");
  EXPECT_EQ(refusal(col_offset(west, p), vid_t{-1}),
            prefix + "row 10, entry " + std::to_string(p) + ": column -1 out of range [0, 67)");
  EXPECT_EQ(refusal(col_offset(west, p + 1), west.col[p]),
            prefix + "row 10, entry " + std::to_string(p + 1) + ": duplicate column " + std::to_string(west.col[p]));
}

TEST_F(CsrCacheTest, StructureIsCheckedWithoutTheChecksumToo) {
  const eid_t p = west.rowptr[10];
  const vid_t bad = 1000;
  overwrite(path, col_offset(west, p), &bad, sizeof bad);
  CsrCacheReadOptions no_checksum;
  no_checksum.verify_checksum = false;
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(path, no_checksum); }),
            path + ": invalid CSR structure: Csr::validate: row 10, entry " + std::to_string(p) +
                ": column 1000 out of range [0, 67)");
}

TEST_F(CsrCacheTest, WriterRefusesAnInvalidMatrix) {
  auto error_of = [&](const Csr<double>& a) {
    try {
      write_csr_cache(tmp.path("bad.spgcsr"), a);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  Csr<double> unsorted = west;
  std::swap(unsorted.col[unsorted.rowptr[10]], unsorted.col[unsorted.rowptr[10] + 1]);
  EXPECT_NE(error_of(unsorted).find("Csr::validate: row 10, entry"), std::string::npos);
  Csr<double> short_offsets = west;
  short_offsets.rowptr.pop_back();
  EXPECT_EQ(error_of(short_offsets), "Csr::validate: rowptr has 67 entries, expected nrows + 1 = 68");
  EXPECT_FALSE(std::filesystem::exists(tmp.path("bad.spgcsr")));
}

TEST_F(CsrCacheTest, CorruptLabelTableIsRefused) {
  auto karate = read_matrix_market(test::dataset("small/karate.mtx")).matrix;
  const std::vector<std::string> labels(karate.nrows, "v");
  write_csr_cache(path, karate, labels);
  const long ends = kHeaderBytes + static_cast<long>(karate.rowptr.size() * 8 + karate.col.size() * 4);
  overwrite_resealed(path, ends + 5 * 8, std::uint64_t{2});  // label 5 would end before it starts
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(path); }), path + ": corrupt label table");
}

// A graph over several checksum blocks (1 MiB) and many CSR check blocks, valued and labelled.
class LargeCacheTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    PowerLawParams p = scaled(wb_edu_like(), 40);
    p.random_values = true;
    graph = new Csr<double>(power_law_graph(p, 2));
    ASSERT_GT(graph->nnz(), eid_t{1} << 20);
  }
  static void TearDownTestSuite() { delete graph; }
  static Csr<double>* graph;
  TempDir tmp;
};
Csr<double>* LargeCacheTest::graph = nullptr;

TEST_F(LargeCacheTest, ThreadCountDoesNotChangeTheResult) {
  std::vector<std::string> labels(graph->nrows);
  for (vid_t i = 0; i < graph->nrows; ++i) labels[i] = "page-" + std::to_string(i * 7);
  const auto path = tmp.path("big.spgcsr");
  write_csr_cache(path, *graph, labels, 1);
  for (int threads : {1, 2, 3, 8}) {
    CsrCacheReadOptions o;
    o.threads = threads;
    CsrCacheReadPhases phases;
    o.phases = &phases;
    const CsrCache c = read_csr_cache(path, o);
    test::expect_same_matrix(*graph, c.matrix);
    EXPECT_EQ(c.labels, labels);
    EXPECT_EQ(c.id_base, 1);
    EXPECT_GT(phases.read, 0);
  }
}

TEST_F(LargeCacheTest, FlipsAndBadColumnsAcrossBlockBoundariesAreRefused) {
  const auto path = tmp.path("big.spgcsr");
  write_csr_cache(path, *graph);
  const std::string good = test::read_file(path);
  CsrCacheReadOptions four;
  four.threads = 4;
  for (std::size_t at : {kBlockBytes + 79, 3 * kBlockBytes + 80, good.size() - 1}) {
    tmp.write("big.spgcsr", good);
    const char flipped = static_cast<char>(good[at] ^ 1);
    overwrite(path, static_cast<long>(at), &flipped, 1);
    EXPECT_EQ(parse_error_of([&] { read_csr_cache(path, four); }),
              path + ": checksum mismatch: the file is corrupt (re-create the cache from the original graph)")
        << "byte " << at;
  }
  // Entry 2^20 starts a check block (a multiple of their size) and repeats the entry before it,
  // inside one row.
  const eid_t p = eid_t{1} << 20;
  vid_t row = 0;
  while (graph->rowptr[row + 1] <= p) ++row;
  ASSERT_LT(graph->rowptr[row], p) << "pick an entry that does not start its row";
  tmp.write("big.spgcsr", good);
  overwrite_resealed(path, col_offset(*graph, p), graph->col[p - 1]);
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(path, four); }),
            path + ": invalid CSR structure despite a valid checksum: Csr::validate: row " + std::to_string(row) +
                ", entry " + std::to_string(p) + ": duplicate column " + std::to_string(graph->col[p - 1]));
}

}  // namespace
}  // namespace spgraph::io
