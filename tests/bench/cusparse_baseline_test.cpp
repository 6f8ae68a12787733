// The cuSPARSE baselines and the device-side result checks, on matrices small enough to
// multiply by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "cusparse_spgemm.hpp"
#include "cusparse_spmv.hpp"
#include "device_compare.hpp"
#include "same_graph.hpp"
#include "test_support.hpp"

namespace spgraph::bench {
namespace {

// A = [1 2 0; 0 0 3; 4 0 5]
Csr<double> small_a() {
  Csr<double> a;
  a.nrows = a.ncols = 3;
  a.rowptr = {0, 2, 3, 5};
  a.col = {0, 1, 2, 0, 2};
  a.val = {1, 2, 3, 4, 5};
  return a;
}
// A*A = [1 2 6; 12 0 15; 24 8 25]
Csr<double> small_a_squared() {
  Csr<double> c;
  c.nrows = c.ncols = 3;
  c.rowptr = {0, 3, 5, 8};
  c.col = {0, 1, 2, 0, 2, 0, 1, 2};
  c.val = {1, 2, 6, 12, 15, 24, 8, 25};
  return c;
}
// A' = [1 0 4; 2 0 0; 0 3 5], A*A' = [5 0 4; 0 9 15; 4 15 41]
Csr<double> small_a_transposed() {
  Csr<double> t;
  t.nrows = t.ncols = 3;
  t.rowptr = {0, 2, 3, 5};
  t.col = {0, 2, 0, 1, 2};
  t.val = {1, 4, 2, 3, 5};
  return t;
}
Csr<double> small_a_times_a_transposed() {
  Csr<double> c;
  c.nrows = c.ncols = 3;
  c.rowptr = {0, 2, 4, 7};
  c.col = {0, 2, 1, 2, 0, 1, 2};
  c.val = {5, 4, 9, 15, 4, 15, 41};
  return c;
}

template <class V>
Csr<V> host_copy(const CusparseCsr<V>& m) {
  Csr<V> h;
  h.nrows = vid_t(m.nrows);
  h.ncols = vid_t(m.ncols);
  std::vector<std::int32_t> rowptr = m.rowptr.download();
  h.rowptr.assign(rowptr.begin(), rowptr.end());
  h.col = m.col.download();
  h.val = m.val.download();
  return h;
}

// cuSPARSE does not promise sorted columns in SpGEMM's output; the product is what is tested.
template <class V>
Csr<V> rows_sorted(Csr<V> a) {
  for (vid_t i = 0; i < a.nrows; ++i) {
    std::vector<std::pair<vid_t, V>> row;
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) row.emplace_back(a.col[p], a.val[p]);
    std::sort(row.begin(), row.end());
    for (std::size_t k = 0; k < row.size(); ++k) {
      a.col[a.rowptr[i] + k] = row[k].first;
      a.val[a.rowptr[i] + k] = row[k].second;
    }
  }
  return a;
}

TEST(CusparseCsr, NarrowsOffsetsAndGivesPatternMatricesOnes) {
  SPGRAPH_REQUIRE_GPU();
  Csr<double> a = small_a();
  test::expect_same_matrix(a, host_copy(CusparseCsr<double>::from(device::DeviceCsr<double>::upload(a))));
  Csr<double> pattern = a;
  pattern.val.clear();
  Csr<double> ones = host_copy(CusparseCsr<double>::from(device::DeviceCsr<double>::upload(pattern)));
  EXPECT_EQ(ones.col, a.col);
  EXPECT_EQ(ones.val, std::vector<double>(5, 1.0));
}

TEST(CusparseSpmv, EveryAlgorithmMultipliesValuedAndPatternMatrices) {
  SPGRAPH_REQUIRE_GPU();
  CusparseHandle handle;
  device::Buffer<double> x, y(3);
  x.upload(std::vector<double>{1, 2, 3});
  Csr<double> pattern = small_a();
  pattern.val.clear();
  for (const auto& alg : cusparse_spmv_algorithms()) {
    CusparseCsr<double> a = CusparseCsr<double>::from(device::DeviceCsr<double>::upload(small_a()));
    CusparseSpmv<double> spmv(handle.get(), a, x.data(), y.data(), alg.id);
    y.fill_zero();
    spmv.run();
    EXPECT_EQ(y.download(), (std::vector<double>{5, 9, 19})) << alg.name;

    CusparseCsr<double> p = CusparseCsr<double>::from(device::DeviceCsr<double>::upload(pattern));
    CusparseSpmv<double> pattern_spmv(handle.get(), p, x.data(), y.data(), alg.id);
    pattern_spmv.run();
    EXPECT_EQ(y.download(), (std::vector<double>{3, 3, 4})) << alg.name;
  }
}

template <class V>
CusparseCsr<V> to_cusparse(const Csr<double>& a) {
  Csr<V> v;
  v.nrows = a.nrows;
  v.ncols = a.ncols;
  v.rowptr = a.rowptr;
  v.col = a.col;
  v.val.assign(a.val.begin(), a.val.end());
  return CusparseCsr<V>::from(device::DeviceCsr<V>::upload(v));
}

TEST(CusparseSpgemm, EveryAlgorithmComputesAProductByHand) {
  SPGRAPH_REQUIRE_GPU();
  CusparseHandle handle;
  CusparseCsr<double> a = to_cusparse<double>(small_a());
  CusparseCsr<double> at = to_cusparse<double>(small_a_transposed());
  for (const auto& alg : cusparse_spgemm_algorithms()) {
    SCOPED_TRACE(alg.name);
    test::expect_same_matrix(small_a_squared(), rows_sorted(host_copy(cusparse_spgemm(handle.get(), a, a, alg.id))));
    test::expect_same_matrix(small_a_times_a_transposed(),
                             rows_sorted(host_copy(cusparse_spgemm(handle.get(), a, at, alg.id))));
  }
  CusparseCsr<float> af = to_cusparse<float>(small_a());
  Csr<float> c = rows_sorted(host_copy(cusparse_spgemm(handle.get(), af, af, CUSPARSE_SPGEMM_ALG2)));
  EXPECT_EQ(c.val, (std::vector<float>{1, 2, 6, 12, 15, 24, 8, 25}));
}

TEST(CusparseSpgemm, MismatchedShapesAreAnError) {
  SPGRAPH_REQUIRE_GPU();
  CusparseHandle handle;
  Csr<double> wide;
  wide.nrows = 2;
  wide.ncols = 3;
  wide.rowptr = {0, 1, 1};
  wide.col = {2};
  wide.val = {1};
  CusparseCsr<double> a = to_cusparse<double>(wide);
  EXPECT_THROW(cusparse_spgemm(handle.get(), a, a, CUSPARSE_SPGEMM_ALG1), Error);
}

TEST(CompareVectors, CountsEntriesBeyondTheTolerance) {
  SPGRAPH_REQUIRE_GPU();
  device::Buffer<float> want, got;
  want.upload(std::vector<float>{1, 2, 0, 4});
  got.upload(std::vector<float>{1, 2, 0, 4});
  VectorComparison same = compare_vectors(got.data(), want.data(), 4, 1e-5);
  EXPECT_TRUE(same.equal());
  EXPECT_EQ(same.max_relative_error, 0);
  got.upload(std::vector<float>{1, 2.001f, 0, 4.00001f});
  VectorComparison off = compare_vectors(got.data(), want.data(), 4, 1e-5);
  EXPECT_EQ(off.mismatches, 1);
  EXPECT_EQ(off.first_mismatch, 1);
  EXPECT_NEAR(off.max_relative_error, 0.001 / 2.001, 1e-6);
  got.upload(std::vector<float>{1, 2, NAN, 4});
  EXPECT_EQ(compare_vectors(got.data(), want.data(), 4, 1e-5).first_mismatch, 2);
}

TEST(CompareCsr, AcceptsTheSameMatrixAndNamesEachKindOfDifference) {
  SPGRAPH_REQUIRE_GPU();
  auto want = device::DeviceCsr<double>::upload(small_a_squared());
  EXPECT_TRUE(compare_csr(want, to_cusparse<double>(small_a_squared()), 1e-12).equal());
  EXPECT_TRUE(compare_csr(want, device::DeviceCsr<double>::upload(small_a_squared()), 1e-12).equal());

  Csr<double> unsorted = small_a_squared();  // row 2 as (2, 25) (0, 24) (1, 8): same matrix
  unsorted.col = {0, 1, 2, 0, 2, 2, 0, 1};
  unsorted.val = {1, 2, 6, 12, 15, 25, 24, 8};
  EXPECT_TRUE(compare_csr(want, to_cusparse<double>(unsorted), 1e-12).equal());

  Csr<double> off = small_a_squared();
  off.val[4] = 15.5;
  CsrComparison value = compare_csr(want, to_cusparse<double>(off), 1e-12);
  EXPECT_NE(value.difference.find("values differ at 1 of 8"), std::string::npos) << value.difference;
  EXPECT_NEAR(value.max_relative_error, 0.5 / 15.5, 1e-12);

  Csr<double> moved = small_a_squared();
  moved.col[3] = 1;
  CsrComparison column = compare_csr(want, to_cusparse<double>(moved), 1e-12);
  EXPECT_NE(column.difference.find("column ids differ"), std::string::npos) << column.difference;

  Csr<double> shifted = small_a_squared();  // one entry moved from row 0 to row 1
  shifted.rowptr = {0, 2, 5, 8};
  CsrComparison rows = compare_csr(want, to_cusparse<double>(shifted), 1e-12);
  EXPECT_NE(rows.difference.find("row lengths differ, first at row 0"), std::string::npos) << rows.difference;

  Csr<double> empty;
  empty.nrows = empty.ncols = 3;
  empty.rowptr = {0, 0, 0, 0};
  CsrComparison none = compare_csr(want, to_cusparse<double>(empty), 1e-12);
  EXPECT_NE(none.difference.find("empty result (0 nonzeros instead of 8)"), std::string::npos) << none.difference;
}

}  // namespace
}  // namespace spgraph::bench
