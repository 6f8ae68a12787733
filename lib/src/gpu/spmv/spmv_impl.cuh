#pragma once
// Definitions of gpu::mxv and gpu::vxm: argument checks, mask resolution and kernel launch.
// Included by the explicit-instantiation files lib/src/gpu/spmv/mxv_<semiring>_<type>.cu
// (SPGRAPH_GPU_SPMV_INSTANTIATE below), one semiring and value type each so they build in
// parallel.
#include <string>
#include <type_traits>
#include <utility>

#include "device/cooperative_launch.hpp"
#include "device/dependent_launch.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "gpu/spmv/spmv_formats.hpp"
#include "gpu/spmv/spmv_amb_impl.cuh"
#include "gpu/spmv/spmv_csr_stream_impl.cuh"
#include "gpu/spmv/spmv_kernels_impl.cuh"

namespace spgraph::gpu::detail {

// Smallest power of two covering the mean row length, at most a warp (as log2).
inline int csr_vector_subwarp_log2(eid_t nnz, vid_t nrows) {
  const double mean = nrows > 0 ? double(nnz) / double(nrows) : 0.0;
  int log2 = 0;
  while (log2 < 5 && double(1 << log2) < mean) ++log2;
  return log2;
}

// One product y<mask> = M (x) x with operand order Order; M is A or the cached A'.
// after_previous applies to the CSR-stream kernel (mxv_after_previous_kernel); the other
// kernels wait for the previous one to complete.
template <class SR, class V, class Order>
class SpmvLaunch {
 public:
  SpmvLaunch(const Matrix<V>& m, const V* x, V* y, OutputMask<V> mask,
             device::AfterPrevious after_previous = device::AfterPrevious::Completes)
      : m_(m), x_(x), y_(y), mask_(mask), after_previous_(after_previous) {}

  void run(SpmvKernel kernel) {
    if constexpr (Order::template reads_matrix<SR>) {
      if (!m_.is_pattern()) {
        run_with<true>(kernel);
        return;
      }
    }
    run_with<false>(kernel);
  }

 private:
  static constexpr int kThreads = 256;

  template <bool ReadValues>
  EntryProduct<SR, V, Order, ReadValues> product(const V* val) const {
    return {val, x_};
  }

  template <bool ReadValues>
  void run_with(SpmvKernel kernel) {
    switch (kernel) {
      case SpmvKernel::CsrVector: return csr_vector<ReadValues>();
      case SpmvKernel::CsrMergePath: return merge_path<ReadValues>();
      case SpmvKernel::CsrStream: return csr_stream<ReadValues>();
      case SpmvKernel::CooLoadBalanced: return coo<ReadValues>();
      case SpmvKernel::SellP: return sellp<ReadValues>();
      case SpmvKernel::Hyb: return hyb<ReadValues>();
      case SpmvKernel::Amb: return amb<ReadValues>();
      case SpmvKernel::Auto: break;
    }
    throw Error("gpu SpMV: no kernel for SpmvKernel value " + std::to_string(int(kernel)));
  }

  template <bool ReadValues>
  void csr_vector() {
    const auto& csr = m_.csr();
    const int log2 = csr_vector_subwarp_log2(csr.nnz(), csr.nrows);
    csr_vector_kernel<SR, V><<<blocks_of(eid_t(csr.nrows) << log2, kThreads), kThreads>>>(
        csr.rowptr.data(), csr.col.data(), csr.nrows, log2, product<ReadValues>(csr.val.data()), y_, mask_);
    SPGRAPH_CHECK_LAUNCH("csr_vector_kernel");
  }

  template <bool ReadValues>
  void merge_path() {
    const auto& csr = m_.csr();
    const PathTiles& tiles = spmv_merge_path_tiles(m_);
    const eid_t ntiles = tiles.ntiles();
    device::Buffer<RowCarry<SR, V>> carries(ntiles);
    merge_path_kernel<SR, V, kMergePathItemsPerLane><<<blocks_of(ntiles, kMergePathWarps), kMergePathWarps * 32>>>(
        spmv_rowptr_low(m_).data(), csr.col.data(), csr.nrows, csr.nnz(), tiles.tile_rows.data(), ntiles,
        product<ReadValues>(csr.val.data()), y_, mask_, carries.data());
    SPGRAPH_CHECK_LAUNCH("merge_path_kernel");
    merge_path_fixup_kernel<SR, V><<<blocks_of(ntiles, kThreads), kThreads>>>(carries.data(), ntiles, csr.nrows, y_,
                                                                            mask_);
    SPGRAPH_CHECK_LAUNCH("merge_path_fixup_kernel");
  }

  template <bool ReadValues>
  void csr_stream() {
    const int j = stream_items_per_thread<V, ReadValues>(m_.ncols());
    if constexpr (kStreamStageAsync<V>)
      if (j == kStreamItemsPerThreadWide) return csr_stream_with<ReadValues, kStreamItemsPerThreadWide>();
    csr_stream_with<ReadValues, kStreamItemsPerThread<V, ReadValues>>();
  }

