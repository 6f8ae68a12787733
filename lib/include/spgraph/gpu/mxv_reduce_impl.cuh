#pragma once
// Definition of gpu::MxvReducer::start (contract in mxv_reduce.hpp): mxv into scratch, then a
// map_reduce pass over its rows that reads the previous pass's totals from device memory and
// leaves its own there for the next.
#include "spgraph/gpu/dense_map_reduce_impl.cuh"
#include "spgraph/gpu/mxv_reduce.hpp"
#include "spgraph/gpu/spmv.hpp"

namespace spgraph::gpu::detail {

// The rows of a stored product, as a map_reduce functor. The product and the previous totals
// are read through the read-only path: no store of the pass can change them (the totals are
// overwritten only by the pass's last block, after every block's last read), and so the
// compiler may issue the loads for the next rows before this row's stores.
template <class V, int R, class F>
struct RowsOfProduct {
  F f;
  const double* prev_totals;

  template <class... T>
  __device__ void operator()(std::size_t i, double (&acc)[R], const V* w, T*... data) const {
    double prev[R];
#pragma unroll
    for (int r = 0; r < R; ++r) prev[r] = __ldg(prev_totals + r);
    f(i, __ldg(w + i), acc, prev, data...);
  }
};

}  // namespace spgraph::gpu::detail

namespace spgraph::gpu {

template <class V, int R>
template <class SR, class F, class... T>
void MxvReducer<V, R>::start(F f, const Matrix<V>& A, const Vector<V>& x, SR, const SpmvOptions& options,
                             Vector<T>&... vectors) {
  using namespace detail;
  if (started_ - finished_ >= 2)
    throw Error("gpu::MxvReducer::start: two passes are in flight already (finish() one first)");
  const std::size_t n = static_cast<std::size_t>(A.nrows());
  if (product_.size() != n) product_ = Vector<V>(n);
  common_length("gpu::MxvReducer (the product's rows, then each vector)", product_, vectors...);
  const int slot = started_ % 2;
  mxv<SR, V>(product_, nullptr, A, x, SR{}, Descriptor{}, options);  // checks x
  if (n == 0) {
    sums_.clear(slot);
  } else {
    using Rows = RowsOfProduct<V, R, F>;
    auto pass = map_reduce_kernel<R, Rows, V, T...>;
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
