#pragma once
// select on the GPU (spgraph/gpu/select.hpp), included by select_<type>.cu. The unmasked
// result T is A's entries that pass a test, flagged one thread per entry and compacted
// (compact.hpp); the mask is applied by write_masked. Lower and Upper keep a run of each sorted
// row instead, found by binary search and copied (docs/performance/tricount.md).
//
// Top-k: two stable CUB radix sorts order the entries by rank within their row (column): the
// first by a key that puts larger values first and NaN last, the second by row (column), so
// equal values keep A's order, which is the smaller column (row) first. An entry is kept when
// fewer than k entries of its segment come before it.
#include <cub/device/device_radix_sort.cuh>

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "compact.hpp"
#include "mask_write.hpp"
#include "row_offsets.hpp"
#include "device/cub_call.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "gpu/common/row_ids.hpp"
#include "spgraph/gpu/select.hpp"
#include "spgraph/gpu/transpose.hpp"

namespace spgraph::gpu {
// Internal to each per-type file that includes this (its kernels are not templates).
namespace {
namespace select_detail {

using Kind = SelectSpec::Kind;

struct KeepTest {
  Kind kind;
  double threshold;
  eid_t offset;

  template <class V>
  __device__ bool operator()(vid_t i, vid_t j, V v) const {
    const double x = double(v);
    const eid_t d = eid_t(j) - eid_t(i);
    switch (kind) {
      case Kind::GreaterEqual: return x >= threshold;
      case Kind::Greater: return x > threshold;
      case Kind::LessEqual: return x <= threshold;
      case Kind::Less: return x < threshold;
      case Kind::NotEqualZero: return x != 0.0;  // true for NaN
      case Kind::Diagonal: return d == offset;
      case Kind::OffDiagonal: return d != offset;
      default: return false;
    }
  }
};

// rows: A's row ids, or nullptr when the test reads values only.
template <class V>
__global__ void flag_kernel(device::CsrView<V> a, const vid_t* __restrict__ rows, KeepTest test,
                            eid_t* __restrict__ keep) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; p < a.nnz; p += stride)
    keep[p] = test(rows ? rows[p] : 0, a.col[p], a.value(p)) ? 1 : 0;
}

// Lower and Upper keep one run of each (sorted) row: a prefix (columns <= i + offset) or a
// suffix (columns >= i + offset), found by a binary search per row.
template <class V>
__global__ void run_bounds_kernel(device::CsrView<V> a, bool lower, eid_t offset, eid_t* __restrict__ first,
                                  eid_t* __restrict__ counts) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < a.nrows; i += stride) {
    const eid_t p0 = a.rowptr[i], p1 = a.rowptr[i + 1];
    // The first position whose column is >= bound (lower: > i + offset, so bound = i + offset + 1).
    const eid_t bound = i + offset + (lower ? 1 : 0);
    eid_t lo = p0, hi = p1;
    while (lo < hi) {
      const eid_t mid = lo + (hi - lo) / 2;
      if (eid_t(a.col[mid]) < bound) lo = mid + 1;
      else hi = mid;
    }
    first[i] = lower ? p0 : lo;
    counts[i] = lower ? lo - p0 : p1 - lo;
  }
}

// Copies each row's run, a group of 8 threads per row (runs average a handful of entries and
// reach thousands).
template <class V>
__global__ void copy_runs_kernel(device::CsrView<V> a, const eid_t* __restrict__ first,
                                 const eid_t* __restrict__ out_rowptr, vid_t* __restrict__ col, V* __restrict__ val) {
  constexpr int kGroup = 8;
  const eid_t stride = eid_t(gridDim.x) * blockDim.x / kGroup;
  const int lane = threadIdx.x % kGroup;
  for (eid_t i = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) / kGroup; i < a.nrows; i += stride) {
    const eid_t src = first[i], out = out_rowptr[i], len = out_rowptr[i + 1] - out;
    for (eid_t t = lane; t < len; t += kGroup) {
      col[out + t] = a.col[src + t];
      if (val) val[out + t] = a.val[src + t];
    }
  }
}