  template <bool ReadValues, int J>
  void csr_stream_with() {
    const auto& csr = m_.csr();
    const PathTiles& tiles = spmv_stream_tiles(m_, stream_tile(J));
    using Product = EntryProduct<SR, V, Order, ReadValues>;
    auto launch = [&](auto kernel, device::AfterPrevious after) {
      device::launch_kernel(kernel, unsigned(tiles.ntiles()), kStreamThreads, 0, 0, after,
                            csr.rowptr.data(), spmv_rowptr_low(m_).data(), csr.col.data(), csr.nnz(),
                            tiles.tile_rows.data(), tiles.tile_base.data(), product<ReadValues>(csr.val.data()),
                            y_, mask_);
    };
    // Only mxv (MatrixFirst) is launched as a dependent (mxv_after_previous_kernel): its kernel
    // is instantiated for that order alone.
    if constexpr (std::is_same_v<Order, MatrixFirst>)
      if (after_previous_ == device::AfterPrevious::Programmatic)
        return launch(csr_stream_kernel<SR, V, J, ReadValues, Product, true>, after_previous_);
    launch(csr_stream_kernel<SR, V, J, ReadValues, Product>, device::AfterPrevious::Completes);
  }

  template <bool ReadValues>
  void coo() {
    const auto& csr = m_.csr();
    const device::Buffer<vid_t>& rows = spmv_coo_row_ids(m_);
    if (csr.nnz() <= kCooSingleLaunchMaxNnz && device::cooperative_launch_supported())
      return coo_single_launch<ReadValues>(rows.data());
    init_output_kernel<SR, V><<<blocks_of(csr.nrows, kThreads), kThreads>>>(y_, csr.nrows, mask_);
    SPGRAPH_CHECK_LAUNCH("init_output_kernel");
    launch_coo_kernel<SR>(rows.data(), csr.col.data(), csr.nnz(), product<ReadValues>(csr.val.data()), y_, mask_);
  }

  template <bool ReadValues>
  void coo_single_launch(const vid_t* rows) {
    const auto& csr = m_.csr();
    auto kernel = coo_single_launch_kernel<SR, V, EntryProduct<SR, V, Order, ReadValues>>;
    static device::PerDevice<int> resident;  // per instantiation and device
    const CooSingleLaunchShape shape = coo_single_launch_shape(
        csr.nrows, csr.nnz(), kThreads, resident.get([&](int) { return device::resident_blocks(kernel, kThreads); }));
    device::launch_cooperative(kernel, shape.grid, kThreads, 0, 0, rows, csr.col.data(), csr.nnz(), shape.warp_chunk,
                               product<ReadValues>(csr.val.data()), y_, csr.nrows, mask_);
  }

  template <bool ReadValues>
  void sellp() {
    const SellP<V>& f = spmv_sellp(m_);
    const device::Buffer<vid_t>& row_len = spmv_row_lengths(m_);
    const vid_t n = m_.nrows();
    const eid_t nslices = (eid_t(n) + kSliceHeight - 1) / kSliceHeight;
    const int slices_per_block = (kSellPThreads / 32) / f.threads_per_row;
    sellp_kernel<SR, V><<<blocks_of(nslices, slices_per_block), kSellPThreads>>>(
        f.slice_ptr.data(), f.col.data(), row_len.data(), n, f.threads_per_row, product<ReadValues>(f.val.data()),
        y_, mask_);
    SPGRAPH_CHECK_LAUNCH("sellp_kernel");
  }

  template <bool ReadValues>
  void hyb() {
    const Hyb<V>& h = spmv_hyb(m_);
    const device::Buffer<vid_t>& row_len = spmv_row_lengths(m_);
    const vid_t n = m_.nrows();
    ell_kernel<SR, V><<<blocks_of(n, kThreads), kThreads>>>(h.ell_col.data(), row_len.data(), h.ell_width, n,
                                                            product<ReadValues>(h.ell_val.data()), y_, mask_);
    SPGRAPH_CHECK_LAUNCH("ell_kernel");
    launch_coo_kernel<SR>(h.coo_row.data(), h.coo_col.data(), h.coo_nnz, product<ReadValues>(h.coo_val.data()), y_,
                          mask_);
  }

  template <bool ReadValues>
  void amb() {
    const Amb<V>& f = spmv_amb(m_);
    init_output_kernel<SR, V><<<blocks_of(m_.nrows(), kThreads), kThreads>>>(y_, m_.nrows(), mask_);
    SPGRAPH_CHECK_LAUNCH("init_output_kernel");
    if (f.nchunks == 0) return;
    amb_kernel<SR, V><<<blocks_of(f.nchunks * 32, kAmbThreads), kAmbThreads>>>(
        f.chunk_offset.data(), f.chunk_tile.data(), f.slot_meta.data(), f.col.data(), f.nchunks,
        product<ReadValues>(f.val.data()), y_, mask_);
    SPGRAPH_CHECK_LAUNCH("amb_kernel");
  }

