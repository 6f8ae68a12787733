#pragma once
// Random sparse matrices with the features that break sparse kernels (empty rows and columns,
// a dense row, rectangular shapes, explicit zeros, integer values so sums are exact and
// values cancel), and the comparison of two matrices: exact for integers, bool, infinities
// and NaN; within a relative tolerance for other floating values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <set>
#include <type_traits>

#include "spgraph/csr.hpp"

namespace spgraph::test {

struct RandomSpec {
  vid_t nrows = 100;
  vid_t ncols = 100;
  double density = 0.05;
  unsigned seed = 1;
  vid_t empty_row_every = 0;  // rows i with i % k == 0 have no entries (0: none)
  vid_t empty_col_every = 0;  // columns j with j % k == 0 never appear (0: none)
  vid_t dense_row = -1;       // this row holds every allowed column
  int min_value = -3;         // integer values in [min_value, max_value]
  int max_value = 3;
  bool pattern = false;       // no values
};

template <class V>
V random_value(std::mt19937_64& rng, const RandomSpec& s) {
  const int v = std::uniform_int_distribution<int>(s.min_value, s.max_value)(rng);
  if constexpr (std::is_same_v<V, bool>) return v > 0;
  else return static_cast<V>(v);
}

template <class V>
Csr<V> random_csr(const RandomSpec& s) {
  std::mt19937_64 rng(s.seed);
  // 64-bit on purpose: libstdc++ 12's binomial_distribution<int> computes 32 * t in int, which
  // overflows for t >= 2^26 and makes the sampler loop forever on wide matrices.
  std::binomial_distribution<eid_t> count(s.ncols, s.density);
  std::uniform_int_distribution<vid_t> column(0, s.ncols - 1);
  const auto allowed = [&](vid_t j) { return s.empty_col_every == 0 || j % s.empty_col_every != 0; };
  Csr<V> a;
  a.nrows = s.nrows;
  a.ncols = s.ncols;
  a.rowptr.assign(1, 0);
  for (vid_t i = 0; i < s.nrows; ++i) {
    std::set<vid_t> cols;
    if (i == s.dense_row) {
      for (vid_t j = 0; j < s.ncols; ++j)
        if (allowed(j)) cols.insert(j);
    } else if (s.empty_row_every == 0 || i % s.empty_row_every != 0) {
      const auto k = static_cast<vid_t>(count(rng));
      for (int tries = 0; static_cast<vid_t>(cols.size()) < k && tries < 4 * k + 16; ++tries) {
        const vid_t j = column(rng);
        if (allowed(j)) cols.insert(j);
      }
    }
    for (vid_t j : cols) {
      a.col.push_back(j);
      if (!s.pattern) a.val.push_back(random_value<V>(rng, s));
    }
    a.rowptr.push_back(static_cast<eid_t>(a.col.size()));
  }
  return a;
}

// Exact for integers and bool. Floating values may differ by a relative 1e-5 (float) or 1e-12
// (double) of the larger of |got|, |want| and magnitude, the sum of the terms' magnitudes
// (0 where unknown); summation order changes a sum by about 1e-15 of that in double.
// Infinities and NaN match only themselves (a tolerance scaled by an infinite magnitude
// would accept anything).
// The one comparison of floating values every helper uses: got within tolerance of want,
// except that infinities and NaN match only themselves (NaN matches NaN).
inline ::testing::AssertionResult within_tolerance(double got, double want, double tolerance) {
  if (std::isnan(got) || std::isnan(want) || std::isinf(got) || std::isinf(want)) {
    if ((std::isnan(got) && std::isnan(want)) || got == want) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << got << ", want " << want;
  }
  // (An infinite tolerance, from an infinite magnitude, would accept anything: exact then.)
  if (got == want || (std::isfinite(tolerance) && std::fabs(got - want) <= tolerance))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got << ", want " << want << " (tolerance " << tolerance << ")";
}

// The relative tolerance of a floating type's results.
template <class V>
inline constexpr double kRelativeTolerance = std::is_same_v<V, float> ? 1e-5 : 1e-12;

template <class V>
::testing::AssertionResult values_match(V got, V want, double magnitude = 0) {
  if constexpr (std::is_floating_point_v<V>) {
    const double scale = std::max({std::fabs(double(got)), std::fabs(double(want)), magnitude});
    return within_tolerance(double(got), double(want), kRelativeTolerance<V> * scale);
  } else if (got == want) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "got " << +got << ", want " << +want;
}

// magnitudes: from oracle_magnitudes for the same product as want (same pattern), or none.
template <class V>
::testing::AssertionResult same_matrix(const Csr<V>& got, const Csr<V>& want, bool compare_values = true,
                                       const std::optional<Csr<V>>& magnitudes = std::nullopt) {
  if (got.nrows != want.nrows || got.ncols != want.ncols)
    return ::testing::AssertionFailure() << "shape " << got.nrows << "x" << got.ncols << ", want " << want.nrows
                                         << "x" << want.ncols;
  if (got.nnz() != want.nnz()) return ::testing::AssertionFailure() << "nnz " << got.nnz() << ", want " << want.nnz();
  for (vid_t i = 0; i <= got.nrows; ++i)
    if (got.rowptr[i] != want.rowptr[i])
      return ::testing::AssertionFailure() << "rowptr[" << i << "] " << got.rowptr[i] << ", want " << want.rowptr[i];
  for (eid_t p = 0; p < got.nnz(); ++p)
    if (got.col[p] != want.col[p])
      return ::testing::AssertionFailure() << "col[" << p << "] " << got.col[p] << ", want " << want.col[p];
  if (!compare_values || got.nnz() == 0) return ::testing::AssertionSuccess();
  if (got.val.size() != got.col.size()) return ::testing::AssertionFailure() << "result has no values";
  if (magnitudes && (magnitudes->rowptr != want.rowptr || magnitudes->col != want.col ||
                     magnitudes->val.size() != want.col.size()))
    return ::testing::AssertionFailure() << "test error: the magnitudes do not have the expected result's pattern";
  for (eid_t p = 0; p < got.nnz(); ++p) {
    const V w = want.is_pattern() ? V(1) : want.val[p];
    if (auto r = values_match(got.val[p], w, magnitudes ? double(magnitudes->val[p]) : 0.0); !r) {
      const vid_t row = static_cast<vid_t>(std::upper_bound(got.rowptr.begin(), got.rowptr.end(), p) - got.rowptr.begin() - 1);
      r << " at (" << row << ", " << got.col[p] << ")";
      if (magnitudes) r << " (terms' magnitudes sum to " << +magnitudes->val[p] << ")";
      return r;
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace spgraph::test
