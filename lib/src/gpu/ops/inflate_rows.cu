// inflate_rows on the GPU (spgraph/gpu/inflate_rows.hpp): each warp takes a row, writes its
// powers where the result's values go (A's own in place) while summing them in double, then
// scales them by the inverse of the sum. Power and inverse are apply's own (elementwise_impl.cuh)
// and the rounding unary::ToFloat, so the values are the steps' up to the order of the row's sum.
#include "elementwise_impl.cuh"
#include "spgraph/gpu/inflate_rows.hpp"
#include "spgraph/unary_ops.hpp"

namespace spgraph::gpu {
namespace {

template <class V>
__global__ void inflate_rows_kernel(device::CsrView<V> a, double power, bool float_values, V* out) {
  const eid_t warps = eid_t(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32;
  for (eid_t i = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; i < a.nrows; i += warps) {
    const eid_t b = a.rowptr[i], e = a.rowptr[i + 1];
    double sum = 0;
    for (eid_t p = b + lane; p < e; p += 32) {
      const V x = V(detail::ewise_impl::power(double(a.value(p)), power));
      out[p] = x;
      sum += double(x);
    }
    for (int d = 16; d > 0; d /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, d);
    const V inverse = detail::ewise_impl::inverse(V(sum));
    for (eid_t p = b + lane; p < e; p += 32) {  // each lane rereads only what it wrote
      const V x = out[p] * inverse;
      out[p] = float_values ? unary::ToFloat{}(x) : x;
    }
  }
}

}  // namespace

template <class V>
void inflate_rows(Matrix<V>& C, const Matrix<V>& A, const InflateSpec& spec) {
  const bool in_place = &C == &A;
  device::DeviceCsr<V> t = in_place ? std::move(C).release() : detail::ewise_impl::same_pattern(A);
  const device::CsrView<V> a = in_place ? t.view() : A.csr().view();  // a pattern's view reads 1s
  if (t.is_pattern()) t.val = device::Buffer<V>(t.nnz());
  if (t.nnz() > 0) {
    const unsigned grid = detail::ops_grid(eid_t(t.nrows) * 32);
    inflate_rows_kernel<V><<<grid, detail::kOpsThreads>>>(a, spec.power, spec.float_values, t.val.data());
    SPGRAPH_CHECK_LAUNCH("inflate_rows_kernel");
  }
  C = Matrix<V>(std::move(t));
}

template void inflate_rows<float>(Matrix<float>&, const Matrix<float>&, const InflateSpec&);
template void inflate_rows<double>(Matrix<double>&, const Matrix<double>&, const InflateSpec&);

}  // namespace spgraph::gpu