  const Matrix<V>& m_;
  const V* x_;
  V* y_;
  OutputMask<V> mask_;
  device::AfterPrevious after_previous_;
};

template <class SR, class V, class Order>
void spmv_apply(const char* op, Vector<V>& y, const Vector<V>* mask, const Matrix<V>& m, const Vector<V>& x,
                const Descriptor& desc, const SpmvOptions& options,
                device::AfterPrevious after_previous = device::AfterPrevious::Completes) {
  const std::size_t n = static_cast<std::size_t>(m.nrows());
  check_spmv_input(op, x.size(), m);
  if (!y.empty() && y.size() != n)
    throw Error(std::string(op) + ": the output vector has " + std::to_string(y.size()) +
                " entries, the product has " + std::to_string(n) + " (pass an empty vector to have it sized)");
  if (mask && mask->size() != n)
    throw Error(std::string(op) + ": the mask has " + std::to_string(mask->size()) + " entries, the output has " +
                std::to_string(n));
  const V identity = SR::template identity<V>();
  if (y.empty() && n > 0) {
    y.reset(n);
    fill(y.data(), eid_t(n), identity);
  }
  // Every entry of a dense vector exists, so a structural mask (or none) allows every
  // position, and its complement none.
  const bool mask_allows_all = mask == nullptr || desc.mask_structural;
  if (mask_allows_all && desc.mask_complement) {
    if (desc.replace) fill(y.data(), eid_t(n), identity);
    return;
  }
  if (n == 0) return;
  const OutputMask<V> output_mask{mask_allows_all ? nullptr : mask->data(), desc.mask_complement, desc.replace};
  const SpmvKernel kernel = options.kernel == SpmvKernel::Auto ? choose_spmv_kernel(m) : options.kernel;
  record_spmv_kernel(kernel);
  // The kernels read x and the mask while they write y: with y aliased to either, the product
  // goes to a copy of y (which keeps the positions the mask leaves alone).
  if (x.data() == y.data() || output_mask.values == y.data()) {
    Vector<V> out(n);
    SPGRAPH_CUDA(cudaMemcpyAsync(out.data(), y.data(), n * sizeof(V), cudaMemcpyDeviceToDevice, 0));
    SpmvLaunch<SR, V, Order>(m, x.data(), out.data(), output_mask).run(kernel);
    y = std::move(out);
  } else {
    SpmvLaunch<SR, V, Order>(m, x.data(), y.data(), output_mask, after_previous).run(kernel);
  }
}

}  // namespace spgraph::gpu::detail

namespace spgraph::gpu {

template <class SR, class V>
void mxv(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Matrix<V>& A, const Vector<V>& x,
         SR, const Descriptor& desc, const SpmvOptions& options) {
  if (desc.transpose_b)
    throw Error("gpu::mxv: Descriptor::transpose_b asks to transpose the vector operand, which has no transpose "
                "(transpose_a multiplies by A')");
  detail::spmv_apply<SR, V, detail::MatrixFirst>("gpu::mxv", y, mask, desc.transpose_a ? spmv_transpose(A) : A, x,
                                                 desc, options);
}

template <class SR, class V>
void vxm(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, const Matrix<V>& A,
         SR, const Descriptor& desc, const SpmvOptions& options) {
  if (desc.transpose_a)
    throw Error("gpu::vxm: Descriptor::transpose_a asks to transpose the vector operand, which has no transpose "
                "(the matrix is vxm's second operand: transpose_b multiplies by A')");
  // x' A = (A' x) with the operands of the multiply swapped; x' A' = (A x) likewise.
  detail::spmv_apply<SR, V, detail::VectorFirst>("gpu::vxm", y, mask, desc.transpose_b ? A : spmv_transpose(A), x,
                                                 desc, options);
}

namespace detail {
template <class SR, class V>
void mxv_after_previous_kernel(Vector<V>& y, const Matrix<V>& A, const Vector<V>& x, SR, const SpmvOptions& options) {
  spmv_apply<SR, V, MatrixFirst>("gpu::MxvReducer", y, nullptr, A, x, Descriptor{}, options,
                                 device::AfterPrevious::Programmatic);
}
}  // namespace detail

}  // namespace spgraph::gpu

#define SPGRAPH_GPU_SPMV_INSTANTIATE(SR, V)                                                                  \
  template void spgraph::gpu::mxv<SR, V>(spgraph::gpu::Vector<V>&, const spgraph::gpu::Vector<V>*,           \
                                         const spgraph::gpu::Matrix<V>&, const spgraph::gpu::Vector<V>&, SR, \
                                         const spgraph::Descriptor&, const spgraph::SpmvOptions&);           \
  template void spgraph::gpu::vxm<SR, V>(spgraph::gpu::Vector<V>&, const spgraph::gpu::Vector<V>*,           \
                                         const spgraph::gpu::Vector<V>&, const spgraph::gpu::Matrix<V>&, SR, \
                                         const spgraph::Descriptor&, const spgraph::SpmvOptions&); \
  template void spgraph::gpu::detail::mxv_after_previous_kernel<SR, V>(                                      \
      spgraph::gpu::Vector<V>&, const spgraph::gpu::Matrix<V>&, const spgraph::gpu::Vector<V>&, SR,          \
      const spgraph::SpmvOptions&);
