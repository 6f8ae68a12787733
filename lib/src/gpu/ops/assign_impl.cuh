#pragma once
// assign, extract_rows and permute on the GPU (spgraph/gpu/assign.hpp), included by
// assign_<type>.cu.
//   assign: T = s (dense for a vector; the mask's allowed pattern for a matrix), then
//     write_masked applies mask and replace.
//   extract_rows: row lengths scanned into offsets, then one thread per output entry copies
//     it from its source row (balanced whatever the row lengths).
//   permute: the rows of A(p, :), columns renamed by p's inverse, then each row's columns put
//     back in order (sort_rows.hpp, shared by every value type) and the values gathered after
//     them. A p on the device is checked there while its inverse is built.
//   extract: a gather.
//   diag: one thread per row writes its single entry.
#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "host/index_checks.hpp"
#include "compact.hpp"
#include "mask_write.hpp"
#include "row_offsets.hpp"
#include "sort_rows.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/assign.hpp"
#include "gpu/common/row_ids.hpp"

namespace spgraph::gpu {
// Internal to each per-type file that includes this (its kernels are not templates).
namespace {
namespace assign_detail {

template <class V>
__global__ void fill_kernel(V* __restrict__ out, eid_t n, V s) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = s;
}

template <class V>
void fill(V* out, eid_t n, V s) {
  if (n == 0) return;
  fill_kernel<<<detail::ops_grid(n), detail::kOpsThreads>>>(out, n, s);
  SPGRAPH_CHECK_LAUNCH("fill_kernel");
}

// keep[p] = 1 where the mask entry p allows its position.
template <class V>
__global__ void diag_kernel(const V* __restrict__ v, vid_t n, eid_t* __restrict__ rowptr, vid_t* __restrict__ col,
                            V* __restrict__ val) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i <= n; i += stride) {
    rowptr[i] = i;
    if (i < n) {
      col[i] = vid_t(i);
      val[i] = v[i];
    }
  }
}

template <class V>
__global__ void allowed_kernel(device::CsrView<V> m, bool structural, eid_t* __restrict__ keep) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; p < m.nnz; p += stride)
    keep[p] = structural || m.value(p) != V(0) ? 1 : 0;
}

template <class V>
__global__ void row_lengths_kernel(const eid_t* __restrict__ rowptr, const vid_t* __restrict__ rows, vid_t n,
                                   eid_t* __restrict__ counts) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    counts[i] = rowptr[rows[i] + 1] - rowptr[rows[i]];
}

// Entry q of the result lies in row out_rows[q], which is row rows[out_rows[q]] of A; its
// column is renamed by `rename` where given.
template <class V>
__global__ void copy_rows_kernel(device::CsrView<V> a, const vid_t* __restrict__ rows, const eid_t* __restrict__ rowptr,
                                 const vid_t* __restrict__ out_rows, eid_t nnz, const vid_t* __restrict__ rename,
                                 vid_t* __restrict__ col, V* __restrict__ val) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t q = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; q < nnz; q += stride) {
    const vid_t i = out_rows[q];
    const eid_t src = a.rowptr[rows[i]] + (q - rowptr[i]);
    col[q] = rename ? rename[a.col[src]] : a.col[src];
    if (val) val[q] = a.val[src];
  }
}

