#pragma once
// graphblas::MxvReducer: gpu::MxvReducer's calls and contract (gpu/mxv_reduce.hpp) on the
// CPU. start() runs the whole pass: mxv into scratch, then map_reduce over its rows, with the
// previous pass's totals (or the seed) as prev; finish() hands back the oldest pass's sums.
#include <array>
#include <cstddef>
#include <deque>
#include <vector>

#include "spgraph/error.hpp"
#include "spgraph/graphblas/dense_map_reduce.hpp"
#include "spgraph/graphblas/matrix.hpp"
#include "spgraph/graphblas/operations.hpp"
#include "spgraph/pass_with_totals.hpp"

namespace spgraph::graphblas {

template <class V, int R>
class MxvReducer {
  static_assert(R >= 1, "a row pass needs at least one sum");

 public:
  static constexpr bool deferred = false;  // start() returns once the pass is done

  void seed(const std::array<double, R>& totals) {
    if (!in_flight_.empty()) throw Error("graphblas::MxvReducer::seed: a pass is still unfinished (finish() it first)");
    prev_ = totals;
  }

  // GraphBLAS's mxv needs nothing built ahead; the scratch is.
  void prepare(const Matrix<V>& A, const SpmvOptions&) { size_product(static_cast<std::size_t>(A.nrows())); }

  template <class SR, class F, class... Vs>
  void start(F f, const Matrix<V>& A, const Vector<V>& x, SR sr, const SpmvOptions& options, Vs&... vectors) {
    if (in_flight_.size() >= 2)
      throw Error("graphblas::MxvReducer::start: two passes are unfinished already (finish() one first)");
    const std::size_t n = static_cast<std::size_t>(A.nrows());
    size_product(n);
    mxv(product_, nullptr, A, x, sr, Descriptor{}, options);
    spgraph::detail::PassWithTotals<R, V, F> pass{f, {}};
    for (int r = 0; r < R; ++r) pass.prev[r] = prev_[std::size_t(r)];
    prev_ = map_reduce<R>(pass, product_, vectors...);
    in_flight_.push_back(prev_);
  }

  std::array<double, R> finish() {
    if (in_flight_.empty()) throw Error("graphblas::MxvReducer::finish: no pass is unfinished");
    const std::array<double, R> sums = in_flight_.front();
    in_flight_.pop_front();
    return sums;
  }

 private:
  void size_product(std::size_t n) {
    if (product_.size() != n) product_ = from_host(std::vector<V>(n, V(0)));
  }

  std::array<double, R> prev_{};
  std::deque<std::array<double, R>> in_flight_;
  Vector<V> product_;
};

}  // namespace spgraph::graphblas
