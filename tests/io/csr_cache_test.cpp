#include <cstring>
#include <fstream>

#include "io_test_util.hpp"
#include "spgraph/io/csr_cache.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::parse_error_of;
using test::TempDir;

// Published xxHash64 test vectors (seed 0): the checksum is that function.
TEST(Checksum, MatchesXxHash64) {
  EXPECT_EQ(checksum64("", 0), 0xEF46DB3751D8E999ULL);
  EXPECT_EQ(checksum64("a", 1), 0xD24EC4F1A98C6E5BULL);
  EXPECT_EQ(checksum64("abc", 3), 0x44BC2CF5AD770999ULL);
  const char* fox = "The quick brown fox jumps over the lazy dog";  // 43 bytes: lanes, words, bytes
  EXPECT_EQ(checksum64(fox, std::strlen(fox)), 0x0B242D361FDA71BCULL);
}

void overwrite(const std::string& path, long offset, const void* bytes, std::size_t n) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(offset);
  f.write(static_cast<const char*>(bytes), static_cast<std::streamsize>(n));
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
  EXPECT_EQ(c.matrix.nrows, 67);
  EXPECT_EQ(c.matrix.ncols, 67);
  EXPECT_EQ(c.matrix.rowptr, west.rowptr);
  EXPECT_EQ(c.matrix.col, west.col);
  EXPECT_EQ(c.matrix.val, west.val);
  EXPECT_TRUE(c.labels.empty());
  EXPECT_EQ(c.id_base, 0);
}

TEST_F(CsrCacheTest, PatternLabelsAndIdBase) {
  auto karate = read_matrix_market(test::dataset("small/karate.mtx")).matrix;
  std::vector<std::string> labels;
  for (int i = 0; i < karate.nrows; ++i) labels.push_back(i % 5 ? "member " + std::to_string(i) : "");
  const auto p = tmp.path("k.spgcsr");
  write_csr_cache(p, karate, labels, 1);
  CsrCache c = read_csr_cache(p);
  EXPECT_TRUE(c.matrix.is_pattern());
  EXPECT_EQ(c.matrix.rowptr, karate.rowptr);
  EXPECT_EQ(c.matrix.col, karate.col);
  EXPECT_EQ(c.labels, labels);
  EXPECT_EQ(c.id_base, 1);
}

TEST_F(CsrCacheTest, EmptyGraph) {
  const auto p = tmp.path("e.spgcsr");
  write_csr_cache(p, Csr<double>{});
  CsrCache c = read_csr_cache(p);
  EXPECT_EQ(c.matrix.nrows, 0);
  EXPECT_EQ(c.matrix.rowptr, std::vector<eid_t>{0});
}

TEST_F(CsrCacheTest, CorruptByteIsAChecksumError) {
  const std::string before = test::read_file(path);
  const char flipped = static_cast<char>(before[before.size() / 2] ^ 0x10);
  overwrite(path, static_cast<long>(before.size() / 2), &flipped, 1);
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(path); }),
            path + ": checksum mismatch: the file is corrupt (re-create the cache from the original graph)");
}

TEST_F(CsrCacheTest, OtherVersionIsRefused) {
  const std::uint32_t version = kCsrCacheVersion + 1;
  overwrite(path, 8, &version, sizeof version);
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(path); }),
            path + ": cache version 2, but this build reads version 1 (re-create the cache from the original graph)");
}

TEST_F(CsrCacheTest, BadMagicIsRefused) {
  overwrite(path, 0, "SPGCSX", 6);
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(path); }), path + ": not an spgraph CSR cache (bad magic number)");
  const auto text = tmp.write("text.spgcsr", "%%MatrixMarket matrix coordinate pattern general\n");
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(text); }), text + ": not an spgraph CSR cache (bad magic number)");
}

TEST_F(CsrCacheTest, TruncatedFileIsRefused) {
  const std::string bytes = test::read_file(path);
  const auto cut = tmp.write("cut.spgcsr", bytes.substr(0, bytes.size() - 1));
  EXPECT_EQ(parse_error_of([&] { read_csr_cache(cut); }),
            cut + ": truncated: the header describes " + std::to_string(bytes.size()) + " bytes, the file has " +
                std::to_string(bytes.size() - 1));
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

}  // namespace
}  // namespace spgraph::io
