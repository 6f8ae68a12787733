#pragma once
// mxm_reduce_rows (spgraph/gpu/mxm_reduce_rows.hpp): one thread per mask entry (i, j)
// intersects A's row i with row j of B' (both sorted), then the warp adds up the sums of
// consecutive entries of the same row and one lane per row adds them to y(i). Consecutive
// lanes take consecutive mask entries, so a warp mostly shares one row i of A (read through
// L1) and rows of any length spread over many warps.
//
// An intersection walks the shorter row and finds each of its columns in the longer one: by a
// merge when the two are of similar length, else by binary searches whose lower bound only
// moves forward. Triangle counting on a degree-ordered graph meets both: short rows against
// short rows, and the short rows of low-degree vertices against a hub's long one.
#include <cuda_runtime.h>

#include <optional>
#include <string>
#include <type_traits>

#include "gpu/common/row_ids.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/mxm_reduce_rows.hpp"
#include "spgraph/gpu/transpose.hpp"

namespace spgraph::gpu {
namespace mxm_reduce_detail {

constexpr int kThreads = 256;
constexpr unsigned kFullWarp = 0xffffffffu;

// First position in col[lo, hi) holding a column >= x.
__device__ __forceinline__ eid_t lower_bound(const vid_t* __restrict__ col, eid_t lo, eid_t hi, vid_t x) {
  while (lo < hi) {
    const eid_t mid = lo + (hi - lo) / 2;
    if (__ldg(col + mid) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// sum over k in A(i,:) and Bt(j,:) of multiply(A(i,k), Bt(j,k)).
template <class SR, class V, class T>
__device__ T row_dot(const device::CsrView<V>& a, vid_t i, const device::CsrView<V>& bt, vid_t j) {
  using Mult = typename SR::multiply_op;
  eid_t p = __ldg(a.rowptr + i), p1 = __ldg(a.rowptr + i + 1);
  eid_t q = __ldg(bt.rowptr + j), q1 = __ldg(bt.rowptr + j + 1);
  T sum = T(0);
  if (p == p1 || q == q1) return sum;
  auto add = [&](eid_t pa, eid_t pb, vid_t k) {
    const V av = Mult::uses_a ? a.value(pa) : V(1);
    const V bv = Mult::uses_b ? bt.value(pb) : V(1);
    sum += T(SR::template multiply<V>(av, bv, k));
  };
  const eid_t la = p1 - p, lb = q1 - q;
  if (la <= 8 * lb && lb <= 8 * la) {  // similar lengths: merge
    vid_t x = __ldg(a.col + p), z = __ldg(bt.col + q);
    while (true) {
      if (x == z) {
        add(p, q, x);
        if (++p == p1 || ++q == q1) break;
        x = __ldg(a.col + p);
        z = __ldg(bt.col + q);
      } else if (x < z) {
        if (++p == p1) break;
        x = __ldg(a.col + p);
      } else {
        if (++q == q1) break;
        z = __ldg(bt.col + q);
      }
    }
  } else if (la < lb) {  // each of A's columns searched in the long row of Bt
    for (; p < p1; ++p) {
      const vid_t k = __ldg(a.col + p);
      q = lower_bound(bt.col, q, q1, k);
      if (q == q1) break;
      if (__ldg(bt.col + q) == k) add(p, q, k);
    }
  } else {
    for (; q < q1; ++q) {
      const vid_t k = __ldg(bt.col + q);
      p = lower_bound(a.col, p, p1, k);
      if (p == p1) break;
      if (__ldg(a.col + p) == k) add(p, q, k);
    }
  }
  return sum;
}

// y must be zero on entry. mask_row[e]: the row of mask entry e.
template <class SR, class V, class T>
__global__ void __launch_bounds__(kThreads) masked_row_sums_kernel(device::CsrView<V> m, const vid_t* __restrict__ mask_row,
                                                                   bool structural, device::CsrView<V> a,
                                                                   device::CsrView<V> bt, T* __restrict__ y) {
  const int lane = threadIdx.x & 31;
  const eid_t warp = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const eid_t warps = (eid_t(gridDim.x) * blockDim.x) >> 5;
  for (eid_t base = warp * 32; base < m.nnz; base += warps * 32) {  // warp-uniform loop
    const eid_t e = base + lane;
    const bool valid = e < m.nnz;
    const vid_t i = valid ? __ldg(mask_row + e) : vid_t(-1);
    T s = T(0);
    if (valid && (structural || m.value(e) != V(0))) s = row_dot<SR, V, T>(a, i, bt, __ldg(m.col + e));
    // Rows ascend along the warp: after these steps each lane holds the sum over the lanes at
    // or after it in the same row.
    for (int off = 1; off < 32; off <<= 1) {
      const T o = __shfl_down_sync(kFullWarp, s, off);
      const vid_t r = __shfl_down_sync(kFullWarp, i, off);
      if (lane + off < 32 && r == i) s += o;
    }
    const vid_t before = __shfl_up_sync(kFullWarp, i, 1);
    if (valid && (lane == 0 || before != i) && s != T(0)) {
      if constexpr (std::is_same_v<T, std::int64_t>)
        atomicAdd(reinterpret_cast<unsigned long long*>(y + i), static_cast<unsigned long long>(s));
      else
        atomicAdd(y + i, s);
    }
  }
}

inline std::string shape(vid_t r, vid_t c) { return std::to_string(r) + " x " + std::to_string(c); }

}  // namespace mxm_reduce_detail

template <class SR, class V>
void mxm_reduce_rows(Vector<sum_type_t<V>>& y, const Matrix<V>& mask, const Matrix<V>& A, const Matrix<V>& B, SR,
                     const Descriptor& desc) {
  using T = sum_type_t<V>;
  using mxm_reduce_detail::shape;
  static_assert(std::is_same_v<typename SR::add_monoid, monoid::Plus>, "mxm_reduce_rows sums: SR's add monoid must be plus");
  if (desc.mask_complement)
    throw Error("gpu: mxm_reduce_rows: the mask must not be complemented (it chooses the entries of C that are summed)");
  std::optional<Matrix<V>> at, bt;
  if (desc.transpose_a) at.emplace(transpose(A));
  if (!desc.transpose_b) bt.emplace(transpose(B));
  const Matrix<V>& a = at ? *at : A;
  const Matrix<V>& b_rows = bt ? *bt : B;  // row j holds B's column j
  if (a.ncols() != b_rows.ncols())
    throw Error("gpu: mxm_reduce_rows: A is " + shape(a.nrows(), a.ncols()) + " and B is " +
                shape(b_rows.ncols(), b_rows.nrows()) + (desc.transpose_a || desc.transpose_b ? " (as multiplied)" : "") +
                "; the inner dimensions differ");
  if (mask.nrows() != a.nrows() || mask.ncols() != b_rows.nrows())
    throw Error("gpu: mxm_reduce_rows: the mask is " + shape(mask.nrows(), mask.ncols()) + " but A*B is " +
                shape(a.nrows(), b_rows.nrows()));
  Vector<T> out(std::size_t(a.nrows()));
  out.fill_zero();
  const eid_t nnz = mask.nnz();
  if (nnz > 0) {
    device::Buffer<vid_t> rows(nnz);
    expand_row_ids(mask.csr().rowptr.data(), mask.nrows(), nnz, rows.data());
    const eid_t blocks = (nnz + mxm_reduce_detail::kThreads - 1) / mxm_reduce_detail::kThreads;
    mxm_reduce_detail::masked_row_sums_kernel<SR, V, T>
        <<<unsigned(blocks < (eid_t(1) << 20) ? blocks : (eid_t(1) << 20)), mxm_reduce_detail::kThreads>>>(
            mask.csr().view(), rows.data(), desc.mask_structural, a.csr().view(), b_rows.csr().view(), out.data());
    SPGRAPH_CHECK_LAUNCH("masked_row_sums_kernel");
  }
  y = std::move(out);
}

}  // namespace spgraph::gpu

#define SPGRAPH_INSTANTIATE_MXM_REDUCE_ROWS(SR, V)                                                             \
  template void spgraph::gpu::mxm_reduce_rows<SR, V>(                                                          \
      spgraph::gpu::Vector<spgraph::sum_type_t<V>>&, const spgraph::gpu::Matrix<V>&, const spgraph::gpu::Matrix<V>&, \
      const spgraph::gpu::Matrix<V>&, SR, const spgraph::Descriptor&);
