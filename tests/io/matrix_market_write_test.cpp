#include <limits>

#include "io_test_util.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "test_support.hpp"

namespace spgraph::io {
namespace {

using test::TempDir;

template <class V>
Csr<V> sample(std::vector<V> values) {
  Csr<V> a;
  a.nrows = 3;
  a.ncols = 4;
  a.rowptr = {0, 2, 2, 4};
  a.col = {0, 3, 1, 2};
  a.val = std::move(values);
  return a;
}

template <class V>
void expect_round_trip(const TempDir& tmp, const std::string& name, const Csr<V>& a, MmField field) {
  SCOPED_TRACE(name);
  const std::string path = tmp.path(name);
  write_matrix_market(path, a);
  auto back = read_matrix_market(path);
  EXPECT_EQ(back.header.field, field);
  EXPECT_EQ(back.matrix.nrows, a.nrows);
  EXPECT_EQ(back.matrix.ncols, a.ncols);
  EXPECT_EQ(back.matrix.rowptr, a.rowptr);
  EXPECT_EQ(back.matrix.col, a.col);
  const Csr<V> converted = convert_values<V>(back.matrix);
  ASSERT_EQ(converted.val.size(), a.val.size());
  for (std::size_t k = 0; k < a.val.size(); ++k) {
    EXPECT_EQ(converted.val[k], a.val[k]) << "entry " << k;  // bit-exact, not approximately
  }
}

TEST(MatrixMarketWrite, DoublesRoundTripExactly) {
  TempDir tmp;
  const auto a = sample<double>({0.1, 1.0 / 3.0, -2.5e300, std::numeric_limits<double>::denorm_min()});
  expect_round_trip(tmp, "d.mtx", a, MmField::Real);
  expect_round_trip(tmp, "d.mtx.gz", a, MmField::Real);
  const auto extremes = sample<double>({std::numeric_limits<double>::min(), -0.0, std::numeric_limits<double>::max(),
                                        -std::numeric_limits<double>::max()});
  expect_round_trip(tmp, "extremes.mtx", extremes, MmField::Real);
}

// Infinity and NaN are written as they are, and the reader refuses them by its one rule for
// every text format (a value that is not finite names its line).
TEST(MatrixMarketWrite, NonFiniteValuesAreWrittenAndRefusedOnRead) {
  TempDir tmp;
  const std::string path = tmp.path("special.mtx");
  write_matrix_market(path, sample<double>({1.0, std::numeric_limits<double>::infinity(), 2.0,
                                            std::numeric_limits<double>::quiet_NaN()}));
  const std::string what = test::error_of([&] { read_matrix_market(path); });
  EXPECT_EQ(what.rfind(path + ":", 0), 0u) << what;  // path:line: ...
  EXPECT_NE(what.find("'inf' is not a finite number"), std::string::npos) << what;
}

TEST(MatrixMarketWrite, FloatsAndIntegers) {
  TempDir tmp;
  expect_round_trip(tmp, "f.mtx", sample<float>({0.1f, 3.4028235e38f, -1e-45f, 7.0f}), MmField::Real);
  expect_round_trip(tmp, "i32.mtx", sample<std::int32_t>({INT32_MIN, INT32_MAX, 0, -5}), MmField::Integer);
  expect_round_trip(tmp, "i64.mtx", sample<std::int64_t>({-(std::int64_t{1} << 53), std::int64_t{1} << 53, 1, -1}),
                    MmField::Integer);
  EXPECT_EQ(read_matrix_market_header(tmp.path("i64.mtx")).declared_type, MmDeclaredType::Int64);
  EXPECT_EQ(read_matrix_market_header(tmp.path("f.mtx")).declared_type, MmDeclaredType::Float);
}

TEST(MatrixMarketWrite, PatternAndEmpty) {
  TempDir tmp;
  expect_round_trip(tmp, "p.mtx", sample<double>({}), MmField::Pattern);
  EXPECT_EQ(test::read_file(tmp.path("p.mtx")),
            "%%MatrixMarket matrix coordinate pattern general\n3 4 4\n1 1\n1 4\n3 2\n3 3\n");
  expect_round_trip(tmp, "e.mtx.gz", Csr<double>{}, MmField::Pattern);
}

TEST(MatrixMarketWrite, GzipOutputIsCompressed) {
  TempDir tmp;
  write_matrix_market(tmp.path("g.mtx.gz"), sample<double>({1, 2, 3, 4}));
  const std::string bytes = test::read_file(tmp.path("g.mtx.gz"));
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b);
}

TEST(MatrixMarketWrite, RealDatasetRoundTrip) {
  TempDir tmp;
  auto a = read_matrix_market(test::dataset("small/bcsstk13.mtx")).matrix;  // symmetric, expanded
  expect_round_trip(tmp, "b.mtx", a, MmField::Real);
}

TEST(MatrixMarketWrite, InvalidMatrixIsRefusedAndNothingIsWritten) {
  TempDir tmp;
  auto bad = sample<double>({1, 2, 3, 4});
  bad.col[1] = 9;  // beyond ncols
  EXPECT_THROW(write_matrix_market(tmp.path("bad.mtx"), bad), Error);
  EXPECT_TRUE(std::filesystem::is_empty(tmp.dir()));
}

}  // namespace
}  // namespace spgraph::io
