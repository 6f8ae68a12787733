// C<M> = T and w<m> = t on the GPU (mask_write.hpp). A matrix row of the result merges the
// rows of the old C, T and M by column: a count pass sizes each row, a CUB scan turns the
// counts into row offsets, a fill pass writes the entries. One thread per row.
#include "mask_write.hpp"

#include <climits>
#include <string>
#include <utility>

#include "row_offsets.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/instantiations.hpp"

namespace spgraph::gpu::detail {
namespace {

template <class V>
struct MaskedInputs {
  device::CsrView<V> c;  // the old C; rowptr == nullptr when none of it is kept
  device::CsrView<V> t;
  device::CsrView<V> m;
  bool structural;
  bool complement;
};

// Row i of C<M> = T: returns its entry count, and with Fill writes the entries to col/val
// (val == nullptr: a pattern result).
template <bool Fill, class V>
__device__ eid_t masked_row(const MaskedInputs<V>& in, vid_t i, vid_t* col, V* val) {
  eid_t pc = 0, ec = 0;
  if (in.c.rowptr) {
    pc = in.c.rowptr[i];
    ec = in.c.rowptr[i + 1];
  }
  eid_t pt = in.t.rowptr[i];
  const eid_t et = in.t.rowptr[i + 1];
  eid_t pm = in.m.rowptr[i];
  const eid_t em = in.m.rowptr[i + 1];
  eid_t n = 0;
  while (pc < ec || pt < et) {
    const vid_t jc = pc < ec ? in.c.col[pc] : INT_MAX;
    const vid_t jt = pt < et ? in.t.col[pt] : INT_MAX;
    const vid_t j = jc < jt ? jc : jt;
    while (pm < em && in.m.col[pm] < j) ++pm;
    const bool in_mask = pm < em && in.m.col[pm] == j && (in.structural || in.m.value(pm) != V(0));
    const bool allowed = in_mask != in.complement;
    // Allowed: T's entry if it has one. Not allowed: the old entry if it is kept.
    if (allowed ? jt == j : jc == j) {
      if constexpr (Fill) {
        col[n] = j;
        if (val) val[n] = allowed ? in.t.value(pt) : in.c.value(pc);
      }
      ++n;
    }
    if (jc == j) ++pc;
    if (jt == j) ++pt;
  }
  return n;
}

template <class V>
__global__ void masked_count_kernel(MaskedInputs<V> in, eid_t* __restrict__ counts) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < in.t.nrows; i += stride)
    counts[i] = masked_row<false>(in, vid_t(i), nullptr, static_cast<V*>(nullptr));
}

template <class V>
__global__ void masked_fill_kernel(MaskedInputs<V> in, const eid_t* __restrict__ rowptr, vid_t* __restrict__ col,
                                   V* __restrict__ val) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < in.t.nrows; i += stride) {
    const eid_t start = rowptr[i];
    masked_row<true>(in, vid_t(i), col + start, val ? val + start : nullptr);
  }
}

template <class V>
__global__ void masked_vector_kernel(V* w, const V* t, const V* mask, eid_t n, bool structural, bool complement,
                                     bool keep_old, V identity) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const bool in_mask = !mask || structural || mask[i] != V(0);
    w[i] = in_mask != complement ? t[i] : keep_old ? w[i] : identity;
  }
}

std::string shape(eid_t rows, eid_t cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

// An nrows x ncols matrix with no entries.
template <class V>
Matrix<V> empty_matrix(vid_t nrows, vid_t ncols) {
  device::DeviceCsr<V> e;
  e.nrows = nrows;
  e.ncols = ncols;
  e.rowptr = device::Buffer<eid_t>(std::size_t(nrows) + 1);
  e.rowptr.fill_zero();
  return Matrix<V>(std::move(e));
}

}  // namespace