// C = A(rows, :) for m row ids on the device, columns renamed by `rename` where given (then
// no longer sorted within a row).
template <class V>
device::DeviceCsr<V> gather_rows(const Matrix<V>& A, const vid_t* d_rows, vid_t m, const vid_t* rename = nullptr) {
  const device::DeviceCsr<V>& a = A.csr();
  device::DeviceCsr<V> c;
  c.nrows = m;
  c.ncols = a.ncols;
  c.rowptr = device::Buffer<eid_t>(std::size_t(m) + 1);
  if (m > 0) {
    row_lengths_kernel<V><<<detail::ops_grid(m), detail::kOpsThreads>>>(a.rowptr.data(), d_rows, m,
                                                                       c.rowptr.data());
    SPGRAPH_CHECK_LAUNCH("row_lengths_kernel");
  }
  const eid_t nnz = detail::counts_to_offsets(c.rowptr, m);
  c.col = device::Buffer<vid_t>(nnz);
  c.val = device::Buffer<V>(a.is_pattern() ? 0 : nnz);
  if (nnz > 0) {
    device::Buffer<vid_t> out_rows(nnz);
    expand_row_ids(c.rowptr.data(), m, nnz, out_rows.data());
    copy_rows_kernel<V><<<detail::ops_grid(nnz), detail::kOpsThreads>>>(
        a.view(), d_rows, c.rowptr.data(), out_rows.data(), nnz, rename, c.col.data(),
        a.is_pattern() ? nullptr : c.val.data());
    SPGRAPH_CHECK_LAUNCH("copy_rows_kernel");
  }
  return c;
}

// inverse[p[i]] = i (inverse starts at -1); *bad = the first i whose p[i] is outside 0..n-1 or
// repeats (an atomicMin, so the report does not depend on scheduling).
__global__ void inverse_kernel(const vid_t* __restrict__ p, vid_t n, vid_t* __restrict__ inverse, vid_t* bad) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const vid_t v = p[i];
    if (v < 0 || v >= n || atomicCAS(inverse + v, vid_t(-1), vid_t(i)) != vid_t(-1)) atomicMin(bad, vid_t(i));
  }
}

template <class V>
__global__ void gather_kernel(const V* __restrict__ x, const vid_t* __restrict__ ids, eid_t n, V* __restrict__ w) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t k = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += stride) w[k] = x[ids[k]];
}

// w[k] = x[order[k]]: values following their entries' moves.
template <class V, class Pos>
__global__ void gather_by_order_kernel(const V* __restrict__ x, const Pos* __restrict__ order, eid_t n,
                                       V* __restrict__ w) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t k = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += stride) w[k] = x[order[k]];
}

// Sorts c's rows, its values following their entries through positions of type Pos.
template <class V, class Pos>
void sort_rows_with_values(device::DeviceCsr<V>& c) {
  const eid_t nnz = c.nnz();
  device::Buffer<vid_t> sorted(nnz);
  device::Buffer<Pos> order(nnz);
  detail::sort_rows(c.rowptr.data(), c.nrows, c.ncols, nnz, c.col.data(), sorted.data(), order.data());
  c.col = std::move(sorted);
  device::Buffer<V> sorted_val(nnz);
  gather_by_order_kernel<V, Pos><<<detail::ops_grid(nnz), detail::kOpsThreads>>>(c.val.data(), order.data(), nnz,
                                                                                 sorted_val.data());
  SPGRAPH_CHECK_LAUNCH("gather_by_order_kernel");
  c.val = std::move(sorted_val);
}

// C = A(p, p) for a permutation p and its inverse, both on the device: the rows A(p, :) with
// their columns renamed, then each row sorted (sort_rows.hpp), the values gathered after them.
template <class V>
device::DeviceCsr<V> permute_on_device(const Matrix<V>& A, const vid_t* p, const vid_t* inverse) {
  device::DeviceCsr<V> c = gather_rows(A, p, A.nrows(), inverse);
  const eid_t nnz = c.nnz();
  if (nnz == 0) return c;
  if (c.is_pattern()) {
    device::Buffer<vid_t> sorted(nnz);
    detail::sort_rows<eid_t>(c.rowptr.data(), c.nrows, c.ncols, nnz, c.col.data(), sorted.data(), nullptr);
    c.col = std::move(sorted);
  } else if (nnz <= eid_t(UINT32_MAX)) {
    sort_rows_with_values<V, std::uint32_t>(c);
  } else {
    sort_rows_with_values<V, eid_t>(c);
  }
  return c;
}

