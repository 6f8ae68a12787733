#pragma once
// The passes PageRank's iteration is built on, B::map_reduce and B::MxvReducer (a
// product chained with a pass over its rows), checked on their own with results known exactly,
// for both backends: each backend's test file instantiates these with its own B.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <algorithm>
#include <random>

#include "spgraph/csr.hpp"
#include "spgraph/error.hpp"
#include "spgraph/operations.hpp"
#include "spgraph/semiring.hpp"
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
  const auto dx = B::from_host(x);  // read alone: passed const
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

template <class Call>
void expect_error(Call call, const std::string& says) {
  try {
    call();
    ADD_FAILURE() << "no error; expected one saying '" << says << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

// finish() without a started pass, or a second start() before finish(), is a caller's
// mistake that would lose or mix up sums.
template <class B>
void check_reducer_call_order_enforced() {
  auto a = B::from_host(std::vector<double>(10, 1.0));
  auto b = B::from_host(std::vector<double>(10, 1.0));
  typename B::template MapReducer<3> pass;
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

// ---- MxvReducer ------------------------------------------------------------------------

// y = w + prev[1] * z for the product's row w; sums: w and the new y. Chained passes see the
// previous pass's sum of y, so a pass that read the wrong totals gives a different y.
struct ProductPlusPrev {
  SPGRAPH_HD void operator()(std::size_t i, double w, double (&acc)[2], const double (&prev)[2], double* y,
                             const double* z) const {
    y[i] = w + prev[1] * z[i];
    acc[0] += w;
    acc[1] += y[i];
  }
};

// Rows of up to the given lengths (random columns, duplicates dropped); values 1..3 (none for a pattern),
// x in 0..3 and z in {0, 1}: every product, row and sum below is an integer below 2^53, so
// exact in double whatever the order.
struct MxvReduceCase {
  std::string name;
  Csr<double> a;
  std::vector<double> x, z;
};

inline MxvReduceCase mxv_reduce_case(const std::string& name, vid_t ncols, const std::vector<eid_t>& lengths,
                                     bool valued, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  MxvReduceCase c{name, {}, {}, {}};
  Csr<double>& a = c.a;
  a.nrows = vid_t(lengths.size());
  a.ncols = ncols;
  a.rowptr.assign(1, 0);
  for (eid_t len : lengths) {
    std::vector<vid_t> row;
    for (eid_t k = 0; k < len; ++k) row.push_back(vid_t(rng() % std::uint64_t(ncols)));
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    a.col.insert(a.col.end(), row.begin(), row.end());
    a.rowptr.push_back(eid_t(a.col.size()));
  }
  if (valued)
    for (std::size_t p = 0; p < a.col.size(); ++p) a.val.push_back(double(1 + rng() % 3));
  for (vid_t j = 0; j < ncols; ++j) c.x.push_back(double(rng() % 4));
  for (vid_t i = 0; i < a.nrows; ++i) c.z.push_back(double(rng() % 2));
  return c;
}

// n row lengths drawn uniformly from 0..max_len.
inline std::vector<eid_t> random_row_lengths(std::mt19937_64& rng, std::size_t n, int max_len) {
  std::vector<eid_t> l(n);
  for (auto& v : l) v = eid_t(rng() % std::uint64_t(max_len + 1));
  return l;
}

// Empty rows and one row longer than a CSR-stream tile; a rectangular matrix; enough rows
// for thousands of blocks (every block's partial counted); a pattern matrix.
inline std::vector<MxvReduceCase> mxv_reduce_cases() {
  std::mt19937_64 rng(7);
  auto lengths = [&](std::size_t n, int max_len) { return random_row_lengths(rng, n, max_len); };
  std::vector<eid_t> long_row = lengths(3000, 12);
  for (std::size_t i = 0; i < long_row.size(); i += 7) long_row[i] = 0;
  long_row[17] = 1900;
  return {mxv_reduce_case("empty rows, one long row", 2000, long_row, true, 1),
          mxv_reduce_case("rectangular 500 x 4000", 4000, lengths(500, 40), true, 2),
          mxv_reduce_case("many blocks", 300'000, lengths(300'000, 16), true, 3),
          mxv_reduce_case("pattern", 50'000, lengths(50'000, 10), false, 4)};
}

// Two chained passes, the second started before the first is finished (as PageRank runs
// them); each pass's y and sums must be exact.
template <class B>
void check_chained_passes(const MxvReduceCase& c, SpmvKernel kernel) {
  const std::size_t n = static_cast<std::size_t>(c.a.nrows);
  std::vector<double> w(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (eid_t p = c.a.rowptr[i]; p < c.a.rowptr[i + 1]; ++p)
      w[i] += (c.a.is_pattern() ? 1.0 : c.a.val[p]) * c.x[c.a.col[p]];
  double prev = 5;  // the seed's second total
  std::vector<std::vector<double>> y_expected;
  std::vector<std::array<double, 2>> sums_expected;
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<double> y(n);
    std::array<double, 2> sums{};
    for (std::size_t i = 0; i < n; ++i) {
      y[i] = w[i] + prev * c.z[i];
      sums[0] += w[i];
      sums[1] += y[i];
    }
    prev = sums[1];
    y_expected.push_back(y);
    sums_expected.push_back(sums);
  }

  auto A = B::from_host(c.a);
  auto x = B::from_host(c.x);
  const auto z = B::from_host(c.z);  // read alone by the pass: passed const
  typename B::template Vector<double> y[2] = {B::from_host(std::vector<double>(n, -1.0)),
                                              B::from_host(std::vector<double>(n, -1.0))};
  typename B::template MxvReducer<double, 2> pass;
  pass.seed({0.0, 5.0});
  pass.prepare(A, SpmvOptions{kernel});  // (MxvReducerGpu.AlternatingSemirings... starts without)
  pass.start(ProductPlusPrev{}, A, x, PlusTimes{}, SpmvOptions{kernel}, y[0], z);
  pass.start(ProductPlusPrev{}, A, x, PlusTimes{}, SpmvOptions{kernel}, y[1], z);
  for (int p = 0; p < 2; ++p) {
    SCOPED_TRACE("pass " + std::to_string(p + 1));
    const auto sums = pass.finish();
    EXPECT_EQ(sums[0], sums_expected[p][0]);
    EXPECT_EQ(sums[1], sums_expected[p][1]);
  }
  for (int p = 0; p < 2; ++p) {
    const std::vector<double> got = B::to_host(y[p]);
    ASSERT_EQ(got.size(), n);
    for (std::size_t i = 0; i < n; ++i)
      if (got[i] != y_expected[p][i]) FAIL() << "pass " << p + 1 << ": y[" << i << "] = " << got[i] << ", expected " << y_expected[p][i];
  }
}

// Reads and writes through whatever the backend hands the functor (pointers, or the gpu
// backend's views with their cache hints, device/cache_hints.hpp), for every element width
// the views treat apart: const 1-, 4- and 8-byte vectors, written 8-, 4- and 1-byte ones.
struct EveryWidth {
  template <class Y, class F, class Flag, class Byte, class Count, class Z>
  SPGRAPH_HD void operator()(std::size_t i, double w, double (&acc)[1], const double (&)[1], const Y& y, const F& f,
                             const Flag& flag, const Byte& byte, const Count& count, const Z& z) const {
    const double v = w + double(byte[i]) + double(count[i]) + z[i];
    y[i] = v;
    f[i] = float(v);
    flag[i] = std::uint8_t(byte[i] + 1);
    acc[0] += v;
  }
};

template <class B>
void check_views_of_every_width(const MxvReduceCase& c, SpmvKernel kernel) {
  const std::size_t n = static_cast<std::size_t>(c.a.nrows);
  std::vector<std::uint8_t> bytes(n);
  std::vector<std::int32_t> counts(n);
  for (std::size_t i = 0; i < n; ++i) {
    bytes[i] = std::uint8_t(i % 200);
    counts[i] = std::int32_t(i % 1000) - 500;
  }
  std::vector<double> expected(n, 0.0);
  double total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (eid_t p = c.a.rowptr[i]; p < c.a.rowptr[i + 1]; ++p)
      expected[i] += (c.a.is_pattern() ? 1.0 : c.a.val[p]) * c.x[c.a.col[p]];
    expected[i] += double(bytes[i]) + double(counts[i]) + c.z[i];
    total += expected[i];
  }
  auto A = B::from_host(c.a);
  const auto x = B::from_host(c.x), z = B::from_host(c.z);
  const auto byte = B::from_host(bytes);
  const auto count = B::from_host(counts);
  auto y = B::from_host(std::vector<double>(n, -1.0));
  auto f = B::from_host(std::vector<float>(n, -1.0f));
  auto flag = B::from_host(std::vector<std::uint8_t>(n, 0));
  typename B::template MxvReducer<double, 1> pass;
  pass.start(EveryWidth{}, A, x, PlusTimes{}, SpmvOptions{kernel}, y, f, flag, byte, count, z);
  EXPECT_EQ(pass.finish()[0], total);
  const std::vector<double> got_y = B::to_host(y);
  const std::vector<float> got_f = B::to_host(f);
  const std::vector<std::uint8_t> got_flag = B::to_host(flag);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(got_y[i], expected[i]) << "y[" << i << "]";
    ASSERT_EQ(got_f[i], float(expected[i])) << "f[" << i << "]";
    ASSERT_EQ(got_flag[i], bytes[i] + 1) << "flag[" << i << "]";
  }
}

