#pragma once
// Definitions of gpu::MxvReducer::prepare and start (contract in mxv_reduce.hpp): the product
// into scratch, then a map_reduce pass over its rows that reads the previous pass's totals from
// device memory and leaves its own there for the next. A COO product and its pass run in one
// cooperative kernel (coo_map_reduce_kernel) or as the COO kernel and then a map_reduce kernel
// (chain_launch); any other product is mxv and then a map_reduce kernel.
#include <cooperative_groups.h>

#include <algorithm>
#include <utility>

#include "device/cache_hints.hpp"
#include "device/cooperative_launch.hpp"
#include "device/dependent_launch.hpp"
#include "gpu/fused/dense_map_reduce_impl.cuh"
#include "spgraph/gpu/mxv_reduce.hpp"
#include "gpu/spmv/spmv_formats.hpp"
#include "gpu/spmv/spmv_kernels_impl.cuh"

namespace spgraph::gpu::detail {

// A row of a stored product and f's inputs for it, loaded apart from f's work on them.
template <class V, class Row>
struct LoadedRow {
  V w;
  Row row;
};

// The rows of a stored product, as a map_reduce functor. The product is read evict-first, for
// the last time; the previous totals through the read-only path: no store of the pass can change
// them (the totals are overwritten only by the pass's last block, after every block's last
// read). f sees its vectors as device::row_pass_view gives them: those passed const read for the
// last time, evict-first, and those it writes, which the next product reads, stored evict-last.
// Where f has
// load(i, data...) (gpu::MxvLoop's contract, mxv_loop.hpp), so does this functor (LoadsAhead,
// dense_map_reduce_impl.cuh), returning a LoadedRow.
template <class V, int R, class F>
struct RowsOfProduct {
  F f;
  const double* prev_totals;

  template <class... T>
  __device__ void operator()(std::size_t i, double (&acc)[R], const V* w, T*... data) const {
    double prev[R];
    load_prev(prev);
    f(i, device::load_last_use(w, i), acc, prev, device::row_pass_view(data)...);
  }

  template <class... T>
    requires LoadsAheadFrom<F, device::RowPassView<T>...>
  __device__ auto load(std::size_t i, const V* w, T*... data) const {
    return LoadedRow<V, decltype(f.load(i, device::row_pass_view(data)...))>{device::load_last_use(w, i),
                                                                             f.load(i, device::row_pass_view(data)...)};
  }
  template <class Row, class... T>
  __device__ void operator()(std::size_t i, const LoadedRow<V, Row>& in, double (&acc)[R], const V*,
                             T*... data) const {
    double prev[R];
    load_prev(prev);
    f(i, in.w, in.row, acc, prev, device::row_pass_view(data)...);
  }

 private:
  __device__ void load_prev(double (&prev)[R]) const {
#pragma unroll
    for (int r = 0; r < R; ++r) prev[r] = __ldg(prev_totals + r);
  }
};

// map_reduce_kernel's pass over a product's rows, then `next`, the buffer the next product
// accumulates into, put to SR's identity, so the COO kernel's atomics need no fill kernel
// first. In a loop of its own: clearing each row beside its pass made the pass spill under its
// 32 registers, as did clearing the product's own rows as they were read (the one-kernel chain
// below, up to twice the pass's time; docs/performance/pagerank.md).
template <class SR, int R, class Rows, class V, class... T>
__global__ void __launch_bounds__(kMapReduceBlock, kMapReduceBlocksPerSm<Rows, const V, T...>)
    rows_then_clear_kernel(std::size_t n, Rows rows, BlockSumTargets to, V* next, const V* w, T*... data) {
  double acc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = 0;
  map_rows<R>(n, rows, acc, gridDim.x, w, data...);
  const std::size_t stride = std::size_t(gridDim.x) * kMapReduceBlock;
  for (std::size_t i = std::size_t(blockIdx.x) * kMapReduceBlock + threadIdx.x; i < n; i += stride)
    next[i] = SR::template identity<V>();
  add_block_sums<R>(acc, to, gridDim.x);
}

// The kernel for these data pointers, T deduced (see map_reduce_kernel_for).
template <class SR, int R, class Rows, class V, class... T>
constexpr auto rows_then_clear_kernel_for(T*...) {
  return rows_then_clear_kernel<SR, R, Rows, V, T...>;
}

// The rows of a product that the same kernel accumulated into w with atomics: each is read
// once, through L2 (other blocks wrote it in this kernel, so not through the read-only path),
// and put back to the identity, so the next product accumulates into w without a fill kernel
// first. f's vectors as RowsOfProduct hands them.
template <class V, int R, class F>
struct RowsOfAccumulatedProduct {
  F f;
  const double* prev_totals;
  V* w;
  V identity;

