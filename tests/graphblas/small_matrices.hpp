#pragma once
// Small hand-written matrices for the graphblas backend's tests, and comparison helpers that
// print both sides on failure. The 4 x 4 matrices A and B below are the worked example most
// tests use; every expected result in the tests was computed by hand from them.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <ostream>
#include <sstream>
#include <tuple>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/graphblas/backend.hpp"

namespace spgraph::test {

namespace gb = spgraph::graphblas;

template <class V>
struct Entry {
  vid_t row, col;
  V val;
  bool operator==(const Entry&) const = default;
};

template <class V>
std::ostream& operator<<(std::ostream& os, const Entry<V>& e) {
  return os << "(" << e.row << "," << e.col << ")=" << e.val;
}

// Entries in any order; sorted into CSR here.
template <class V>
Csr<V> csr(vid_t nrows, vid_t ncols, std::vector<Entry<V>> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const Entry<V>& a, const Entry<V>& b) { return std::tie(a.row, a.col) < std::tie(b.row, b.col); });
  Csr<V> m;
  m.nrows = nrows;
  m.ncols = ncols;
  m.rowptr.assign(nrows + 1, 0);
  for (const auto& e : entries) {
    ++m.rowptr[e.row + 1];
    m.col.push_back(e.col);
    m.val.push_back(e.val);
  }
  for (vid_t i = 0; i < nrows; ++i) m.rowptr[i + 1] += m.rowptr[i];
  return m;
}

template <class V>
gb::Matrix<V> matrix(vid_t nrows, vid_t ncols, std::vector<Entry<V>> entries) {
  return gb::from_host(csr(nrows, ncols, std::move(entries)));
}

template <class V>
std::vector<Entry<V>> entries(const Csr<V>& m) {
  std::vector<Entry<V>> out;
  for (vid_t i = 0; i < m.nrows; ++i)
    for (eid_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p)
      out.push_back({i, m.col[p], m.is_pattern() ? V(1) : V(m.val[p])});
  return out;
}

template <class V>
std::string show(const std::vector<Entry<V>>& es) {
  std::ostringstream os;
  os << "{";
  for (const auto& e : es) os << " " << e;
  os << " }";
  return os.str();
}

// Dimensions and entries (sorted by row, then column) exactly as expected.
template <class V>
::testing::AssertionResult same_matrix(const gb::Matrix<V>& m, vid_t nrows, vid_t ncols,
                                       std::vector<Entry<V>> expected) {
  const Csr<V> h = gb::to_host(m);
  const auto got = entries(h);
  std::sort(expected.begin(), expected.end(),
            [](const Entry<V>& a, const Entry<V>& b) { return std::tie(a.row, a.col) < std::tie(b.row, b.col); });
  if (h.nrows == nrows && h.ncols == ncols && got == expected) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << h.nrows << "x" << h.ncols << " " << show(got) << "\nexpected "
                                       << nrows << "x" << ncols << " " << show(expected);
}

// A: row 0 (0,1)=2 (0,2)=3; row 1 (1,3)=4; row 2 (2,0)=1 (2,3)=5; row 3 empty.
template <class V>
gb::Matrix<V> example_a() {
  return matrix<V>(4, 4, {{0, 1, 2}, {0, 2, 3}, {1, 3, 4}, {2, 0, 1}, {2, 3, 5}});
}
// B: row 0 (0,0)=1 (0,3)=2; row 1 (1,1)=3; row 2 (2,1)=1 (2,2)=2; row 3 (3,0)=4.
template <class V>
gb::Matrix<V> example_b() {
  return matrix<V>(4, 4, {{0, 0, 1}, {0, 3, 2}, {1, 1, 3}, {2, 1, 1}, {2, 2, 2}, {3, 0, 4}});
}

template <class V>
constexpr V inf() {
  return std::numeric_limits<V>::infinity();
}

}  // namespace spgraph::test
