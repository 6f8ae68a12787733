#pragma once
// Masks. Two pieces:
//  - the mask-driven product C<M> = A*B for a mask that is not complemented: only M's allowed
//    positions are computed. Threads walk the products in row-major order (balanced whatever
//    the row skew), look each column up in the mask's row (binary search) and accumulate into
//    an accumulator shaped like M; the positions hit are then compacted into C, in M's (sorted)
//    column order.
//  - apply_mask: the general descriptor semantics on a computed product Z: keep Z's entries the
//    mask allows, and (without replace) the old C's entries it does not allow. Every entry
//    finds its output position from prefix sums and one binary search, so rows of any length
//    (a BFS frontier row can hold millions) spread over all threads.
#include <string>

#include "spgraph/descriptor.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "gpu/spgemm/hash_numeric_impl.cuh"
#include "gpu/spgemm/product_walk.cuh"

namespace spgraph::gpu::spgemm_detail {

inline constexpr int kMaskedItemsPerThread = 8;

// Where M allows (i, j): valued masks need a nonzero value, structural ones an entry;
// complement inverts.
template <class V>
struct MaskTest {
  device::CsrView<V> m;
  bool structural = false;
  bool complement = false;

  // Index of an allowing entry of M(i, j), or -1 (ignores complement).
  __device__ eid_t find(vid_t i, vid_t j) const {
    const eid_t m0 = m.rowptr[i], m1 = m.rowptr[i + 1];
    const eid_t p = lower_bound(m.col, m0, m1, j);
    return p < m1 && m.col[p] == j && (structural || m.value(p) != V(0)) ? p : -1;
  }
  __device__ bool allows(vid_t i, vid_t j) const { return (find(i, j) >= 0) != complement; }
};

template <class V>
__global__ void fill_kernel(V* data, eid_t n, V value) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) data[i] = value;
}

// Products of rows [first, last) numbered [first_product, first_product + count); acc and hit
// cover M's entries [mask_base, ...) of those rows.
template <class SR, class V>
__global__ void masked_product_kernel(device::CsrView<V> a, device::CsrView<V> b, const eid_t* ap, MaskTest<V> mask,
                                      vid_t first, vid_t last, eid_t first_product, eid_t count, eid_t mask_base,
                                      V* acc, eid_t* hit) {
  using Monoid = typename SR::add_monoid;
  for_each_product<kMaskedItemsPerThread>(
      structure_of_view(a), structure_of_view(b), ap, first, last, first_product, count,
      [&](eid_t, const ProductWalk& w) {
        const eid_t p = mask.find(w.row, b.col[w.q]);
        if (p < 0) return;
        accumulate<Monoid>(acc + (p - mask_base),
                           SR::template multiply<V>(a_value<SR>(a, w.entry), b_value<SR>(b, w.q), w.k));
        hit[p - mask_base] = 1;
      });
}

// After the exclusive scan of hit: entry e of the panel's mask was hit when pos[e + 1] > pos[e].
template <class V>
__global__ void masked_compact_kernel(const vid_t* mask_col, const V* acc, const eid_t* pos, eid_t count,
                                      vid_t* out_col, V* out_val) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t e = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; e < count; e += stride) {
    if (pos[e + 1] == pos[e]) continue;
    out_col[pos[e]] = mask_col[e];
    out_val[pos[e]] = acc[e];
  }
}

template <class V>
device::DeviceCsr<V> empty_csr(vid_t nrows, vid_t ncols, cudaStream_t stream) {
  device::DeviceCsr<V> c;
  c.nrows = nrows;
  c.ncols = ncols;
  c.rowptr = device::Buffer<eid_t>(std::size_t(nrows) + 1, stream);
  c.rowptr.fill_zero();
  c.col = device::Buffer<vid_t>(0, stream);
  c.val = device::Buffer<V>(0, stream);
  return c;
}

// Rows [first, last) of C<M> = A*B: their products are [first_product, + products) and their
// mask entries [mask_base, mask_base + mask_count).
template <class SR, class V>
device::DeviceCsr<V> masked_panel(const device::CsrView<V>& a, const device::CsrView<V>& b, const eid_t* ap,
                                  const MaskTest<V>& mask, vid_t first, vid_t last, eid_t first_product,
                                  eid_t products, eid_t mask_base, eid_t mask_count, cudaStream_t stream) {
  device::Buffer<V> acc(mask_count, stream);
  device::Buffer<eid_t> pos(std::size_t(mask_count) + 1, stream);
  pos.fill_zero();
  constexpr int threads = 256;
  if (mask_count > 0) {
    fill_kernel<V><<<grid_for(mask_count, threads), threads, 0, stream>>>(acc.data(), mask_count,
                                                                          SR::template identity<V>());
    SPGRAPH_CHECK_LAUNCH("fill_kernel");
  }
  if (mask_count > 0 && products > 0) {
    masked_product_kernel<SR, V>
        <<<grid_for((products + kMaskedItemsPerThread - 1) / kMaskedItemsPerThread, threads), threads, 0, stream>>>(
            a, b, ap, mask, first, last, first_product, products, mask_base, acc.data(), pos.data());
    SPGRAPH_CHECK_LAUNCH("masked_product_kernel");
  }
  exclusive_scan(pos.data(), pos.data(), mask_count + 1, stream);
  const eid_t nnz = read_value(pos.data() + mask_count, stream);
  device::DeviceCsr<V> c;
  c.nrows = last - first;
  c.ncols = b.ncols;
  c.rowptr = device::Buffer<eid_t>(std::size_t(last - first) + 1, stream);
  c.col = device::Buffer<vid_t>(nnz, stream);
  c.val = device::Buffer<V>(nnz, stream);
  gather_positions(mask.m.rowptr + first, last - first + 1, mask_base, pos.data(), c.rowptr.data(), stream);
  if (nnz > 0) {
    masked_compact_kernel<V><<<grid_for(mask_count, threads), threads, 0, stream>>>(
        mask.m.col + mask_base, acc.data(), pos.data(), mask_count, c.col.data(), c.val.data());
    SPGRAPH_CHECK_LAUNCH("masked_compact_kernel");
  }
  return c;
}

