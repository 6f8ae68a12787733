// Matrix Market reading: fields, symmetries, gzip, comments, empty graphs, the GraphBLAS type
// line, duplicates, and the real files in datasets/small (entry counts after symmetric
// expansion computed independently with a few lines of Python over the files).
#include <chrono>
#include <cmath>
#include <limits>

#include "io_test_util.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::dense;
using test::parse_error_of;
using test::TempDir;

TEST(MatrixMarket, RealGeneral) {
  TempDir tmp;
  auto m = read_matrix_market(tmp.write("a.mtx",
                                        "%%MatrixMarket matrix coordinate real general\n"
                                        "% a comment\n"
                                        "2 3 3\n"
                                        "1 3 2.5\n"
                                        "2 1 -1e-3\n"
                                        "1 1 +4\n"));
  EXPECT_EQ(m.header.field, MmField::Real);
  EXPECT_EQ(m.header.symmetry, MmSymmetry::General);
  EXPECT_EQ(m.header.declared_type, MmDeclaredType::None);
  EXPECT_EQ(m.header.stored_entries, 3);
  m.matrix.validate();
  EXPECT_EQ(dense(m.matrix), (std::vector<std::vector<double>>{{4, 0, 2.5}, {-1e-3, 0, 0}}));
}

TEST(MatrixMarket, IntegerAndPatternFields) {
  TempDir tmp;
  auto i = read_matrix_market(tmp.write("i.mtx",
                                        "%%MatrixMarket matrix coordinate integer general\n"
                                        "2 2 2\n1 2 -7\n2 2 9000000000\n"));
  EXPECT_EQ(i.header.field, MmField::Integer);
  EXPECT_EQ(dense(i.matrix), (std::vector<std::vector<double>>{{0, -7}, {0, 9e9}}));

  auto p = read_matrix_market(tmp.write("p.mtx",
                                        "%%MatrixMarket matrix coordinate pattern general\n"
                                        "3 2 2\n3 1\n1 2\n"));
  EXPECT_EQ(p.header.field, MmField::Pattern);
  EXPECT_TRUE(p.matrix.is_pattern());
  EXPECT_EQ(p.matrix.rowptr, (std::vector<eid_t>{0, 1, 1, 2}));
  EXPECT_EQ(p.matrix.col, (std::vector<vid_t>{1, 0}));
}

TEST(MatrixMarket, IntegerFieldRejectsFractions) {
  TempDir tmp;
  const auto path = tmp.write("f.mtx", "%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 2.5\n");
  EXPECT_NE(parse_error_of([&] { read_matrix_market(path); }).find("f.mtx:3: value '2.5' is not an integer"),
            std::string::npos);
}

TEST(MatrixMarket, SymmetricIsExpanded) {
  TempDir tmp;
  auto m = read_matrix_market(tmp.write("s.mtx",
                                        "%%MatrixMarket matrix coordinate real symmetric\n"
                                        "3 3 3\n1 1 5\n3 1 2\n3 2 -1\n"));
  EXPECT_EQ(m.header.stored_entries, 3);
  EXPECT_EQ(m.matrix.nnz(), 5);
  EXPECT_EQ(dense(m.matrix), (std::vector<std::vector<double>>{{5, 0, 2}, {0, 0, -1}, {2, -1, 0}}));
}

TEST(MatrixMarket, SkewSymmetricMirrorIsNegated) {
  TempDir tmp;
  auto m = read_matrix_market(tmp.write("k.mtx",
                                        "%%MatrixMarket matrix coordinate real skew-symmetric\n"
                                        "3 3 2\n2 1 1.5\n3 2 -2\n"));
  EXPECT_EQ(m.header.symmetry, MmSymmetry::SkewSymmetric);
  EXPECT_EQ(dense(m.matrix), (std::vector<std::vector<double>>{{0, -1.5, 0}, {1.5, 0, 2}, {0, -2, 0}}));
}

TEST(MatrixMarket, SkewSymmetricDiagonalIsAnError) {
  TempDir tmp;
  const auto path = tmp.write("k.mtx", "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 2\n2 1 3\n2 2 1\n");
  const std::string msg = parse_error_of([&] { read_matrix_market(path); });
  EXPECT_NE(msg.find("k.mtx:4: diagonal entry (2, 2) in a skew-symmetric matrix"), std::string::npos) << msg;
}

TEST(MatrixMarket, SkewSymmetricMirrorMustFitTheDeclaredType) {
  TempDir tmp;
  const auto path = tmp.write("k.mtx",
                              "%%MatrixMarket matrix coordinate integer skew-symmetric\n%%GraphBLAS type int8_t\n"
                              "2 2 1\n2 1 -128\n");
  EXPECT_NE(parse_error_of([&] { read_matrix_market(path); }).find(":4: value '-128' is out of range for int8_t"),
            std::string::npos);
}