// More than two passes in flight, finish() with none, seed() with one in flight, and vectors
// that do not match the product are the caller's mistakes, reported as such.
template <class B>
void check_mxv_reducer_misuse() {
  const MxvReduceCase c = mxv_reduce_case("small", 30, std::vector<eid_t>(20, 3), true, 9);
  auto A = B::from_host(c.a);
  auto x = B::from_host(c.x);
  auto z = B::from_host(c.z);
  auto y = B::from_host(std::vector<double>(20, 0.0));
  auto short_y = B::from_host(std::vector<double>(19, 0.0));
  typename B::template MxvReducer<double, 2> pass;
  expect_error([&] { pass.finish(); }, "no pass is");
  pass.start(ProductPlusPrev{}, A, x, PlusTimes{}, SpmvOptions{}, y, z);
  expect_error([&] { pass.seed({0.0, 0.0}); }, "finish() it first");
  pass.start(ProductPlusPrev{}, A, x, PlusTimes{}, SpmvOptions{}, y, z);
  expect_error([&] { pass.start(ProductPlusPrev{}, A, x, PlusTimes{}, SpmvOptions{}, y, z); }, "two passes");
  pass.finish();
  pass.finish();
  expect_error([&] { pass.start(ProductPlusPrev{}, A, x, PlusTimes{}, SpmvOptions{}, short_y, z); }, "19");
}

}  // namespace spgraph::test