template <class V>
device::DeviceCsr<V> select_run(const Matrix<V>& A, bool lower, eid_t offset) {
  const device::DeviceCsr<V>& a = A.csr();
  device::DeviceCsr<V> c;
  c.nrows = a.nrows;
  c.ncols = a.ncols;
  c.rowptr = device::Buffer<eid_t>(std::size_t(a.nrows) + 1);
  device::Buffer<eid_t> first(std::size_t(a.nrows) + 1);
  if (a.nrows > 0) {
    run_bounds_kernel<<<detail::ops_grid(a.nrows), detail::kOpsThreads>>>(a.view(), lower, offset, first.data(),
                                                                           c.rowptr.data());
    SPGRAPH_CHECK_LAUNCH("run_bounds_kernel");
  }
  const eid_t nnz = detail::counts_to_offsets(c.rowptr, a.nrows);
  c.col = device::Buffer<vid_t>(nnz);
  c.val = device::Buffer<V>(a.is_pattern() ? 0 : nnz);
  if (nnz > 0) {
    copy_runs_kernel<<<detail::ops_grid(eid_t(a.nrows) * 8), detail::kOpsThreads>>>(
        a.view(), first.data(), c.rowptr.data(), c.col.data(), a.is_pattern() ? nullptr : c.val.data());
    SPGRAPH_CHECK_LAUNCH("copy_runs_kernel");
  }
  return c;
}

// An unsigned key whose ascending order is "larger value first, NaN last"; equal values
// (0 and -0 included) get equal keys.
template <class V> struct RankKey { using type = std::conditional_t<sizeof(V) == 8, std::uint64_t, std::uint32_t>; };
template <class V>
__device__ typename RankKey<V>::type rank_key(V v) {
  using K = typename RankKey<V>::type;
  constexpr K sign = K(1) << (8 * sizeof(K) - 1);
  K ordered;  // increasing with v
  if constexpr (std::is_same_v<V, bool>) {
    ordered = v ? 1 : 0;
  } else if constexpr (std::is_floating_point_v<V>) {
    if (isnan(v)) return ~K(0);
    if (v == V(0)) v = V(0);
    const K bits = std::bit_cast<K>(v);
    ordered = (bits & sign) ? ~bits : (bits | sign);
  } else {
    ordered = K(v) ^ sign;
  }
  return ~ordered;  // never ~0 for a number: that would need ordered == 0, a NaN's pattern
}

template <class V, class K>
__global__ void rank_keys_kernel(device::CsrView<V> a, K* __restrict__ keys, eid_t* __restrict__ order) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; p < a.nnz; p += stride) {
    keys[p] = rank_key(a.value(p));
    order[p] = p;
  }
}

__global__ void gather_segments_kernel(const vid_t* __restrict__ segment_of, const eid_t* __restrict__ order, eid_t n,
                                       std::uint32_t* __restrict__ out) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t q = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; q < n; q += stride)
    out[q] = std::uint32_t(segment_of[order[q]]);
}

// segments sorted: the entry at q is kept when fewer than k entries of its segment precede it.
__global__ void keep_first_k_kernel(const std::uint32_t* __restrict__ segments, const eid_t* __restrict__ order,
                                    eid_t n, eid_t k, eid_t* __restrict__ keep) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t q = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; q < n; q += stride) {
    const std::uint32_t s = segments[q];
    eid_t lo = 0, hi = q;  // first position of segment s
    while (lo < hi) {
      const eid_t mid = (lo + hi) >> 1;
      if (segments[mid] < s) lo = mid + 1;
      else hi = mid;
    }
    keep[order[q]] = q - lo < k ? 1 : 0;
  }
}

template <class K, class Val>
void stable_sort_pairs(const K* keys_in, K* keys_out, const Val* vals_in, Val* vals_out, eid_t n, int end_bit) {
  device::run_cub(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, vals_in, vals_out, n, 0, end_bit, 0);
      },
      0);
}

int bits_for(vid_t count) { return count > 1 ? int(std::bit_width(unsigned(count - 1))) : 1; }

