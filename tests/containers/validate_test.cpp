#include <gtest/gtest.h>

#include "container_test_util.hpp"

namespace spgraph {
namespace {

using test::expect_error_mentions;
using test::make_csr;

// 3 x 4: row 0 = {1, 3}, row 1 = {}, row 2 = {0, 2}
Csr<double> good() { return make_csr<double>(3, 4, {0, 2, 2, 4}, {1, 3, 0, 2}, {1, 2, 3, 4}); }

TEST(CsrValidate, AcceptsValidValuedAndPatternAndEmpty) {
  EXPECT_NO_THROW(good().validate());
  EXPECT_NO_THROW(make_csr<float>(3, 4, {0, 2, 2, 4}, {1, 3, 0, 2}).validate());
  EXPECT_NO_THROW(Csr<int>{}.validate());
  EXPECT_NO_THROW(make_csr<bool>(2, 0, {0, 0, 0}, {}).validate());
}

TEST(CsrValidate, NegativeDimensions) {
  auto a = good();
  a.ncols = -1;
  expect_error_mentions([&] { a.validate(); }, {"negative dimensions", "ncols=-1"});
}

TEST(CsrValidate, RowptrSize) {
  auto a = good();
  a.rowptr.pop_back();
  expect_error_mentions([&] { a.validate(); }, {"rowptr has 3 entries", "nrows + 1 = 4"});
}

TEST(CsrValidate, RowptrStart) {
  auto a = make_csr<double>(2, 4, {1, 2, 3}, {0, 1, 2}, {1, 2, 3});
  expect_error_mentions([&] { a.validate(); }, {"rowptr[0] is 1"});
}

TEST(CsrValidate, RowptrDecreasing) {
  auto a = make_csr<double>(3, 4, {0, 2, 1, 3}, {0, 1, 2}, {1, 2, 3});
  expect_error_mentions([&] { a.validate(); }, {"row 1", "decrease", "rowptr[1] = 2", "rowptr[2] = 1"});
}

TEST(CsrValidate, RowptrEndDoesNotMatchColumns) {
  auto a = good();
  a.col.push_back(0);
  a.val.push_back(5);
  expect_error_mentions([&] { a.validate(); }, {"rowptr ends at 4", "5 column indices"});
}

TEST(CsrValidate, ValueCountMismatch) {
  auto a = good();
  a.val.pop_back();
  expect_error_mentions([&] { a.validate(); }, {"3 values for 4 entries"});
}

TEST(CsrValidate, ColumnOutOfRange) {
  auto a = good();
  a.col[3] = 4;
  expect_error_mentions([&] { a.validate(); }, {"row 2", "entry 3", "column 4 out of range [0, 4)"});
  a.col[3] = 2;
  a.col[0] = -1;
  expect_error_mentions([&] { a.validate(false); }, {"row 0", "entry 0", "column -1 out of range"});
}

TEST(CsrValidate, UnsortedAndDuplicateColumnsOnlyWhenSortedRequired) {
  auto unsorted = good();
  std::swap(unsorted.col[2], unsorted.col[3]);
  expect_error_mentions([&] { unsorted.validate(); }, {"row 2", "entry 3", "not sorted (2 then 0)"});
  EXPECT_NO_THROW(unsorted.validate(false));

  auto duplicate = good();
  duplicate.col[1] = 1;
  expect_error_mentions([&] { duplicate.validate(); }, {"row 0", "entry 1", "duplicate column 1"});
  EXPECT_NO_THROW(duplicate.validate(false));
}

Coo<double> good_coo() {
  Coo<double> c;
  c.nrows = 2;
  c.ncols = 3;
  c.row = {0, 1, 1};
  c.col = {2, 0, 1};
  c.val = {1, 2, 3};
  return c;
}

TEST(CooValidate, AcceptsValidValuedPatternAndEmpty) {
  EXPECT_NO_THROW(good_coo().validate());
  auto pattern = good_coo();
  pattern.val.clear();
  EXPECT_NO_THROW(pattern.validate());
  EXPECT_NO_THROW(Coo<bool>{}.validate());
}

TEST(CooValidate, EachViolation) {
  auto negative = good_coo();
  negative.nrows = -2;
  expect_error_mentions([&] { negative.validate(); }, {"negative dimensions", "nrows=-2"});

  auto sizes = good_coo();
  sizes.col.pop_back();
  expect_error_mentions([&] { sizes.validate(); }, {"3 row indices but 2 column indices"});

  auto values = good_coo();
  values.val.push_back(4);
  expect_error_mentions([&] { values.validate(); }, {"4 values for 3 entries"});

  auto row = good_coo();
  row.row[1] = 2;
  expect_error_mentions([&] { row.validate(); }, {"entry 1", "row 2 out of range [0, 2)"});

  auto col = good_coo();
  col.col[2] = -1;
  expect_error_mentions([&] { col.validate(); }, {"entry 2", "column -1 out of range [0, 3)"});
}

}  // namespace
}  // namespace spgraph
