#include "device_compare.hpp"

#include <cub/device/device_segmented_sort.cuh>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

namespace spgraph::bench {
namespace {

constexpr int kBlock = 256;
using ull = unsigned long long;

int grid_for(std::int64_t n) {
  std::int64_t blocks = (n + kBlock - 1) / kBlock;
  return static_cast<int>(blocks < 65535 * 16 ? (blocks > 0 ? blocks : 1) : 65535 * 16);
}

// Filled by the comparison kernels. A non-negative double's bit pattern orders as the double
// does, so the maximum error is kept with an integer atomicMax.
struct Stats {
  ull value_mismatches;
  ull first_value_mismatch;
  ull max_error_bits;
  ull index_mismatches;  // row offsets or column ids that differ
  ull first_index_mismatch;
};

__device__ double relative_error(double a, double b) {
  if (a == b) return 0;
  if (a != a || b != b) return INFINITY;
  return fabs(a - b) / fmax(fabs(a), fabs(b));
}

__device__ void record_value(Stats* s, std::int64_t i, double err, double tol) {
  if (err > 0) atomicMax(&s->max_error_bits, static_cast<ull>(__double_as_longlong(err)));
  if (err > tol) {
    atomicAdd(&s->value_mismatches, 1ull);
    atomicMin(&s->first_value_mismatch, static_cast<ull>(i));
  }
}

__device__ void record_index(Stats* s, std::int64_t i) {
  atomicAdd(&s->index_mismatches, 1ull);
  atomicMin(&s->first_index_mismatch, static_cast<ull>(i));
}

template <class V>
__global__ void compare_dense(const V* got, const V* want, std::int64_t n, double tol, Stats* s) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    record_value(s, i, relative_error(double(got[i]), double(want[i])), tol);
}

template <class OffW, class OffG>
__global__ void compare_offsets(const OffW* want, const OffG* got, std::int64_t n, Stats* s) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    if (std::int64_t(want[i]) != std::int64_t(got[i])) record_index(s, i);
}

// A null value array is a pattern matrix: every entry is 1.
template <class V>
__global__ void compare_entries(const vid_t* want_col, const V* want_val, const std::int32_t* got_col,
                                const V* got_val, std::int64_t nnz, double tol, Stats* s) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < nnz;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    if (want_col[i] != got_col[i]) record_index(s, i);
    double w = want_val ? double(want_val[i]) : 1.0;
    double g = got_val ? double(got_val[i]) : 1.0;
    record_value(s, i, relative_error(g, w), tol);
  }
}

// One pass's statistics on the device, read back after the kernel.
class DeviceStats {
 public:
  DeviceStats() : buf_(1) {
    Stats init{0, ~0ull, 0, 0, ~0ull};
    SPGRAPH_CUDA(cudaMemcpyAsync(buf_.data(), &init, sizeof init, cudaMemcpyHostToDevice, 0));
  }
  Stats* get() { return buf_.data(); }
  Stats read() const { return buf_.download()[0]; }

 private:
  device::Buffer<Stats> buf_;
};

double as_double(ull bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

std::string format_error(double e) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", e);
  return buf;
}

template <class V, class OffG>
struct CsrArrays {
  std::int64_t nrows, ncols, nnz;
  const OffG* rowptr;
  const std::int32_t* col;
  const V* val;  // null: pattern
};

template <class V, class OffG>
Stats compare_entry_arrays(const device::DeviceCsr<V>& want, const CsrArrays<V, OffG>& got, double tol) {
  DeviceStats stats;
  if (want.nnz() > 0) {
    compare_entries<<<grid_for(want.nnz()), kBlock>>>(want.col.data(), want.val.empty() ? nullptr : want.val.data(),
                                                      got.col, got.val, want.nnz(), tol, stats.get());
    SPGRAPH_CHECK_LAUNCH("compare_entries");
  }
  return stats.read();
}

// Sorts (column, value) within each row of a copy of `got`, then compares again.
template <class V>
Stats compare_sorted_copy(const device::DeviceCsr<V>& want, const CsrArrays<V, std::int32_t>& got, double tol) {
  device::Buffer<std::int32_t> col(got.nnz);
  device::Buffer<V> val(got.nnz);
  std::size_t temp_bytes = 0;
  SPGRAPH_CUDA(cub::DeviceSegmentedSort::SortPairs(nullptr, temp_bytes, got.col, col.data(), got.val, val.data(),
                                                   got.nnz, got.nrows, got.rowptr, got.rowptr + 1, 0));
  device::Buffer<char> temp(temp_bytes);
  SPGRAPH_CUDA(cub::DeviceSegmentedSort::SortPairs(temp.data(), temp_bytes, got.col, col.data(), got.val,
                                                   val.data(), got.nnz, got.nrows, got.rowptr, got.rowptr + 1, 0));
  CsrArrays<V, std::int32_t> sorted = got;
  sorted.col = col.data();
  sorted.val = val.data();
  return compare_entry_arrays(want, sorted, tol);
}

