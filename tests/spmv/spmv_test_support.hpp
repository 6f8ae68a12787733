#pragma once
// Shared by the SpMV tests: matrices with the row-length shapes the kernels must survive, the
// GraphBLAS backend as the oracle, and comparison within a tolerance scaled to each row.
//
// Random matrices and vectors hold multiples of 1/4 in [-1, 1]: every sum of their products
// is exact in float and double in any order, so a difference is a bug, not rounding. The real
// graphs use arbitrary values and rely on the tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/gpu/spmv.hpp"
#include "spgraph/graphblas/operations.hpp"
#include "matrix_support.hpp"
#include "test_support.hpp"

namespace spgraph::test::spmv {

namespace gb = spgraph::graphblas;

inline constexpr SpmvKernel kKernels[] = {SpmvKernel::CsrVector,       SpmvKernel::CsrMergePath,
                                          SpmvKernel::CsrStream,       SpmvKernel::CooLoadBalanced,
                                          SpmvKernel::SellP,           SpmvKernel::Hyb,
                                          SpmvKernel::Amb};

enum class Op { Mxv, Vxm };
inline const char* op_name(Op op) { return op == Op::Mxv ? "mxv" : "vxm"; }

inline double dyadic(std::mt19937_64& rng) { return double(std::uniform_int_distribution<int>(-4, 4)(rng)) / 4.0; }

// Rows of the given lengths with distinct random columns, sorted, and dyadic values.
inline Csr<double> random_csr(vid_t ncols, const std::vector<eid_t>& lengths, std::mt19937_64& rng) {
  Csr<double> a;
  a.nrows = vid_t(lengths.size());
  a.ncols = ncols;
  a.rowptr.assign(lengths.size() + 1, 0);
  std::uniform_int_distribution<vid_t> any_col(0, std::max<vid_t>(ncols - 1, 0));
  std::vector<vid_t> row;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const eid_t len = std::min<eid_t>(lengths[i], ncols);
    row.clear();
    if (len * 4 > ncols) {  // dense row: selection sampling keeps exactly len columns, in order
      eid_t needed = len;
      for (vid_t c = 0; c < ncols && needed > 0; ++c)
        if (std::uniform_int_distribution<eid_t>(0, ncols - c - 1)(rng) < needed) {
          row.push_back(c);
          --needed;
        }
    } else {
      while (eid_t(row.size()) < len) {
        while (eid_t(row.size()) < len) row.push_back(any_col(rng));
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
      }
    }
    a.col.insert(a.col.end(), row.begin(), row.end());
    a.rowptr[i + 1] = a.rowptr[i] + eid_t(row.size());
  }
  a.val.resize(a.col.size());
  for (double& v : a.val) v = dyadic(rng);
  return a;
}

struct NamedMatrix {
  std::string name;
  Csr<double> matrix;
};

// The shapes: degenerate sizes, empty rows, one very long row, power-law rows, rectangular,
// perfectly regular rows (SELL-P/HYB without padding), a regular body with a few long rows, and
// one past 2^16 rows and columns.
inline const std::vector<NamedMatrix>& shape_zoo() {
  static const std::vector<NamedMatrix> zoo = [] {
    std::mt19937_64 rng(20260522);
    std::vector<NamedMatrix> z;
    auto lengths = [&](std::size_t n, int lo, int hi) {
      std::vector<eid_t> l(n);
      for (auto& x : l) x = std::uniform_int_distribution<int>(lo, hi)(rng);
      return l;
    };
    z.push_back({"0x0", random_csr(0, {}, rng)});
    z.push_back({"1x1", random_csr(1, {1}, rng)});
    z.push_back({"1x1 without entries", random_csr(1, {0}, rng)});
    z.push_back({"50x50 without entries", random_csr(50, std::vector<eid_t>(50, 0), rng)});
    {
      auto l = lengths(1000, 1, 20);
      for (auto& x : l)
        if (std::uniform_real_distribution<double>(0, 1)(rng) < 0.6) x = 0;
      z.push_back({"1000x700, 60% empty rows", random_csr(700, l, rng)});
    }
    {
      auto l = lengths(3000, 0, 8);
      l[1234] = 200000;
      z.push_back({"3000x250000 with one 200k-entry row", random_csr(250000, l, rng)});
    }
    {
      // Pareto row lengths (exponent about 2.1), a tenth of the rows empty.
      std::vector<eid_t> l(20000);
      for (auto& x : l) {
        const double u = std::uniform_real_distribution<double>(1e-9, 1)(rng);
        x = u < 0.1 ? 0 : std::min<eid_t>(5000, eid_t(std::pow(u, -1.0 / 1.1)));
      }
      z.push_back({"20000x20000 power-law rows", random_csr(20000, l, rng)});
    }
    z.push_back({"300x5000", random_csr(5000, lengths(300, 0, 60), rng)});
    // Mean row above 64: CSR stream reduces each row with a full warp.
    z.push_back({"2000x3000, 100-200 per row", random_csr(3000, lengths(2000, 100, 200), rng)});
    z.push_back({"5000x300", random_csr(300, lengths(5000, 0, 12), rng)});
    z.push_back({"40000x40000, 7 per row", random_csr(40000, std::vector<eid_t>(40000, 7), rng)});
    {
      std::vector<eid_t> l(10000, 5);
      for (int k = 0; k < 20; ++k) l[std::size_t(k) * 487] = 3000;
      z.push_back({"10000x10000, 5 per row and 20 rows of 3000", random_csr(10000, l, rng)});
    }
    {
      // Past 2^16 rows and columns (AMB's tiles), 70% empty rows, and a row holding every column,
      // whose 65,536 entries in the first column tile are more than an AMB segment holds.
      auto l = lengths(140000, 1, 6);
      for (auto& x : l)
        if (std::uniform_real_distribution<double>(0, 1)(rng) < 0.7) x = 0;
      l[70001] = 200000;
      z.push_back({"140000x200000 with a full row", random_csr(200000, l, rng)});
    }
    return z;
  }();
  return zoo;
}