  template <class... T>
  __device__ void operator()(std::size_t i, double (&acc)[R], T*... data) const {
    double prev[R];
#pragma unroll
    for (int r = 0; r < R; ++r) prev[r] = __ldg(prev_totals + r);
    const V wi = __ldcg(w + i);
    w[i] = identity;
    f(i, wi, acc, prev, device::row_pass_view(data)...);
  }
};

// One iteration of a chain in one kernel: w += A x by COO warp chunks, at most one a warp
// (w holds the identity on entry); a grid-wide barrier; then the pass over w's rows and the
// block sums, by the first pass_blocks blocks only (the others would add nothing but an
// arrival atomic each). Launched cooperatively with at most the resident blocks, so the
// barrier cannot wait on a block that never runs. 6 blocks per SM: at 8 (32 registers) the
// kernel spills.
template <class SR, class V, int R, class Product, class Rows, class... T>
__global__ void __launch_bounds__(kMapReduceBlock, 6)
    coo_map_reduce_kernel(const vid_t* __restrict__ row_ids, const vid_t* __restrict__ col, eid_t nnz,
                          eid_t warp_chunk, Product product, V* w, std::size_t n, unsigned pass_blocks, Rows rows,
                          BlockSumTargets to, T*... data) {
  const eid_t begin = ((eid_t(blockIdx.x) * kMapReduceBlock + threadIdx.x) >> 5) * warp_chunk;
  if (begin < nnz) coo_warp_chunk<SR>(begin, row_ids, col, nnz, warp_chunk, product, w, OutputMask<V>{});
  cooperative_groups::this_grid().sync();
  if (blockIdx.x >= pass_blocks) return;
  double acc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = 0;
  map_rows<R>(n, rows, acc, pass_blocks, data...);
  add_block_sums<R>(acc, to, pass_blocks);
}

// The kernel for these data pointers, T deduced (see map_reduce_kernel_for).
template <class SR, class V, int R, class Product, class Rows, class... T>
constexpr auto coo_map_reduce_kernel_for(T*...) {
  return coo_map_reduce_kernel<SR, V, R, Product, Rows, T...>;
}

// How a chain's product runs with its pass. A COO product adds into its output with atomics,
// so the pass can put each row it reads back to the identity and the next product needs no
// fill kernel first: up to kFusedChainMaxNnz nonzeros (mxv_reduce.hpp says why that bound),
// product and pass in one cooperative kernel; above it, the COO kernel and then the pass.
// Any other kernel writes its rows: mxv, then the pass.
enum class ChainLaunch { CooFused, CooThenPass, MxvThenPass };

template <class V>
ChainLaunch chain_launch(const Matrix<V>& A, SpmvKernel requested) {
  const bool coo = requested == SpmvKernel::Auto || requested == SpmvKernel::CooLoadBalanced;
  if (coo && A.nnz() <= kFusedChainMaxNnz && device::cooperative_launch_supported()) return ChainLaunch::CooFused;
  const SpmvKernel kernel = requested == SpmvKernel::Auto ? choose_spmv_kernel(A) : requested;
  return kernel == SpmvKernel::CooLoadBalanced ? ChainLaunch::CooThenPass : ChainLaunch::MxvThenPass;
}

}  // namespace spgraph::gpu::detail

