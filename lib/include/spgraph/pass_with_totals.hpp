#pragma once
// For backends whose MxvReducer is an mxv followed by map_reduce over its result (graphblas,
// dist): MxvReducer's pass f(i, w[i], acc, prev, data...) with the previous pass's totals, as a
// map_reduce functor over (w, data...). Callable on the device too, where a local backend's
// map_reduce runs it (dist::Backend<gpu::GpuBackend>).
#include <cstddef>

#include "spgraph/types.hpp"

namespace spgraph::detail {

template <int R, class V, class F>
struct PassWithTotals {
  F f;
  double prev[R];
  template <class... T>
  SPGRAPH_HD void operator()(std::size_t i, double (&acc)[R], V* w, T*... data) const {
    double p[R];
    for (int r = 0; r < R; ++r) p[r] = prev[r];
    f(i, w[i], acc, p, data...);
  }
};

}  // namespace spgraph::detail
