#pragma once
// Result checks on the device (a wb-edu-sized A^2 is too big to compare on the host in a
// benchmark run): a result's time counts only after it matched the reference.
//
// Relative error of two entries: |a - b| / max(|a|, |b|), 0 when both are equal (both zero
// included), infinite when either is NaN.
#include <cstddef>
#include <string>

#include "cusparse_csr.hpp"
#include "spgraph/device/device_csr.hpp"

namespace spgraph::bench {

struct VectorComparison {
  long long mismatches = 0;  // entries whose relative error exceeds the tolerance
  long long first_mismatch = -1;
  double max_relative_error = 0;
  bool equal() const { return mismatches == 0; }
};

template <class V>
VectorComparison compare_vectors(const V* got, const V* want, std::size_t n, double relative_tolerance);

struct CsrComparison {
  std::string difference;  // empty when equal; otherwise what differs, in words, for the table
  double max_relative_error = 0;
  bool equal() const { return difference.empty(); }
};

// `want` is the reference (ours, columns sorted within rows). A cuSPARSE result whose columns
// come unsorted within rows is sorted on a copy before its entries are compared.
template <class V>
CsrComparison compare_csr(const device::DeviceCsr<V>& want, const CusparseCsr<V>& got, double relative_tolerance);
template <class V>
CsrComparison compare_csr(const device::DeviceCsr<V>& want, const device::DeviceCsr<V>& got,
                          double relative_tolerance);

}  // namespace spgraph::bench
