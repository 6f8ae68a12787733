#pragma once
// Definitions of gpu::MapReducer::start and gpu::map_reduce (contract in dense_map_reduce.hpp).
// One grid-stride kernel, sized to what is resident on the device at once so each thread
// covers several indices and the per-block partials stay few; a CUB block reduction per sum;
// the last block to finish adds the partials in a fixed order and writes the totals to
// page-locked host memory. Atomics on the sums themselves would make the last bits, and so a
// convergence test right at its threshold, vary from run to run; the one atomic here only
// counts finished blocks.
#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/dense_map_reduce.hpp"

namespace spgraph::gpu {
namespace detail {

constexpr int kMapReduceBlock = 256;

// Four indices per round: where f reads through the read-only path (__ldg) and does not
// branch, the compiler may issue the loads of all four before the first store, which puts
// more bytes in flight per SM than one index at a time at full occupancy.
template <int R, class F, class... T>
__global__ void __launch_bounds__(kMapReduceBlock)
    map_reduce_kernel(std::size_t n, F f, double* partials, unsigned* arrivals, double* sums, T*... data) {
  double acc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = 0;
  const std::size_t stride = std::size_t(gridDim.x) * kMapReduceBlock;
  std::size_t i = std::size_t(blockIdx.x) * kMapReduceBlock + threadIdx.x;
  for (; i + 3 * stride < n; i += 4 * stride) {
    f(i, acc, data...);
    f(i + stride, acc, data...);
    f(i + 2 * stride, acc, data...);
    f(i + 3 * stride, acc, data...);
  }
  for (; i < n; i += stride) f(i, acc, data...);

  using BlockReduce = cub::BlockReduce<double, kMapReduceBlock>;
  __shared__ typename BlockReduce::TempStorage storage;
  __shared__ bool last_block;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const double block_sum = BlockReduce(storage).Sum(acc[r]);  // valid in thread 0 only
    if (threadIdx.x == 0) partials[std::size_t(blockIdx.x) * R + r] = block_sum;
    __syncthreads();  // the next reduction reuses storage
  }
  if (threadIdx.x == 0) {
    __threadfence();  // this block's partials are visible device-wide before it is counted
    last_block = atomicAdd(arrivals, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return;

  // Every other block has counted itself, after its fence. Thread t adds the partials of
  // blocks t, t + 256, ... in turn and the block reduction's tree is fixed for the block
  // size, so the totals come out the same on every run. __ldcg reads from L2, where the
  // other blocks' partials are.
#pragma unroll
  for (int r = 0; r < R; ++r) {
    double s = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += kMapReduceBlock) s += __ldcg(&partials[std::size_t(b) * R + r]);
    const double total = BlockReduce(storage).Sum(s);
    if (threadIdx.x == 0) sums[r] = total;
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    *arrivals = 0;           // ready for the next pass, which runs after this kernel
    __threadfence_system();  // the totals reach host memory before the kernel completes
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

template <int R>
template <class F, class... V>
void MapReducer<R>::start(F f, Vector<V>&... vectors) {
  static_assert(sizeof...(V) >= 1, "map_reduce needs at least one vector");
  if (pending_)
    throw Error("gpu::MapReducer::start: the previous pass's sums were not taken (call finish() first)");
  const std::size_t sizes[] = {vectors.size()...};
  const std::size_t n = sizes[0];
  for (std::size_t s : sizes)
    if (s != n)
      throw Error("gpu::map_reduce: vectors of different lengths (" + std::to_string(n) + " and " +
                  std::to_string(s) + ")");
  if (n == 0) {
    pending_ = true;
    return;
  }

  const cudaStream_t streams[] = {vectors.stream()...};
  const cudaStream_t stream = streams[0];
  auto kernel = detail::map_reduce_kernel<R, F, V...>;
  static const int resident = detail::resident_blocks(kernel);  // per instantiation, once
  const std::size_t needed = (n + detail::kMapReduceBlock - 1) / detail::kMapReduceBlock;
  const int grid = static_cast<int>(std::min<std::size_t>(needed, static_cast<std::size_t>(resident)));

  // Scratch lives on the stream of the passes; a pass on another stream gets its own.
  const std::size_t partial_count = static_cast<std::size_t>(grid) * R;
  if (partials_.size() < partial_count || partials_.stream() != stream)
    partials_ = device::Buffer<double>(partial_count, stream);
  if (arrivals_.empty() || arrivals_.stream() != stream) {
    arrivals_ = device::Buffer<unsigned>(1, stream);
    arrivals_.fill_zero();
  }
  kernel<<<grid, detail::kMapReduceBlock, 0, stream>>>(n, f, partials_.data(), arrivals_.data(), device_sums_,
                                                         vectors.data()...);
  SPGRAPH_CHECK_LAUNCH("gpu::map_reduce kernel");
  SPGRAPH_CUDA(cudaEventRecord(done_, stream));
  pending_ = launched_ = true;
}

template <int R, class F, class... V>
std::array<double, R> map_reduce(F f, Vector<V>&... vectors) {
  MapReducer<R> pass;
  pass.start(f, vectors...);
  return pass.finish();
}

}  // namespace spgraph::gpu