template <class V>
void write_masked(Matrix<V>& C, const Matrix<V>* mask, Matrix<V>&& T, const Descriptor& desc) {
  if (!mask && !desc.mask_complement) {  // every position allowed
    C = std::move(T);
    return;
  }
  const bool keep_old = !desc.replace && C.nrows() == T.nrows() && C.ncols() == T.ncols() && C.nnz() > 0;
  if (!mask) {  // a complemented null mask allows nothing
    if (!keep_old) C = empty_matrix<V>(T.nrows(), T.ncols());
    return;
  }
  if (mask->nrows() != T.nrows() || mask->ncols() != T.ncols())
    throw Error("gpu: masked write: the mask is " + shape(mask->nrows(), mask->ncols()) + " but the result is " +
                shape(T.nrows(), T.ncols()) + "; the mask must have the result's shape");
  const vid_t nrows = T.nrows();
  if (nrows == 0) {
    C = std::move(T);
    return;
  }
  MaskedInputs<V> in{keep_old ? C.csr().view() : device::CsrView<V>{}, T.csr().view(), mask->csr().view(),
                     desc.mask_structural, desc.mask_complement};
  const unsigned grid = ops_grid(nrows);
  device::Buffer<eid_t> rowptr(std::size_t(nrows) + 1);
  masked_count_kernel<V><<<grid, kOpsThreads>>>(in, rowptr.data());
  SPGRAPH_CHECK_LAUNCH("masked_count_kernel");
  const eid_t nnz = counts_to_offsets(rowptr, nrows);

  device::DeviceCsr<V> out;
  out.nrows = nrows;
  out.ncols = T.ncols();
  out.rowptr = std::move(rowptr);
  out.col = device::Buffer<vid_t>(nnz);
  // A pattern result only when every entry it can take is a pattern entry.
  const bool valued = !T.is_pattern() || (keep_old && !C.is_pattern());
  out.val = device::Buffer<V>(valued ? nnz : 0);
  if (nnz > 0) {
    masked_fill_kernel<V><<<grid, kOpsThreads>>>(in, out.rowptr.data(), out.col.data(),
                                                 valued ? out.val.data() : nullptr);
    SPGRAPH_CHECK_LAUNCH("masked_fill_kernel");
  }
  // C may be the mask or an input of T's operation: replaced only now, after the kernels
  // (stream-ordered, so its memory is freed after they have read it).
  C = Matrix<V>(std::move(out));
}

template <class V>
void write_masked(Vector<V>& w, const Vector<V>* mask, const Vector<V>& t, V identity, const Descriptor& desc) {
  const std::size_t n = t.size();
  if (!mask && !desc.mask_complement) {
    if (&w == &t) return;
    if (w.size() != n) w.reset(n);
    if (n) SPGRAPH_CUDA(cudaMemcpyAsync(w.data(), t.data(), n * sizeof(V), cudaMemcpyDeviceToDevice, w.stream()));
    return;
  }
  if (mask && mask->size() != n)
    throw Error("gpu: masked write: the mask has length " + std::to_string(mask->size()) +
                " but the result has length " + std::to_string(n));
  // A w of another length has no old values to keep: it is replaced by one of t's length.
  const bool keep_old = !desc.replace && w.size() == n;
  Vector<V> fresh;
  if (w.size() != n) fresh = Vector<V>(n);
  V* out = w.size() == n ? w.data() : fresh.data();
  if (n > 0) {
    masked_vector_kernel<V><<<ops_grid(eid_t(n)), kOpsThreads>>>(out, t.data(), mask ? mask->data() : nullptr,
                                                                eid_t(n), desc.mask_structural,
                                                                desc.mask_complement, keep_old, identity);
    SPGRAPH_CHECK_LAUNCH("masked_vector_kernel");
  }
  if (w.size() != n) w = std::move(fresh);
}

#define SPGRAPH_INSTANTIATE(V)                                                                       \
  template void write_masked<V>(Matrix<V>&, const Matrix<V>*, Matrix<V>&&, const Descriptor&);       \
  template void write_masked<V>(Vector<V>&, const Vector<V>*, const Vector<V>&, V, const Descriptor&);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::gpu::detail