// keep[e] = 1 for the entries of X (rows [0, nrows)) that the output keeps: those the mask
// allows when keep_allowed, those it does not otherwise.
template <class V>
__global__ void keep_flags_kernel(const eid_t* rowptr, const vid_t* col, vid_t nrows, eid_t nnz, MaskTest<V> mask,
                                  bool keep_allowed, eid_t* keep) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t e = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; e < nnz; e += stride) {
    const vid_t i = static_cast<vid_t>(last_not_greater(rowptr, eid_t(0), eid_t(nrows), e));
    keep[e] = mask.allows(i, col[e]) == keep_allowed ? 1 : 0;
  }
}

// Writes X's kept entries (x_pos: exclusive scan of its keep flags) to their places in the
// merged rows; Y's kept entries (y_rowptr == nullptr: none) interleave by column.
template <class V>
__global__ void merge_kept_kernel(device::CsrView<V> x, const eid_t* x_pos, const eid_t* y_rowptr, const vid_t* y_col,
                                  const eid_t* y_pos, const eid_t* out_rowptr, vid_t* out_col, V* out_val) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t e = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; e < x.nnz; e += stride) {
    if (x_pos[e + 1] == x_pos[e]) continue;
    const vid_t i = static_cast<vid_t>(last_not_greater(x.rowptr, eid_t(0), eid_t(x.nrows), e));
    const vid_t j = x.col[e];
    eid_t p = out_rowptr[i] + (x_pos[e] - x_pos[x.rowptr[i]]);
    if (y_rowptr) {
      const eid_t y0 = y_rowptr[i];
      p += y_pos[lower_bound(y_col, y0, y_rowptr[i + 1], j)] - y_pos[y0];
    }
    out_col[p] = j;
    out_val[p] = x.value(e);
  }
}

// The kept entries of x as flags scanned into positions (size nnz + 1).
template <class V>
device::Buffer<eid_t> kept_positions(const device::DeviceCsr<V>& x, const MaskTest<V>& mask, bool keep_allowed,
                                     cudaStream_t stream) {
  device::Buffer<eid_t> pos(std::size_t(x.nnz()) + 1, stream);
  pos.fill_zero();
  if (x.nnz() > 0) {
    keep_flags_kernel<V><<<grid_for(x.nnz(), 256), 256, 0, stream>>>(x.rowptr.data(), x.col.data(), x.nrows,
                                                                      x.nnz(), mask, keep_allowed, pos.data());
    SPGRAPH_CHECK_LAUNCH("keep_flags_kernel");
  }
  exclusive_scan(pos.data(), pos.data(), x.nnz() + 1, stream);
  return pos;
}

// C = Z restricted to where the mask allows, plus (old_c != nullptr) old_c's entries where it
// does not. Z, the mask and old_c have the same dimensions.
template <class V>
device::DeviceCsr<V> apply_mask(const device::DeviceCsr<V>& z, const device::DeviceCsr<V>& m,
                                const device::DeviceCsr<V>* old_c, const Descriptor& desc, cudaStream_t stream) {
  const MaskTest<V> mask{m.view(), desc.mask_structural, desc.mask_complement};
  const vid_t n = z.nrows;
  device::Buffer<eid_t> z_pos = kept_positions(z, mask, true, stream);
  device::Buffer<eid_t> c_pos;
  if (old_c) c_pos = kept_positions(*old_c, mask, false, stream);
  device::DeviceCsr<V> c;
  c.nrows = n;
  c.ncols = z.ncols;
  c.rowptr = device::Buffer<eid_t>(std::size_t(n) + 1, stream);
  merged_rowptr(z.rowptr.data(), z_pos.data(), old_c ? old_c->rowptr.data() : nullptr,
                old_c ? c_pos.data() : nullptr, n, c.rowptr.data(), stream);
  const eid_t nnz = read_value(c.rowptr.data() + n, stream);
  c.col = device::Buffer<vid_t>(nnz, stream);
  c.val = device::Buffer<V>(nnz, stream);
  if (z.nnz() > 0) {
    merge_kept_kernel<V><<<grid_for(z.nnz(), 256), 256, 0, stream>>>(
        z.view(), z_pos.data(), old_c ? old_c->rowptr.data() : nullptr, old_c ? old_c->col.data() : nullptr,
        old_c ? c_pos.data() : nullptr, c.rowptr.data(), c.col.data(), c.val.data());
    SPGRAPH_CHECK_LAUNCH("merge_kept_kernel");
  }
  if (old_c && old_c->nnz() > 0) {
    merge_kept_kernel<V><<<grid_for(old_c->nnz(), 256), 256, 0, stream>>>(
        old_c->view(), c_pos.data(), z.rowptr.data(), z.col.data(), z_pos.data(), c.rowptr.data(), c.col.data(),
        c.val.data());
    SPGRAPH_CHECK_LAUNCH("merge_kept_kernel");
  }
  return c;
}

}  // namespace spgraph::gpu::spgemm_detail