namespace spgraph::gpu {

template <class V, int R>
template <class SR, class F, class... Vs>
void MxvReducer<V, R>::start_coo(F f, const Matrix<V>& A, const Vector<V>& x, bool fused, Vs&... vectors) {
  using namespace detail;
  const std::size_t n = product_.size();
  const V identity = SR::template identity<V>();
  if (!(product_holds_ && *product_holds_ == identity)) {
    fill(product_.data(), eid_t(n), identity);
    product_holds_ = identity;
  }
  const auto& csr = A.csr();
  const eid_t nnz = csr.nnz();
  const vid_t* row_ids = nnz > 0 ? spmv_coo_row_ids(A).data() : nullptr;
  const int slot = started_ % 2;
  auto launch = [&](auto product) {
    if (!fused) {  // the product, then a pass that clears the spare buffer for the next one
      size_product(n, true);
      launch_coo_kernel<SR>(row_ids, csr.col.data(), nnz, product, product_.data(), OutputMask<V>{});
      // (The functor's type spelled out: a local alias as a template argument in this lambda
      // breaks nvcc's generated launch stub.)
      auto pass = rows_then_clear_kernel_for<SR, R, RowsOfProduct<V, R, F>, V>(vectors.data()...);
      const int grid = map_reduce_grid(pass, n);
      pass<<<grid, kMapReduceBlock>>>(
          n, RowsOfProduct<V, R, F>{f, totals_.data()},
          sum_targets<R>(partials_, arrivals_, std::size_t(grid), 0, sums_.device(slot), totals_.data()),
          spare_.data(), product_.data(), vectors.data()...);
      SPGRAPH_CHECK_LAUNCH("gpu::MxvReducer row pass");
      std::swap(product_, spare_);
      return;
    }
    using Rows = RowsOfAccumulatedProduct<V, R, F>;
    const Rows rows{f, totals_.data(), product_.data(), identity};
    auto kernel = coo_map_reduce_kernel_for<SR, V, R, decltype(product), Rows>(vectors.data()...);
    static device::PerDevice<int> resident;  // per instantiation and device
    const CooSingleLaunchShape shape = coo_single_launch_shape(
        A.nrows(), nnz, kMapReduceBlock, resident.get([&](int) { return device::resident_blocks(kernel, kMapReduceBlock); }));
    const unsigned pass_blocks = std::min(blocks_of(eid_t(n), kMapReduceBlock), unsigned(shape.grid));
    device::launch_cooperative(
        kernel, shape.grid, kMapReduceBlock, 0, 0, row_ids, csr.col.data(), nnz, shape.warp_chunk, product,
        product_.data(), n, pass_blocks, rows,
        sum_targets<R>(partials_, arrivals_, std::size_t(pass_blocks), 0, sums_.device(slot), totals_.data()),
        vectors.data()...);
  };
  if (MatrixFirst::reads_matrix<SR> && !A.is_pattern())
    launch(EntryProduct<SR, V, MatrixFirst, true>{csr.val.data(), x.data()});
  else
    launch(EntryProduct<SR, V, MatrixFirst, false>{csr.val.data(), x.data()});
}

template <class V, int R>
void MxvReducer<V, R>::prepare(const Matrix<V>& A, const SpmvOptions& options) {
  using namespace detail;
  const std::size_t n = static_cast<std::size_t>(A.nrows());
  if (n == 0) return size_product(0, false);
  const ChainLaunch how = chain_launch(A, options.kernel);
  size_product(n, how == ChainLaunch::CooThenPass);
  if (how == ChainLaunch::MxvThenPass)
    prepare_spmv(A, options.kernel);
  else if (A.nnz() > 0)
    spmv_coo_row_ids(A);
}

template <class V, int R>
template <class SR, class F, class... Vs>
void MxvReducer<V, R>::start(F f, const Matrix<V>& A, const Vector<V>& x, SR, const SpmvOptions& options,
                             Vs&... vectors) {
  using namespace detail;
  if (started_ - finished_ >= 2)
    throw Error("gpu::MxvReducer::start: two passes are in flight already (finish() one first)");
  const std::size_t n = static_cast<std::size_t>(A.nrows());
  size_product(n, false);
  common_length("gpu::MxvReducer (the product's rows, then each vector)", product_, vectors...);
  const int slot = started_ % 2;
  const ChainLaunch how = n > 0 ? chain_launch(A, options.kernel) : ChainLaunch::MxvThenPass;
  if (how != ChainLaunch::MxvThenPass) {
    check_spmv_input("gpu::MxvReducer", x.size(), A);
    start_coo<SR>(f, A, x, how == ChainLaunch::CooFused, vectors...);
    last_matrix_ = 0;
    SPGRAPH_CUDA(cudaEventRecord(sums_.done(slot), 0));
    ++started_;
    return;
  }
  product_holds_.reset();
  // On the matrix of the previous start(), whose formats that start built, the product reads
  // A while the previous pass finishes (mxv_reduce.hpp).
  if (last_matrix_ == A.id() && last_kernel_ == options.kernel)
    mxv_after_previous_kernel(product_, A, x, SR{}, options);  // checks x
  else
    mxv<SR, V>(product_, nullptr, A, x, SR{}, Descriptor{}, options);
  last_matrix_ = A.id();
  last_kernel_ = options.kernel;
  if (n == 0) {
    sums_.clear(slot);
  } else {
    using Rows = RowsOfProduct<V, R, F>;
    auto pass = map_reduce_kernel_for<R, Rows>(product_.data(), vectors.data()...);
    const int grid = map_reduce_grid(pass, n);
    pass<<<grid, kMapReduceBlock>>>(
        n, Rows{f, totals_.data()},
        sum_targets<R>(partials_, arrivals_, std::size_t(grid), 0, sums_.device(slot), totals_.data()),
        product_.data(), vectors.data()...);
    SPGRAPH_CHECK_LAUNCH("gpu::MxvReducer row pass");
  }
  SPGRAPH_CUDA(cudaEventRecord(sums_.done(slot), 0));
  ++started_;
}

}  // namespace spgraph::gpu