TEST(MatrixMarket, GzipIsReadDirectly) {
  TempDir tmp;
  const std::string text =
      "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 0.5\n2 3 0.25\n3 1 0.125\n";
  auto plain = read_matrix_market(tmp.write("g.mtx", text));
  auto gz = read_matrix_market(tmp.write("g.mtx.gz", text));
  EXPECT_EQ(gz.matrix.rowptr, plain.matrix.rowptr);
  EXPECT_EQ(gz.matrix.col, plain.matrix.col);
  EXPECT_EQ(gz.matrix.val, plain.matrix.val);
  EXPECT_EQ(gz.matrix.val, (std::vector<double>{0.5, 0.25, 0.125}));
}

TEST(MatrixMarket, CorruptGzipIsAParseError) {
  TempDir tmp;
  std::string text = "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n";
  for (int k = 0; k < 2000; ++k) text += "% padding so the compressed stream is long enough to cut\n";
  const auto gz = tmp.write("c.mtx.gz", text);
  std::string bytes = test::read_file(gz);
  const auto cut = tmp.write("cut.mtx", bytes.substr(0, bytes.size() / 2));  // gzip magic kept
  const std::string msg = parse_error_of([&] { read_matrix_market(cut); });
  EXPECT_NE(msg.find("cut.mtx:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("gzip"), std::string::npos) << msg;
}

TEST(MatrixMarket, CommentsBlankLinesAndCrLf) {
  TempDir tmp;
  auto m = read_matrix_market(tmp.write("c.mtx",
                                        "%%MatrixMarket matrix coordinate pattern general\r\n"
                                        "% first\r\n"
                                        "\r\n"
                                        "%second\r\n"
                                        "2 2 2\r\n"
                                        "1 1\r\n"
                                        "% between entries\r\n"
                                        "\r\n"
                                        "2 1\t\r\n"
                                        "\r\n"));
  EXPECT_EQ(m.matrix.nnz(), 2);
  EXPECT_EQ(m.matrix.col, (std::vector<vid_t>{0, 0}));
}

TEST(MatrixMarket, EmptyGraphsLoad) {
  TempDir tmp;
  auto none = read_matrix_market(tmp.write("e0.mtx", "%%MatrixMarket matrix coordinate pattern general\n0 0 0\n"));
  EXPECT_EQ(none.matrix.nrows, 0);
  EXPECT_EQ(none.matrix.nnz(), 0);
  none.matrix.validate();
  auto isolated = read_matrix_market(tmp.write("e5.mtx", "%%MatrixMarket matrix coordinate real symmetric\n5 5 0\n"));
  EXPECT_EQ(isolated.matrix.nrows, 5);
  EXPECT_EQ(isolated.matrix.rowptr, (std::vector<eid_t>(6, 0)));
  auto gz = read_matrix_market(tmp.write("e.mtx.gz", "%%MatrixMarket matrix coordinate integer general\n4 2 0\n"));
  EXPECT_EQ(gz.matrix.nrows, 4);
  EXPECT_EQ(gz.matrix.ncols, 2);
}

TEST(MatrixMarket, DeclaredTypesBoundValues) {
  TempDir tmp;
  const std::string head = "%%MatrixMarket matrix coordinate integer general\n%%GraphBLAS type ";
  auto ok = read_matrix_market(tmp.write("ok.mtx", head + "uint64_t\n1 2 2\n1 1 18446744073709551615\n1 2 0\n"));
  EXPECT_EQ(ok.header.declared_type, MmDeclaredType::UInt64);
  EXPECT_EQ(ok.matrix.val[0], 18446744073709551615.0);
  auto b = read_matrix_market(tmp.write("b.mtx", head + "bool\n2 2 2\n1 1 1\n2 2 0\n"));
  EXPECT_EQ(b.matrix.val, (std::vector<double>{1, 0}));

  const auto f = tmp.write("f.mtx", "%%MatrixMarket matrix coordinate real general\n%%GraphBLAS type float\n1 1 1\n1 1 1e39\n");
  EXPECT_NE(parse_error_of([&] { read_matrix_market(f); }).find("f.mtx:4: value '1e39' is out of range for float"),
            std::string::npos);
  const auto d = tmp.write("d.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1e400\n");
  EXPECT_NE(parse_error_of([&] { read_matrix_market(d); }).find("d.mtx:3: value '1e400' is out of range"),
            std::string::npos);
  const auto u = tmp.write("u.mtx", head + "uint8_t\n1 1 1\n1 1 -1\n");
  EXPECT_NE(parse_error_of([&] { read_matrix_market(u); }).find("u.mtx:4: value '-1' is not a non-negative integer"),
            std::string::npos);
}

TEST(MatrixMarket, UnknownGraphBLASLinesAreComments) {
  auto m = read_matrix_market(test::dataset("small/tree-example.mtx"));
  EXPECT_EQ(m.header.declared_type, MmDeclaredType::None);
  EXPECT_EQ(m.matrix.nnz(), 10);
}

TEST(MatrixMarket, HeaderOnly) {
  const auto h = read_matrix_market_header(test::dataset("small/ldbc-cdlp-undirected-example.mtx"));
  EXPECT_EQ(h.format, MmFormat::Coordinate);
  EXPECT_EQ(h.field, MmField::Integer);
  EXPECT_EQ(h.symmetry, MmSymmetry::Symmetric);
  EXPECT_EQ(h.declared_type, MmDeclaredType::Bool);
  EXPECT_EQ(to_string(h.declared_type), "bool");
  EXPECT_EQ(h.nrows, 8);
  EXPECT_EQ(h.ncols, 8);
  EXPECT_EQ(h.stored_entries, 12);
}

TEST(MatrixMarket, DuplicateIsAnErrorNamingBothLines) {
  const std::string path = test::dataset("malformed/mangled14.mtx");
  const std::string msg = parse_error_of([&] { read_matrix_market(path); });
  EXPECT_NE(msg.find(path + ":8: duplicate entry (2, 2) (1-based), first given at line 7"), std::string::npos) << msg;
}

TEST(MatrixMarket, DuplicatePoliciesCombine) {
  const std::string path = test::dataset("malformed/mangled14.mtx");  // (2,2) = 3.4 then 7.1
  auto value_22 = [&](Duplicates d) {
    auto m = read_matrix_market(path, {.duplicates = d}).matrix;
    EXPECT_EQ(m.nnz(), 2);
    return dense(m)[1][1];
  };
  EXPECT_DOUBLE_EQ(value_22(Duplicates::Sum), 3.4 + 7.1);
  EXPECT_DOUBLE_EQ(value_22(Duplicates::Max), 7.1);
  EXPECT_DOUBLE_EQ(value_22(Duplicates::First), 3.4);
}

TEST(MatrixMarket, SymmetricEntryGivenInBothTrianglesIsADuplicate) {
  TempDir tmp;
  const auto path = tmp.write("s.mtx",
                              "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 1\n3 3 1\n1 2 5\n");
  const std::string msg = parse_error_of([&] { read_matrix_market(path); });
  EXPECT_NE(msg.find("s.mtx:5: duplicate entry (1, 2) (1-based), first given at line 3 (through symmetry, as the "
                     "mirror of (2, 1))"),
            std::string::npos)
      << msg;
}

TEST(MatrixMarket, HeaderClaimingTooManyEntriesIsRefusedBeforeAllocating) {
  TempDir tmp;
  const auto path = tmp.write("huge.mtx", "%%MatrixMarket matrix coordinate pattern general\n10 10 1000000000000\n1 1\n");
  const auto start = std::chrono::steady_clock::now();
  const std::string msg = parse_error_of([&] { read_matrix_market(path); });  // a bad_alloc would fail here
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  EXPECT_NE(msg.find("huge.mtx:2: the size line declares 1000000000000 entries, but the remaining 4 bytes of the "
                     "file can hold at most 1"),
            std::string::npos)
      << msg;
  // Compressed input is bounded by the most text its size could inflate to (1032 bytes a byte).
  const auto gz = tmp.write("huge.mtx.gz", test::read_file(path));
  const std::string gz_msg = parse_error_of([&] { read_matrix_market(gz); });
  EXPECT_NE(gz_msg.find("huge.mtx.gz:2: the size line declares 1000000000000 entries, but a gzip file of "),
            std::string::npos)
      << gz_msg;
}

TEST(MatrixMarket, IdsBeyond32BitsAreRefused) {
  TempDir tmp;
  const auto path = tmp.write("big.mtx", "%%MatrixMarket matrix coordinate pattern general\n3000000000 2 0\n");
  EXPECT_NE(parse_error_of([&] { read_matrix_market(path); }).find("big.mtx:2: rows (3000000000) exceed"),
            std::string::npos);
}

TEST(MatrixMarket, MissingFileNamesPathAndErrno) {
  try {
    read_matrix_market("/nonexistent/dir/x.mtx");
    FAIL() << "no exception";
  } catch (const ParseError&) {
    FAIL() << "a missing file is not a parse error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "cannot open /nonexistent/dir/x.mtx: No such file or directory");
  }
}

// ---- the datasets ----------------------------------------------------------------------------

struct SmallGraph {
  const char* file;
  vid_t n;
  eid_t entries;  // after symmetric expansion
  bool pattern;
  MmSymmetry symmetry;
};

TEST(MatrixMarketDatasets, SmallGraphsLoadWithTheirKnownSizes) {
  const SmallGraph graphs[] = {
      {"A.mtx", 7, 30, true, MmSymmetry::Symmetric},
      {"LFAT5.mtx", 14, 46, false, MmSymmetry::Symmetric},
      {"bcsstk13.mtx", 2003, 83883, false, MmSymmetry::Symmetric},
      {"chesapeake.mtx", 39, 340, true, MmSymmetry::Symmetric},
      {"dolphins.mtx", 62, 318, true, MmSymmetry::Symmetric},
      {"hep-th.mtx", 8361, 31502, false, MmSymmetry::Symmetric},
      {"jagmesh7.mtx", 1138, 7450, true, MmSymmetry::Symmetric},
      {"karate.mtx", 34, 156, true, MmSymmetry::Symmetric},
      {"ldbc-cdlp-undirected-example.mtx", 8, 24, false, MmSymmetry::Symmetric},
      {"ldbc-directed-example.mtx", 10, 17, false, MmSymmetry::General},
      {"ldbc-undirected-example.mtx", 9, 24, false, MmSymmetry::Symmetric},
      {"ldbc-wcc-example.mtx", 10, 30, false, MmSymmetry::Symmetric},
      {"mcl.mtx", 10, 18, false, MmSymmetry::General},
      {"netscience.mtx", 1589, 5484, false, MmSymmetry::Symmetric},
      {"polbooks.mtx", 105, 882, true, MmSymmetry::Symmetric},
      {"tree-example.mtx", 6, 10, false, MmSymmetry::Symmetric},
      {"west0067.mtx", 67, 294, false, MmSymmetry::General},
      {"zenios.mtx", 2873, 27191, false, MmSymmetry::Symmetric},
  };
  for (const SmallGraph& g : graphs) {
    SCOPED_TRACE(g.file);
    auto m = read_matrix_market(test::dataset(std::string("small/") + g.file));
    m.matrix.validate();
    EXPECT_EQ(m.matrix.nrows, g.n);
    EXPECT_EQ(m.matrix.ncols, g.n);
    EXPECT_EQ(m.matrix.nnz(), g.entries);
    EXPECT_EQ(m.matrix.is_pattern(), g.pattern);
    EXPECT_EQ(m.header.symmetry, g.symmetry);
    if (g.symmetry == MmSymmetry::Symmetric) {
      const Csr<double> t = transpose(m.matrix);
      EXPECT_EQ(t.col, m.matrix.col);
      EXPECT_EQ(t.val, m.matrix.val);
    }
  }
}

TEST(MatrixMarketDatasets, KarateDegrees) {
  auto m = read_matrix_market(test::dataset("small/karate.mtx")).matrix;
  // Zachary's karate club: the instructor (vertex 0) has 16 ties, the administrator (33) 17.
  EXPECT_EQ(m.row_length(0), 16);
  EXPECT_EQ(m.row_length(33), 17);
}

TEST(MatrixMarketDatasets, West0067JumbledIsTheSameMatrix) {
  auto a = read_matrix_market(test::dataset("small/west0067.mtx")).matrix;
  auto b = read_matrix_market(test::dataset("small/west0067_jumbled.mtx")).matrix;
  EXPECT_EQ(a.nnz(), 294);
  EXPECT_EQ(b.rowptr, a.rowptr);
  EXPECT_EQ(b.col, a.col);
  EXPECT_EQ(b.val, a.val);
  EXPECT_DOUBLE_EQ(dense(a)[4][0], -.2788416);  // "5 1 -.2788416", the first entry of the file
}

// comments_west0067 is west0067 plus one entry (1,1) = nan (with a "%%GraphBLAS type double"
// line and different comments): NaN is refused by every reader, naming its line.
TEST(MatrixMarketDatasets, CommentsWest0067IsRefusedForItsNan) {
  const std::string path = test::dataset("small/comments_west0067.mtx");
  EXPECT_EQ(read_matrix_market_header(path).declared_type, MmDeclaredType::Double);
  EXPECT_EQ(test::parse_error_of([&] { read_matrix_market(path); }),
            path + ":6: weight 'nan' is not a finite number; NaN and infinite values are refused in every format");
}

TEST(MatrixMarketDense, ClusterVector) {
  auto d = read_matrix_market_dense(test::dataset("small/karate_cluster.mtx"));
  EXPECT_EQ(d.header.format, MmFormat::Array);
  EXPECT_EQ(d.header.declared_type, MmDeclaredType::Int64);
  ASSERT_EQ(d.values.size(), 34u);
  EXPECT_EQ(d.values[0], 11);
  EXPECT_EQ(d.values[8], 30);
  const std::string msg = parse_error_of([] { read_matrix_market(test::dataset("small/karate_cluster.mtx")); });
  EXPECT_NE(msg.find("karate_cluster.mtx:1: dense 'array' files are not supported as graphs"), std::string::npos);
}

}  // namespace
}  // namespace spgraph::io
