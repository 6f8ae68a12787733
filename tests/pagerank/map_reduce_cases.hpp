#pragma once
// The fused dense-vector pass (B::map_reduce, which PageRank's iteration is built on) checked
// on its own with sums known in closed form, for both backends: each backend's test file
// instantiates these with its own B.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "spgraph/error.hpp"
#include "spgraph/types.hpp"

namespace spgraph::test {

// y = 2x + y; sums: the new y, x^2, and a count of the indices visited.
struct AxpyAndSums {
  SPGRAPH_HD void operator()(std::size_t i, double (&acc)[3], const double* x, double* y) const {
    y[i] = 2 * x[i] + y[i];
    acc[0] += y[i];
    acc[1] += x[i] * x[i];
    acc[2] += 1;
  }
};

// n not a multiple of any block size, large enough for many blocks or threads. With
// x(i) = i mod 1000 and y(i) = 1 every sum is an integer below 2^53, so exact in double.
template <class B>
void check_axpy_and_sums(std::size_t n) {
  std::vector<double> x(n), y(n, 1.0);
  double sum_y = 0, sum_x2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = double(i % 1000);
    sum_y += 2 * x[i] + 1;
    sum_x2 += x[i] * x[i];
  }
  auto dx = B::from_host(x);
  auto dy = B::from_host(y);
  const auto sums = B::template map_reduce<3>(AxpyAndSums{}, dx, dy);
  EXPECT_EQ(sums[0], sum_y);
  EXPECT_EQ(sums[1], sum_x2);
  EXPECT_EQ(sums[2], double(n));
  const std::vector<double> y_after = B::to_host(dy);
  ASSERT_EQ(y_after.size(), n);
  for (std::size_t i = 0; i < n; ++i)
    if (y_after[i] != 2 * x[i] + 1) FAIL() << "y[" << i << "] = " << y_after[i];
  EXPECT_EQ(B::to_host(dx), x);  // read-only vectors stay as they were
}

// Repeated passes through one MapReducer, as an iterative algorithm runs them: each pass sees
// the previous pass's writes and finish() hands back that pass's own sums.
template <class B>
void check_repeated_passes(std::size_t n) {
  std::vector<double> x(n);
  double sum_x = 0, sum_x2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = double(i % 1000);
    sum_x += x[i];
    sum_x2 += x[i] * x[i];
  }
  auto dx = B::from_host(x);
  auto dy = B::from_host(std::vector<double>(n, 1.0));
  typename B::template MapReducer<3> pass;
  for (int p = 1; p <= 3; ++p) {
    SCOPED_TRACE("pass " + std::to_string(p));
    pass.start(AxpyAndSums{}, dx, dy);
    const auto sums = pass.finish();
    EXPECT_EQ(sums[0], double(n) + 2 * p * sum_x);  // y = 1 + 2p x after pass p
    EXPECT_EQ(sums[1], sum_x2);
    EXPECT_EQ(sums[2], double(n));
  }
  const std::vector<double> y_after = B::to_host(dy);
  for (std::size_t i = 0; i < n; ++i)
    if (y_after[i] != 1 + 6 * x[i]) FAIL() << "y[" << i << "] = " << y_after[i];
}

// Sums of values that round differently in every order (1/(i+1)) come out the same, to the
// last bit, pass after pass: PageRank's convergence test depends on it.
struct SumOfX {
  SPGRAPH_HD void operator()(std::size_t i, double (&acc)[1], const double* x) const { acc[0] += x[i]; }
};

template <class B>
void check_sums_are_deterministic(std::size_t n) {
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = 1.0 / double(i + 1);
  auto dx = B::from_host(x);
  typename B::template MapReducer<1> pass;
  pass.start(SumOfX{}, dx);
  const double first = pass.finish()[0];
  double harmonic = 0;
  for (double v : x) harmonic += v;
  EXPECT_NEAR(first, harmonic, 1e-12 * harmonic);
  for (int p = 0; p < 5; ++p) {
    pass.start(SumOfX{}, dx);
    EXPECT_EQ(pass.finish()[0], first);
  }
}

// finish() without a started pass, or a second start() before finish(), is a caller's
// mistake that would lose or mix up sums.
template <class B>
void check_reducer_call_order_enforced() {
  auto a = B::from_host(std::vector<double>(10, 1.0));
  auto b = B::from_host(std::vector<double>(10, 1.0));
  typename B::template MapReducer<3> pass;
  auto expect_error = [](auto call, const std::string& says) {
    try {
      call();
      ADD_FAILURE() << "no error; expected one saying '" << says << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  expect_error([&] { pass.finish(); }, "no pass was started");
  pass.start(AxpyAndSums{}, a, b);
  expect_error([&] { pass.start(AxpyAndSums{}, a, b); }, "call finish() first");
  EXPECT_EQ(pass.finish()[2], 10.0);
}

template <class B>
void check_length_mismatch_throws() {
  auto a = B::from_host(std::vector<double>(10, 1.0));
  auto b = B::from_host(std::vector<double>(11, 1.0));
  try {
    B::template map_reduce<3>(AxpyAndSums{}, a, b);
    FAIL() << "no error for vectors of lengths 10 and 11";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("different lengths (10 and 11)"), std::string::npos) << e.what();
  }
}

}  // namespace spgraph::test
