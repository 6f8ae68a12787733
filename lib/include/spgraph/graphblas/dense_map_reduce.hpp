#pragma once
// graphblas::map_reduce: the fused dense-vector pass of gpu/dense_map_reduce.hpp, with the
// same call and contract, on the CPU:
//
//   std::array<double, R> sums = graphblas::map_reduce<R>(f, v1, v2, ...);
//
// calls f(i, acc, v1's array, v2's array, ...) for every i in [0, n), acc a double[R] that f
// adds to; returns the totals. The loop runs on the vectors' own arrays (with_dense: no
// copies) and is split across cores by OpenMP where the build enables it: thread t of T takes
// the t-th of T contiguous ranges, and the per-thread sums are added in thread order after the
// loop, so the totals are the same from run to run for a given number of threads. (An OpenMP
// reduction clause would combine them in whatever order the threads finish.) An exception f
// throws reaches the caller (the first one, where several threads throw).
//
// graphblas::MapReducer<R> has gpu::MapReducer's start()/finish() calls; here start() runs
// the whole pass and finish() hands back its sums.
#include <algorithm>
#include <array>
#include <cstddef>
#include <exception>
#include <string>
#include <tuple>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "spgraph/error.hpp"
#include "spgraph/graphblas/matrix.hpp"
#include "spgraph/immediate_map_reducer.hpp"

namespace spgraph::graphblas {
namespace detail {

// Opens the vectors' arrays one inside the other, then calls body(data...) with all of them.
template <class Body, class Opened>
void with_all_dense(Body& body, std::size_t, Opened opened) {
  std::apply(body, opened);
}

// Each vector's array opened in turn (a const vector's as const), then body(arrays...).
template <class Body, class Opened, class Vec, class... Rest>
void with_all_dense(Body& body, std::size_t n, Opened opened, Vec& v, Rest&... rest) {
  with_dense(v, [&](auto* data, std::size_t size) {
    if (size != n)
      throw Error("graphblas::map_reduce: vectors of different lengths (" + std::to_string(n) + " and " +
                  std::to_string(size) + ")");
    with_all_dense(body, n, std::tuple_cat(opened, std::tuple<decltype(data)>(data)), rest...);
  });
}

}  // namespace detail

template <int R, class F, class... Vs>
std::array<double, R> map_reduce(F f, Vs&... vectors) {
  static_assert(R >= 1, "map_reduce needs at least one sum");
  static_assert(sizeof...(Vs) >= 1, "map_reduce needs at least one vector");
  const std::size_t sizes[] = {vectors.size()...};
  const std::size_t n = sizes[0];
  std::array<double, R> sums{};
  auto body = [&](auto*... data) {
#ifdef _OPENMP
    std::vector<std::array<double, R>> partial(static_cast<std::size_t>(omp_get_max_threads()));
#else
    std::vector<std::array<double, R>> partial(1);
#endif
    std::size_t threads = 1;
    // An exception must not leave the parallel region (that terminates the process): each
    // thread stops at its own, the first one caught is rethrown after the region.
    std::exception_ptr error;
#pragma omp parallel
    {
#ifdef _OPENMP
      const auto t = static_cast<std::size_t>(omp_get_thread_num());
      const auto team = static_cast<std::size_t>(omp_get_num_threads());
#else
      const std::size_t t = 0, team = 1;
#endif
      if (t == 0) threads = team;
      try {
        double acc[R] = {};
        const std::size_t end = n / team * (t + 1) + std::min(t + 1, n % team);
        for (std::size_t i = n / team * t + std::min(t, n % team); i < end; ++i) f(i, acc, data...);
        for (int r = 0; r < R; ++r) partial[t][r] = acc[r];
      } catch (...) {
#pragma omp critical(spgraph_map_reduce_error)
        if (!error) error = std::current_exception();
      }
    }
    if (error) std::rethrow_exception(error);
    for (std::size_t t = 0; t < threads; ++t)
      for (int r = 0; r < R; ++r) sums[r] += partial[t][r];
  };
  detail::with_all_dense(body, n, std::tuple<>(), vectors...);
  return sums;
}

// graphblas::map_reduce as a MapReducer (immediate_map_reducer.hpp).
struct DenseMapReduce {
  static constexpr const char* name = "graphblas";
  template <int R, class F, class... Vs>
  static std::array<double, R> run(F f, Vs&... vectors) {
    return map_reduce<R>(f, vectors...);
  }
};
template <int R>
using MapReducer = spgraph::detail::ImmediateMapReducer<R, DenseMapReduce>;

}  // namespace spgraph::graphblas
