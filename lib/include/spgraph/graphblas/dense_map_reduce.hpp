#pragma once
// graphblas::map_reduce: the fused dense-vector pass of gpu/dense_map_reduce.hpp, with the
// same call and contract, on the CPU:
//
//   std::array<double, R> sums = graphblas::map_reduce<R>(f, v1, v2, ...);
//
// calls f(i, acc, v1's array, v2's array, ...) for every i in [0, n), acc a double[R] that f
// adds to; returns the totals. The loop runs on the vectors' own arrays (with_dense: no
// copies) and is split across cores by OpenMP where the build enables it; with a static
// schedule the sums are the same from run to run for a given number of threads.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>

#include "spgraph/error.hpp"
#include "spgraph/graphblas/matrix.hpp"

namespace spgraph::graphblas {
namespace detail {

// Opens the vectors' arrays one inside the other, then calls body(data...) with all of them.
template <class Body, class Opened>
void with_all_dense(Body& body, std::size_t, Opened opened) {
  std::apply(body, opened);
}

template <class Body, class Opened, class V, class... Rest>
void with_all_dense(Body& body, std::size_t n, Opened opened, Vector<V>& v, Rest&... rest) {
  with_dense(v, [&](V* data, std::size_t size) {
    if (size != n)
      throw Error("graphblas::map_reduce: vectors of different lengths (" + std::to_string(n) + " and " +
                  std::to_string(size) + ")");
    with_all_dense(body, n, std::tuple_cat(opened, std::tuple<V*>(data)), rest...);
  });
}

}  // namespace detail

template <int R, class F, class... V>
std::array<double, R> map_reduce(F f, Vector<V>&... vectors) {
  static_assert(R >= 1, "map_reduce needs at least one sum");
  static_assert(sizeof...(V) >= 1, "map_reduce needs at least one vector");
  const std::size_t sizes[] = {vectors.size()...};
  const std::size_t n = sizes[0];
  std::array<double, R> sums{};
  auto body = [&](auto*... data) {
    double acc[R] = {};
    const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static) reduction(+ : acc[:R])
    for (std::int64_t i = 0; i < count; ++i) f(static_cast<std::size_t>(i), acc, data...);
    for (int r = 0; r < R; ++r) sums[r] = acc[r];
  };
  detail::with_all_dense(body, n, std::tuple<>(), vectors...);
  return sums;
}

}  // namespace spgraph::graphblas