inline std::vector<double> random_vector(std::size_t n, std::mt19937_64& rng) {
  std::vector<double> x(n);
  for (double& v : x) v = dyadic(rng);
  return x;
}

// 0 (masked out) for about a third of the entries; nonzero values of either sign otherwise.
inline std::vector<double> random_mask(std::size_t n, std::mt19937_64& rng) {
  static constexpr double kChoices[] = {0, 0, 1, -2, 0.5, 0};
  std::vector<double> m(n);
  for (double& v : m) v = kChoices[std::uniform_int_distribution<int>(0, 5)(rng)];
  return m;
}

template <class To, class From>
std::vector<To> convert(const std::vector<From>& v) {
  return std::vector<To>(v.begin(), v.end());
}

// Descriptor semantics on a dense mask, written from descriptor.hpp for the checks that cannot
// use the oracle.
inline bool mask_allows(const std::vector<double>* mask, const Descriptor& d, std::size_t i) {
  const bool present = mask == nullptr || d.mask_structural || (*mask)[i] != 0;
  return present != d.mask_complement;
}

// The matrix whose rows the product reduces: A for plain mxv and vxm with transpose_b,
// A' otherwise.
inline const Csr<double>& operand_rows(Op op, const Descriptor& d, const Csr<double>& a, const Csr<double>& at) {
  const bool transposed = op == Op::Mxv ? d.transpose_a : d.transpose_b;
  return (op == Op::Mxv) != transposed ? a : at;
}

// y<mask> = A x or x' A by the graphblas backend, in double (so a float result is compared with
// the exact value of its float inputs). Or-and has no lor monoid over double in GraphBLAS; it
// runs over bool, which semiring.hpp's or-and equals on 0/1 values (y_old must be 0/1 there).
template <class SR>
std::vector<double> graphblas_product(Op op, const Csr<double>& a, const std::vector<double>& x,
                                      const std::vector<double>* mask, const std::vector<double>& y_old,
                                      const Descriptor& desc) {
  auto run = [&](auto sr, const auto& ga, const auto& gx, const auto* gm, auto& gy) {
    if (op == Op::Mxv) gb::mxv(gy, gm, ga, gx, sr, desc);
    else gb::vxm(gy, gm, gx, ga, sr, desc);
  };
  if constexpr (std::is_same_v<SR, OrAnd>) {
    const auto ga = gb::from_host(convert_values<bool>(a));
    const auto gx = gb::from_host(convert<bool>(x));
    gb::Vector<bool> gm;
    if (mask) gm = gb::from_host(convert<bool>(*mask));
    auto gy = gb::from_host(convert<bool>(y_old));
    run(OrAnd{}, ga, gx, mask ? &gm : nullptr, gy);
    return convert<double>(gb::to_host(gy));
  } else {
    const auto ga = gb::from_host(a);
    const auto gx = gb::from_host(x);
    gb::Vector<double> gm;
    if (mask) gm = gb::from_host(*mask);
    auto gy = gb::from_host(y_old);
    run(SR{}, ga, gx, mask ? &gm : nullptr, gy);
    return gb::to_host(gy);
  }
}

// Per output, the sum of |term| over its row: the scale of a plus-reduction's rounding error.
template <class SR>
std::vector<double> term_magnitudes(Op op, const Csr<double>& rows, const std::vector<double>& x) {
  std::vector<double> s(std::size_t(rows.nrows), 0.0);
  for (vid_t i = 0; i < rows.nrows; ++i)
    for (eid_t p = rows.rowptr[i]; p < rows.rowptr[i + 1]; ++p) {
      const vid_t k = rows.col[p];
      const double a = rows.is_pattern() ? 1.0 : rows.val[p];
      const double t = op == Op::Mxv ? SR::template multiply<double>(a, x[k], k)
                                     : SR::template multiply<double>(x[k], a, k);
      s[i] += std::abs(t);
    }
  return s;
}