template <class V, class OffG>
CsrComparison compare_csr_arrays(const device::DeviceCsr<V>& want, const CsrArrays<V, OffG>& got, double tol) {
  CsrComparison result;
  auto size = [](std::int64_t r, std::int64_t c) { return std::to_string(r) + "x" + std::to_string(c); };
  if (want.nrows != got.nrows || want.ncols != got.ncols) {
    result.difference = "size " + size(got.nrows, got.ncols) + " instead of " + size(want.nrows, want.ncols);
    return result;
  }
  if (want.nnz() != got.nnz) {
    result.difference = got.nnz == 0 ? "empty result (0 nonzeros instead of " + std::to_string(want.nnz()) + ")"
                                     : std::to_string(got.nnz) + " nonzeros instead of " + std::to_string(want.nnz());
    return result;
  }
  if (!want.rowptr.empty()) {
    DeviceStats stats;
    compare_offsets<<<grid_for(want.nrows + 1), kBlock>>>(want.rowptr.data(), got.rowptr, want.nrows + 1,
                                                          stats.get());
    SPGRAPH_CHECK_LAUNCH("compare_offsets");
    Stats s = stats.read();
    if (s.index_mismatches) {
      ull row = s.first_index_mismatch > 0 ? s.first_index_mismatch - 1 : 0;
      result.difference = "row lengths differ, first at row " + std::to_string(row) + " (" +
                          std::to_string(s.index_mismatches) + " row offsets differ)";
      return result;
    }
  }
  Stats s = compare_entry_arrays(want, got, tol);
  if constexpr (std::is_same_v<OffG, std::int32_t>) {
    if (s.index_mismatches) s = compare_sorted_copy(want, got, tol);
  }
  result.max_relative_error = as_double(s.max_error_bits);
  if (s.index_mismatches)
    result.difference = "column ids differ at " + std::to_string(s.index_mismatches) + " of " +
                        std::to_string(want.nnz()) + " entries (first: entry " +
                        std::to_string(s.first_index_mismatch) + ")";
  else if (s.value_mismatches)
    result.difference = "values differ at " + std::to_string(s.value_mismatches) + " of " +
                        std::to_string(want.nnz()) + " entries (max relative error " +
                        format_error(result.max_relative_error) + ")";
  return result;
}

}  // namespace

template <class V>
VectorComparison compare_vectors(const V* got, const V* want, std::size_t n, double relative_tolerance) {
  DeviceStats stats;
  if (n > 0) {
    compare_dense<<<grid_for(n), kBlock>>>(got, want, static_cast<std::int64_t>(n), relative_tolerance, stats.get());
    SPGRAPH_CHECK_LAUNCH("compare_dense");
  }
  Stats s = stats.read();
  VectorComparison result;
  result.mismatches = static_cast<long long>(s.value_mismatches);
  result.first_mismatch = s.value_mismatches ? static_cast<long long>(s.first_value_mismatch) : -1;
  result.max_relative_error = as_double(s.max_error_bits);
  return result;
}

template <class V>
CsrComparison compare_csr(const device::DeviceCsr<V>& want, const CusparseCsr<V>& got, double relative_tolerance) {
  CsrArrays<V, std::int32_t> arrays{got.nrows, got.ncols, got.nnz, got.rowptr.data(), got.col.data(),
                                    got.val.data()};
  return compare_csr_arrays(want, arrays, relative_tolerance);
}

template <class V>
CsrComparison compare_csr(const device::DeviceCsr<V>& want, const device::DeviceCsr<V>& got,
                          double relative_tolerance) {
  CsrArrays<V, eid_t> arrays{got.nrows, got.ncols, got.nnz(), got.rowptr.data(), got.col.data(),
                             got.val.empty() ? nullptr : got.val.data()};
  return compare_csr_arrays(want, arrays, relative_tolerance);
}

#define SPGRAPH_BENCH_COMPARE(V)                                                                         \
  template VectorComparison compare_vectors<V>(const V*, const V*, std::size_t, double);                  \
  template CsrComparison compare_csr<V>(const device::DeviceCsr<V>&, const CusparseCsr<V>&, double);      \
  template CsrComparison compare_csr<V>(const device::DeviceCsr<V>&, const device::DeviceCsr<V>&, double);
SPGRAPH_BENCH_COMPARE(float)
SPGRAPH_BENCH_COMPARE(double)
#undef SPGRAPH_BENCH_COMPARE

}  // namespace spgraph::bench
