#pragma once
// Shared by the SpGEMM tests: random matrices with the features that break SpGEMMs (empty
// rows and columns, a dense row, explicit zeros, integer values so sums are exact), the
// GraphBLAS oracle, and result comparison with a tolerance that survives cancellation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <utility>

#include "spgraph/csr.hpp"
#include "spgraph/descriptor.hpp"
#include "spgraph/gpu/spgemm.hpp"
#include "spgraph/graphblas/matrix.hpp"
#include "spgraph/graphblas/operations.hpp"
#include "spgraph/semiring.hpp"
#include "test_support.hpp"

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

// C<mask> = A*B by SuiteSparse:GraphBLAS; old_c is C's content before the call (or none).
template <class SR, class V>
Csr<V> oracle_mxm(const Csr<V>& a, const Csr<V>& b, const Descriptor& desc = {}, const Csr<V>* mask = nullptr,
                  const Csr<V>* old_c = nullptr) {
  graphblas::Matrix<V> c = old_c ? graphblas::from_host(*old_c) : graphblas::Matrix<V>();
  const graphblas::Matrix<V> ga = graphblas::from_host(a), gb = graphblas::from_host(b);
  if (mask) {
    const graphblas::Matrix<V> gm = graphblas::from_host(*mask);
    graphblas::mxm(c, &gm, ga, gb, SR{}, desc);
  } else {
    graphblas::mxm(c, nullptr, ga, gb, SR{}, desc);
  }
  return graphblas::to_host(c);
}

template <class V>
struct GpuResult {
  Csr<V> c;
  gpu::SpgemmInfo info;
};

template <class SR, class V>
GpuResult<V> gpu_mxm(const Csr<V>& a, const Csr<V>& b, const MxmOptions& options = {},
                     const gpu::SpgemmTuning& tuning = {}, const Descriptor& desc = {}, const Csr<V>* mask = nullptr,
                     const Csr<V>* old_c = nullptr) {
  gpu::Matrix<V> c = old_c ? gpu::Matrix<V>::from_host(*old_c) : gpu::Matrix<V>();
  const auto ga = gpu::Matrix<V>::from_host(a), gb = gpu::Matrix<V>::from_host(b);
  GpuResult<V> r;
  if (mask) {
    const auto gm = gpu::Matrix<V>::from_host(*mask);
    r.info = gpu::mxm(c, &gm, ga, gb, SR{}, desc, options, tuning);
  } else {
    r.info = gpu::mxm(c, nullptr, ga, gb, SR{}, desc, options, tuning);
  }
  r.c = c.to_host();
  return r;
}

// Sums of products with both signs cancel: whatever the summation order, their rounding error
// is relative to the sum of the terms' magnitudes, not to the result (bcsstk13's A*A has an
// entry of -3.4e9 made of terms whose magnitudes add up to 3.3e14). For a plus monoid over
// floating values with a negative operand, this returns that sum at every entry of the
// oracle's C<mask> = A*B: the same semiring on |A| and |B| (every multiply op of a plus
// semiring commutes with |.|), with |old C| where old entries are kept. Otherwise there is no
// cancellation (each result is one term or same-signed terms, or integers, which are exact),
// and it returns nothing: |C(i,j)| itself bounds the error.
template <class SR, class V>
std::optional<Csr<V>> oracle_magnitudes(const Csr<V>& a, const Csr<V>& b, const Descriptor& desc = {},
                                        const Csr<V>* mask = nullptr, const Csr<V>* old_c = nullptr) {
  if constexpr (std::is_floating_point_v<V> && std::is_same_v<typename SR::add_monoid, monoid::Plus>) {
    const auto negative = [](const Csr<V>& m) { return std::any_of(m.val.begin(), m.val.end(), [](V v) { return v < 0; }); };
    if (!negative(a) && !negative(b)) return std::nullopt;
    const auto absolute = [](Csr<V> m) {
      for (V& v : m.val) v = std::fabs(v);
      return m;
    };
    std::optional<Csr<V>> old_abs;
    if (old_c) old_abs = absolute(*old_c);
    return oracle_mxm<SR>(absolute(a), absolute(b), desc, mask, old_abs ? &*old_abs : nullptr);
  } else {
    return std::nullopt;
  }
}

// Exact for integers and bool. Floating values may differ by a relative 1e-5 (float) or 1e-12
// (double) of the larger of |got|, |want| and magnitude, the sum of the terms' magnitudes
// (0 where unknown); summation order changes a sum by about 1e-15 of that in double.
template <class V>
::testing::AssertionResult values_match(V got, V want, double magnitude = 0) {
  if constexpr (std::is_floating_point_v<V>) {
    const double tol = std::is_same_v<V, float> ? 1e-5 : 1e-12;
    const double scale = std::max({std::fabs(double(got)), std::fabs(double(want)), magnitude});
    if (got == want || std::fabs(double(got) - double(want)) <= tol * scale) return ::testing::AssertionSuccess();
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

// GPU C<mask> = A*B against the oracle; returns the GPU's info.
template <class SR, class V>
gpu::SpgemmInfo expect_matches_oracle(const Csr<V>& a, const Csr<V>& b, const MxmOptions& options = {},
                                      const gpu::SpgemmTuning& tuning = {}, const Descriptor& desc = {},
                                      const Csr<V>* mask = nullptr, const Csr<V>* old_c = nullptr) {
  const GpuResult<V> got = gpu_mxm<SR>(a, b, options, tuning, desc, mask, old_c);
  const Csr<V> want = oracle_mxm<SR>(a, b, desc, mask, old_c);
  EXPECT_TRUE(same_matrix(got.c, want, true, oracle_magnitudes<SR>(a, b, desc, mask, old_c)))
      << "algorithm " << got.info.algorithm;
  return got.info;
}

inline MxmOptions with_algorithm(MxmAlgorithm algorithm, std::size_t budget = 0) {
  MxmOptions o;
  o.algorithm = algorithm;
  o.memory_budget = budget;
  return o;
}

}  // namespace spgraph::test
