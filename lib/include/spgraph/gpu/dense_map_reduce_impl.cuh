#pragma once
// Definition of gpu::map_reduce (contract in dense_map_reduce.hpp). One grid-stride kernel,
// sized to what is resident on the device at once so each thread covers several indices and
// the per-block partials stay few; a CUB block reduction per sum; the partials come back in
// one small copy and are added on the host in block order, which keeps the result
// deterministic (atomics would make the last bits, and so a convergence test right at its
// threshold, vary from run to run).
#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/dense_map_reduce.hpp"

namespace spgraph::gpu {
namespace detail {

constexpr int kMapReduceBlock = 256;

template <int R, class F, class... T>
__global__ void __launch_bounds__(kMapReduceBlock)
    map_reduce_kernel(std::size_t n, F f, double* partials, T*... data) {
  double acc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = 0;
  const std::size_t stride = std::size_t(gridDim.x) * kMapReduceBlock;
  for (std::size_t i = std::size_t(blockIdx.x) * kMapReduceBlock + threadIdx.x; i < n; i += stride)
    f(i, acc, data...);

  using BlockReduce = cub::BlockReduce<double, kMapReduceBlock>;
  __shared__ typename BlockReduce::TempStorage storage;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const double block_sum = BlockReduce(storage).Sum(acc[r]);  // valid in thread 0 only
    if (threadIdx.x == 0) partials[std::size_t(blockIdx.x) * R + r] = block_sum;
    __syncthreads();  // the next reduction reuses storage
  }
}

// Blocks of this kernel that are resident on the whole device at once.
template <class Kernel>
int resident_blocks(Kernel kernel) {
  int dev = 0, sms = 0, per_sm = 0;
  SPGRAPH_CUDA(cudaGetDevice(&dev));
  SPGRAPH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  SPGRAPH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kMapReduceBlock, 0));
  return std::max(1, sms * per_sm);
}

}  // namespace detail

template <int R, class F, class... V>
std::array<double, R> map_reduce(F f, Vector<V>&... vectors) {
  static_assert(R >= 1, "map_reduce needs at least one sum");
  static_assert(sizeof...(V) >= 1, "map_reduce needs at least one vector");
  const std::size_t sizes[] = {vectors.size()...};
  const std::size_t n = sizes[0];
  for (std::size_t s : sizes)
    if (s != n)
      throw Error("gpu::map_reduce: vectors of different lengths (" + std::to_string(n) + " and " +
                  std::to_string(s) + ")");
  std::array<double, R> sums{};
  if (n == 0) return sums;

  const cudaStream_t streams[] = {vectors.stream()...};
  const cudaStream_t stream = streams[0];
  auto kernel = detail::map_reduce_kernel<R, F, V...>;
  static const int resident = detail::resident_blocks(kernel);  // per instantiation, once
  const std::size_t needed = (n + detail::kMapReduceBlock - 1) / detail::kMapReduceBlock;
  const int grid = static_cast<int>(std::min<std::size_t>(needed, static_cast<std::size_t>(resident)));

  device::Buffer<double> partials(static_cast<std::size_t>(grid) * R, stream);
  kernel<<<grid, detail::kMapReduceBlock, 0, stream>>>(n, f, partials.data(), vectors.data()...);
  SPGRAPH_CHECK_LAUNCH("gpu::map_reduce kernel");
  const std::vector<double> host = partials.download();  // waits for the kernel
  for (int b = 0; b < grid; ++b)
    for (int r = 0; r < R; ++r) sums[r] += host[static_cast<std::size_t>(b) * R + r];
  return sums;
}

}  // namespace spgraph::gpu