inline void require_square(const char* who, vid_t n, vid_t ncols) {
  if (ncols != n)
    throw Error(std::string(who) + ": A is " + std::to_string(n) + " x " + std::to_string(ncols) +
                "; P A P' needs a square A");
}

}  // namespace assign_detail
}  // namespace

template <class V>
void assign(Vector<V>& w, const std::type_identity_t<Vector<V>>* mask, std::type_identity_t<V> s,
            const Descriptor& desc) {
  // w's length is the result's; an empty w takes the mask's.
  std::size_t n = w.size();
  if (mask) {
    if (n == 0) n = mask->size();
    else if (mask->size() != n)
      throw Error("gpu: assign: the mask has length " + std::to_string(mask->size()) + " but w has length " +
                  std::to_string(n));
  }
  Vector<V> t(n);
  assign_detail::fill(t.data(), eid_t(n), V(s));
  detail::write_masked(w, mask, t, V(0), desc);
}

template <class V>
void assign(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, std::type_identity_t<V> s,
            const Descriptor& desc) {
  if (!mask) throw Error("gpu: assign: C<M> = s needs a mask M; without one every position of C would hold s");
  if (desc.mask_complement)
    throw Error("gpu: assign: C<!M> = s is not supported (the result is dense); pass M uncomplemented");
  const Matrix<V>& M = *mask;
  const eid_t nnz = M.nnz();
  device::Buffer<eid_t> keep(std::size_t(nnz) + 1);
  if (nnz > 0) {
    assign_detail::allowed_kernel<V><<<detail::ops_grid(nnz), detail::kOpsThreads>>>(M.csr().view(),
                                                                                    desc.mask_structural, keep.data());
    SPGRAPH_CHECK_LAUNCH("allowed_kernel");
  }
  device::DeviceCsr<V> t = detail::compact(M, keep, false);
  t.val = device::Buffer<V>(t.nnz());
  assign_detail::fill(t.val.data(), t.nnz(), V(s));
  detail::write_masked(C, mask, Matrix<V>(std::move(t)), desc);
}

template <class V>
void extract_rows(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& rows) {
  spgraph::detail::check_row_ids("gpu: extract_rows", rows, A.nrows());
  if (rows.size() > std::size_t(INT_MAX))
    throw Error("gpu: extract_rows: " + std::to_string(rows.size()) + " rows; at most 2^31 - 1 fit a vertex id");
  device::Buffer<vid_t> d_rows;
  d_rows.upload(rows);
  device::DeviceCsr<V> c = assign_detail::gather_rows(A, d_rows.data(), vid_t(rows.size()));
  C = Matrix<V>(std::move(c));  // after the kernels: C may be A (its memory is freed in stream order)
}

template <class V>
void permute(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& p) {
  assign_detail::require_square("gpu: permute", A.nrows(), A.ncols());
  const std::vector<vid_t> inverse = spgraph::detail::check_permutation("gpu: permute", p, A.nrows());
  device::Buffer<vid_t> d_p, d_inverse;
  d_p.upload(p);
  d_inverse.upload(inverse);
  C = Matrix<V>(assign_detail::permute_on_device(A, d_p.data(), d_inverse.data()));
}