// keep[p] = 1 for the k entries of each row (by_rows) or column of a that rank first.
template <class V>
void flag_top_k(const Matrix<V>& A, bool by_rows, eid_t k, eid_t* keep) {
  const device::DeviceCsr<V>& a = A.csr();
  const eid_t nnz = a.nnz();
  using K = typename RankKey<V>::type;
  device::Buffer<K> keys(nnz), sorted_keys(nnz);
  device::Buffer<eid_t> order(nnz), by_value(nnz);
  rank_keys_kernel<<<detail::ops_grid(nnz), detail::kOpsThreads>>>(a.view(), keys.data(), order.data());
  SPGRAPH_CHECK_LAUNCH("rank_keys_kernel");
  stable_sort_pairs(keys.data(), sorted_keys.data(), order.data(), by_value.data(), nnz, int(8 * sizeof(K)));
  keys.release();
  sorted_keys.release();

  device::Buffer<vid_t> rows;
  if (by_rows) {
    rows = device::Buffer<vid_t>(nnz);
    expand_row_ids(a.rowptr.data(), a.nrows, nnz, rows.data());
  }
  device::Buffer<std::uint32_t> segments(nnz), sorted_segments(nnz);
  gather_segments_kernel<<<detail::ops_grid(nnz), detail::kOpsThreads>>>(by_rows ? rows.data() : a.col.data(),
                                                                        by_value.data(), nnz, segments.data());
  SPGRAPH_CHECK_LAUNCH("gather_segments_kernel");
  stable_sort_pairs(segments.data(), sorted_segments.data(), by_value.data(), order.data(), nnz,
                    bits_for(by_rows ? a.nrows : a.ncols));
  keep_first_k_kernel<<<detail::ops_grid(nnz), detail::kOpsThreads>>>(sorted_segments.data(), order.data(), nnz, k,
                                                                     keep);
  SPGRAPH_CHECK_LAUNCH("keep_first_k_kernel");
}

template <class V>
Matrix<V> unmasked_select(const Matrix<V>& A, const SelectSpec& spec) {
  const device::DeviceCsr<V>& a = A.csr();
  if (spec.kind == Kind::Lower || spec.kind == Kind::Upper)
    return Matrix<V>(select_run(A, spec.kind == Kind::Lower, spec.offset));
  const eid_t nnz = a.nnz();
  device::Buffer<eid_t> keep(std::size_t(nnz) + 1);
  if (spec.kind == Kind::TopKPerRow || spec.kind == Kind::TopKPerCol) {
    if (nnz > 0) flag_top_k(A, spec.kind == Kind::TopKPerRow, spec.k, keep.data());
  } else if (nnz > 0) {
    const bool positional = spec.kind == Kind::Diagonal || spec.kind == Kind::OffDiagonal;
    device::Buffer<vid_t> rows;
    if (positional) {
      rows = device::Buffer<vid_t>(nnz);
      expand_row_ids(a.rowptr.data(), a.nrows, nnz, rows.data());
    }
    const KeepTest test{spec.kind, spec.threshold, spec.offset};
    flag_kernel<<<detail::ops_grid(nnz), detail::kOpsThreads>>>(a.view(), positional ? rows.data() : nullptr, test,
                                                               keep.data());
    SPGRAPH_CHECK_LAUNCH("flag_kernel");
  }
  return Matrix<V>(detail::compact(A, keep));
}

}  // namespace select_detail
}  // namespace

template <class V>
void select(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const SelectSpec& spec,
            const Descriptor& desc) {
  using Kind = SelectSpec::Kind;
  if ((spec.kind == Kind::TopKPerRow || spec.kind == Kind::TopKPerCol) && spec.k < 0)
    throw Error(std::string("gpu: select: ") + (spec.kind == Kind::TopKPerRow ? "TopKPerRow" : "TopKPerCol") +
                " needs k >= 0, got " + std::to_string(spec.k));
  if (desc.transpose_b) throw Error("gpu: select: transpose_b is set but select has one input; use transpose_a");
  Matrix<V> T = desc.transpose_a ? select_detail::unmasked_select(transpose(A), spec)
                                 : select_detail::unmasked_select(A, spec);
  detail::write_masked(C, mask, std::move(T), desc);
}

}  // namespace spgraph::gpu

#define SPGRAPH_INSTANTIATE_SELECT(V)                                                                       \
  template void spgraph::gpu::select<V>(spgraph::gpu::Matrix<V>&, const spgraph::gpu::Matrix<V>*,           \
                                        const spgraph::gpu::Matrix<V>&, const spgraph::SelectSpec&,         \
                                        const spgraph::Descriptor&);
