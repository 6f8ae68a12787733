// Properties of the host transforms on random matrices (sizes, densities, pattern or valued).
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <random>
#include <string>

#include "container_test_util.hpp"
#include "spgraph/graph_ops.hpp"

namespace spgraph {
namespace {

using test::same_csr;

struct Shape {
  vid_t nrows, ncols;
  int entries;
  bool valued;
};
// "50x50_300_valued": rows x columns, entries drawn, valued or pattern, as a test name; gtest
// prints the parameter as "50x50, 300 entries, valued".
std::string shape_name(const ::testing::TestParamInfo<Shape>& info) {
  const Shape& s = info.param;
  return std::to_string(s.nrows) + "x" + std::to_string(s.ncols) + "_" + std::to_string(s.entries) +
         (s.valued ? "_valued" : "_pattern");
}
void PrintTo(const Shape& s, std::ostream* os) {
  *os << s.nrows << "x" << s.ncols << ", " << s.entries << " entries, " << (s.valued ? "valued" : "pattern");
}

Csr<double> random_csr(const Shape& s, unsigned seed) {
  std::mt19937 gen(seed);
  Coo<double> c;
  c.nrows = s.nrows;
  c.ncols = s.ncols;
  for (int k = 0; k < s.entries; ++k) {
    c.row.push_back(static_cast<vid_t>(gen() % s.nrows));
    c.col.push_back(static_cast<vid_t>(gen() % s.ncols));
    if (s.valued) c.val.push_back(static_cast<double>(gen() % 100) - 50);
  }
  return coo_to_csr(std::move(c), Duplicates::Sum);
}

class RandomMatrix : public ::testing::TestWithParam<Shape> {};

TEST_P(RandomMatrix, TransposeTwiceIsIdentity) {
  for (unsigned seed = 1; seed <= 3; ++seed) {
    auto a = random_csr(GetParam(), seed);
    auto t = transpose(a);
    EXPECT_NO_THROW(t.validate());
    EXPECT_EQ(t.nrows, a.ncols);
    EXPECT_EQ(in_degrees(a), out_degrees(t));
    EXPECT_TRUE(same_csr(transpose(t), a));
  }
}

TEST_P(RandomMatrix, CooRoundTripThroughAnyOrder) {
  auto a = random_csr(GetParam(), 11);
  Coo<double> c = csr_to_coo(a);
  std::vector<std::size_t> order(c.row.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::shuffle(order.begin(), order.end(), std::mt19937(5));
  Coo<double> shuffled = c;
  for (std::size_t k = 0; k < order.size(); ++k) {
    shuffled.row[k] = c.row[order[k]];
    shuffled.col[k] = c.col[order[k]];
    if (!c.val.empty()) shuffled.val[k] = c.val[order[k]];
  }
  EXPECT_TRUE(same_csr(coo_to_csr(shuffled), a));  // no duplicates: Duplicates::Error passes
}

TEST_P(RandomMatrix, TrianglesPartitionTheMatrix) {
  auto a = random_csr(GetParam(), 21);
  auto lower = lower_triangle(a), upper = upper_triangle(a);
  auto lower_diag = lower_triangle(a, false);
  eid_t diagonal = 0;
  for (vid_t i = 0; i < a.nrows; ++i)
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) diagonal += a.col[p] == i;
  EXPECT_EQ(lower.nnz() + upper.nnz() + diagonal, a.nnz());
  EXPECT_EQ(lower_diag.nnz(), lower.nnz() + diagonal);
  EXPECT_EQ(remove_self_loops(a).nnz(), a.nnz() - diagonal);
  for (vid_t i = 0; i < a.nrows; ++i) {
    for (eid_t p = lower.rowptr[i]; p < lower.rowptr[i + 1]; ++p) EXPECT_LT(lower.col[p], i);
    for (eid_t p = upper.rowptr[i]; p < upper.rowptr[i + 1]; ++p) EXPECT_GT(upper.col[p], i);
  }
  // Strict lower + strict upper + diagonal, merged back, is the matrix itself.
  Coo<double> pieces = csr_to_coo(lower);
  for (const auto& part : {csr_to_coo(upper), csr_to_coo(lower_triangle(upper_triangle(a, false), false))}) {
    pieces.row.insert(pieces.row.end(), part.row.begin(), part.row.end());
    pieces.col.insert(pieces.col.end(), part.col.begin(), part.col.end());
    pieces.val.insert(pieces.val.end(), part.val.begin(), part.val.end());
  }
  EXPECT_TRUE(same_csr(coo_to_csr(pieces), a));
}

INSTANTIATE_TEST_SUITE_P(Shapes, RandomMatrix,
                         ::testing::Values(Shape{50, 50, 300, true}, Shape{200, 70, 2000, false},
                                           Shape{1, 1000, 500, true}, Shape{1000, 3, 1500, true},
                                           Shape{500, 500, 40000, false}),
                         shape_name);

class RandomSquare : public ::testing::TestWithParam<Shape> {};

TEST_P(RandomSquare, SymmetrizeIsSymmetricAndContainsTheMatrix) {
  auto a = random_csr(GetParam(), 31);
  for (auto policy : {Duplicates::Sum, Duplicates::Max, Duplicates::First}) {
    auto s = symmetrize(a, policy);
    EXPECT_NO_THROW(s.validate());
    if (policy != Duplicates::First) {  // First keeps a(i,j) and a(j,i) as they are: asymmetric values
      EXPECT_TRUE(same_csr(transpose(s), s));
    }
    auto pattern = drop_values(s);
    EXPECT_TRUE(same_csr(transpose(pattern), pattern));
    // Every entry of A, and of A', is in S.
    for (const auto& m : {a, transpose(a)})
      for (vid_t i = 0; i < m.nrows; ++i)
        for (eid_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p)
          EXPECT_TRUE(std::binary_search(s.col.begin() + s.rowptr[i], s.col.begin() + s.rowptr[i + 1], m.col[p]));
  }
}

TEST_P(RandomSquare, SymmetrizeSumEqualsAPlusATransposeOffTheDiagonal) {
  Shape valued = GetParam();
  valued.valued = true;
  auto a = remove_self_loops(random_csr(valued, 41));
  auto s = symmetrize(a, Duplicates::Sum);
  Coo<double> sum = csr_to_coo(a), t = csr_to_coo(transpose(a));
  sum.row.insert(sum.row.end(), t.row.begin(), t.row.end());
  sum.col.insert(sum.col.end(), t.col.begin(), t.col.end());
  sum.val.insert(sum.val.end(), t.val.begin(), t.val.end());
  EXPECT_TRUE(same_csr(coo_to_csr(sum, Duplicates::Sum), s));
}

INSTANTIATE_TEST_SUITE_P(Shapes, RandomSquare,
                         ::testing::Values(Shape{60, 60, 400, true}, Shape{300, 300, 3000, false},
                                           Shape{2000, 2000, 10000, true}),
                         shape_name);

}  // namespace
}  // namespace spgraph