template <class V>
void permute(Matrix<V>& C, const Matrix<V>& A, const Vector<vid_t>& p) {
  const vid_t n = A.nrows();
  assign_detail::require_square("gpu: permute", n, A.ncols());
  if (p.size() != std::size_t(n))
    throw Error("gpu: permute: p has " + std::to_string(p.size()) + " entries but A is " + std::to_string(n) + " x " +
                std::to_string(n) + "; p must be a permutation of 0.." + std::to_string(n - 1));
  device::Buffer<vid_t> inverse(n), bad(1);
  if (n > 0) {
    SPGRAPH_CUDA(cudaMemsetAsync(inverse.data(), 0xff, std::size_t(n) * sizeof(vid_t)));  // -1
    assign_detail::fill(bad.data(), 1, vid_t(INT_MAX));
    assign_detail::inverse_kernel<<<detail::ops_grid(n), detail::kOpsThreads>>>(p.data(), n, inverse.data(),
                                                                                bad.data());
    SPGRAPH_CHECK_LAUNCH("inverse_kernel");
    const vid_t first_bad = bad.download()[0];
    if (first_bad != INT_MAX) {
      vid_t value = 0;
      device::copy_to_host(&value, p.data() + first_bad, sizeof(vid_t), 0);
      throw Error("gpu: permute: p[" + std::to_string(first_bad) + "] = " + std::to_string(value) +
                  (value < 0 || value >= n ? " is outside 0.." + std::to_string(n - 1) : " repeats an earlier entry") +
                  "; p must be a permutation");
    }
  }
  C = Matrix<V>(assign_detail::permute_on_device(A, p.data(), inverse.data()));
}

template <class V>
void extract(Vector<V>& w, const Vector<V>& x, const std::vector<vid_t>& ids) {
  spgraph::detail::check_positions("gpu: extract", ids, x.size());
  device::Buffer<vid_t> d_ids;
  d_ids.upload(ids);
  Vector<V> out(ids.size());
  if (!ids.empty()) {
    assign_detail::gather_kernel<V><<<detail::ops_grid(eid_t(ids.size())), detail::kOpsThreads>>>(
        x.data(), d_ids.data(), eid_t(ids.size()), out.data());
    SPGRAPH_CHECK_LAUNCH("gather_kernel");
  }
  w = std::move(out);
}

template <class V>
void diag(Matrix<V>& C, const Vector<V>& v) {
  const vid_t n = static_cast<vid_t>(v.size());
  device::DeviceCsr<V> d;
  d.nrows = d.ncols = n;
  d.rowptr = device::Buffer<eid_t>(std::size_t(n) + 1);
  d.col = device::Buffer<vid_t>(n);
  d.val = device::Buffer<V>(n);
  assign_detail::diag_kernel<V><<<detail::ops_grid(eid_t(n) + 1), detail::kOpsThreads>>>(
      v.data(), n, d.rowptr.data(), d.col.data(), d.val.data());
  SPGRAPH_CHECK_LAUNCH("diag_kernel");
  C = Matrix<V>(std::move(d));
}

}  // namespace spgraph::gpu

#define SPGRAPH_INSTANTIATE_ASSIGN(V)                                                                          \
  template void spgraph::gpu::assign<V>(spgraph::gpu::Vector<V>&, const spgraph::gpu::Vector<V>*, V,           \
                                        const spgraph::Descriptor&);                                           \
  template void spgraph::gpu::assign<V>(spgraph::gpu::Matrix<V>&, const spgraph::gpu::Matrix<V>*, V,           \
                                        const spgraph::Descriptor&);                                           \
  template void spgraph::gpu::extract_rows<V>(spgraph::gpu::Matrix<V>&, const spgraph::gpu::Matrix<V>&,        \
                                              const std::vector<spgraph::vid_t>&);                             \
  template void spgraph::gpu::permute<V>(spgraph::gpu::Matrix<V>&, const spgraph::gpu::Matrix<V>&,             \
                                         const std::vector<spgraph::vid_t>&);                                  \
  template void spgraph::gpu::permute<V>(spgraph::gpu::Matrix<V>&, const spgraph::gpu::Matrix<V>&,             \
                                         const spgraph::gpu::Vector<spgraph::vid_t>&);                         \
  template void spgraph::gpu::extract<V>(spgraph::gpu::Vector<V>&, const spgraph::gpu::Vector<V>&,              \
                                         const std::vector<spgraph::vid_t>&);                                  \
  template void spgraph::gpu::diag<V>(spgraph::gpu::Matrix<V>&, const spgraph::gpu::Vector<V>&);
