#pragma once
// Shared by the SpGEMM tests: the GraphBLAS oracle and the magnitudes that give a tolerance
// surviving cancellation; random matrices and the comparison are matrix_support.hpp's.
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
#include "matrix_support.hpp"
#include "test_support.hpp"

namespace spgraph::test {

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