// got within 1e-5 (float) or 1e-12 (double) of expected, relative to the row's term
// magnitudes for plus and to the value itself for the other monoids (exact but for the
// rounding of one product); infinities (min/max identities: empty rows, positions cleared by
// replace) and NaN match only themselves. Reports the first few differences.
template <class SR, class V>
void expect_close(const std::vector<V>& got, const std::vector<double>& expected, const std::vector<double>& scale,
                  const std::string& what) {
  ASSERT_EQ(got.size(), expected.size()) << what;
  constexpr bool plus = std::is_same_v<typename SR::add_monoid, monoid::Plus>;
  int reported = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double e = expected[i];
    const double s = plus && i < scale.size() ? std::max(scale[i], std::abs(e)) : std::abs(e);
    const auto r = within_tolerance(double(got[i]), e, kRelativeTolerance<V> * s);
    if (r) continue;
    ADD_FAILURE() << what << ": y[" << i << "]: " << r.message();
    if (++reported == 5) return;
  }
}

// any.secondi: where the mask allows i and its row has entries, y[i] must be the column k of
// one of them (any of them); elsewhere the value is determined as for every semiring.
template <class V>
void expect_valid_any_secondi(const std::vector<V>& got, const Csr<double>& rows, const std::vector<double>* mask,
                              const std::vector<double>& y_old, const Descriptor& desc, const std::string& what) {
  ASSERT_EQ(got.size(), std::size_t(rows.nrows)) << what;
  int reported = 0;
  for (vid_t i = 0; i < rows.nrows; ++i) {
    const double g = double(got[i]);
    const auto begin = rows.col.begin() + rows.rowptr[i], end = rows.col.begin() + rows.rowptr[i + 1];
    std::string problem;
    if (!mask_allows(mask, desc, i)) {
      const double kept = desc.replace ? double(AnySecondI::identity<V>()) : double(V(y_old[i]));
      if (g != kept) problem = "masked out, expected " + std::to_string(kept);
    } else if (begin == end) {
      if (g != double(AnySecondI::identity<V>())) problem = "empty row, expected the no-parent marker -1";
    } else if (g != std::floor(g) || !std::binary_search(begin, end, vid_t(g))) {
      problem = "not the column of an entry of the row";
    }
    if (!problem.empty()) {
      ADD_FAILURE() << what << ": y[" << i << "] = " << g << ": " << problem;
      if (++reported == 5) return;
    }
  }
}

template <class V>
gpu::Vector<V> to_device(const std::vector<double>& v) {
  gpu::Vector<V> d;
  d.upload(convert<V>(v));
  return d;
}

// One product on the gpu backend, its result on the host.
template <class SR, class V>
std::vector<V> gpu_product(Op op, const gpu::Matrix<V>& a, const std::vector<double>& x,
                           const std::vector<double>* mask, const std::vector<double>& y_old, const Descriptor& desc,
                           SpmvKernel kernel) {
  const gpu::Vector<V> dx = to_device<V>(x);
  gpu::Vector<V> dmask;
  if (mask) dmask = to_device<V>(*mask);
  gpu::Vector<V> dy = to_device<V>(y_old);
  SpmvOptions options;
  options.kernel = kernel;
  if (op == Op::Mxv) gpu::mxv(dy, mask ? &dmask : nullptr, a, dx, SR{}, desc, options);
  else gpu::vxm(dy, mask ? &dmask : nullptr, dx, a, SR{}, desc, options);
  return dy.download();
}

// Every kernel's y<mask> = A x (or x' A) against the oracle, for one matrix and descriptor.
// y starts from arbitrary old values (0/1 for or-and) so kept positions are visible.
template <class SR, class V>
void check_kernels(Op op, const Csr<double>& a, const Csr<double>& at, const gpu::Matrix<V>& ga,
                   const std::vector<double>* mask, const Descriptor& desc, std::mt19937_64& rng,
                   const std::string& what) {
  const Csr<double>& rows = operand_rows(op, desc, a, at);
  const std::vector<double> x = random_vector(std::size_t(rows.ncols), rng);
  std::vector<double> y_old = random_vector(std::size_t(rows.nrows), rng);
  if constexpr (std::is_same_v<SR, OrAnd>)
    for (double& v : y_old) v = v > 0 ? 1.0 : 0.0;
  constexpr bool any_secondi = std::is_same_v<SR, AnySecondI>;
  std::vector<double> expected, scale;
  if constexpr (!any_secondi) {
    if (rows.nrows > 0 && rows.ncols > 0) {
      expected = graphblas_product<SR>(op, a, x, mask, y_old, desc);
      scale = term_magnitudes<SR>(op, rows, x);
    } else {  // nothing to multiply (GraphBLAS is not asked about empty vectors)
      for (std::size_t i = 0; i < y_old.size(); ++i)
        expected.push_back(mask_allows(mask, desc, i) || desc.replace ? SR::template identity<double>() : y_old[i]);
    }
  }
  for (SpmvKernel k : kKernels) {
    const std::string label = what + ", " + op_name(op) + ", kernel " + gpu::spmv_kernel_name(k);
    const std::vector<V> got = gpu_product<SR, V>(op, ga, x, mask, y_old, desc, k);
    if constexpr (any_secondi) expect_valid_any_secondi(got, rows, mask, y_old, desc, label);
    else expect_close<SR>(got, expected, scale, label);
  }
}

}  // namespace spgraph::test::spmv
