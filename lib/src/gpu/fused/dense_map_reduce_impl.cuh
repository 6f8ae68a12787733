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

#include "device/cooperative_launch.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "device/dependent_launch.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/dense_map_reduce.hpp"

namespace spgraph::gpu {
namespace detail {

constexpr int kMapReduceBlock = 256;

// Where a pass's sums go: partials[block * R + r] per block; the last block to arrive adds them
// and writes the totals to host_sums (mapped host memory) and, when not null, to totals
// (device memory, which the next pass of a chain reads).
struct BlockSumTargets {
  double* partials;
  unsigned* arrivals;  // 0 between passes
  double* host_sums;
  double* totals;
};

// Called by every thread of blocks 0 .. blocks-1 of a pass's grid (all of it, or the first
// blocks when the others have no rows), after the block's last use of acc.
template <int R>
__device__ void add_block_sums(const double (&acc)[R], const BlockSumTargets& to, unsigned blocks) {
  using BlockReduce = cub::BlockReduce<double, kMapReduceBlock>;
  __shared__ typename BlockReduce::TempStorage storage;
  __shared__ bool last_block;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const double block_sum = BlockReduce(storage).Sum(acc[r]);  // valid in thread 0 only
    if (threadIdx.x == 0) to.partials[std::size_t(blockIdx.x) * R + r] = block_sum;
    __syncthreads();  // the next reduction reuses storage
  }
  if (threadIdx.x == 0) {
    __threadfence();  // this block's partials are visible device-wide before it is counted
    last_block = atomicAdd(to.arrivals, 1u) == blocks - 1;
  }
  __syncthreads();
  if (!last_block) return;

  // Every other block has counted itself, after its fence. Thread t adds the partials of
  // blocks t, t + 256, ... in turn and the block reduction's tree is fixed for the block
  // size, so the totals come out the same on every run. __ldcg reads from L2, where the
  // other blocks' partials are. The loads of kSumRound blocks and every r are issued before
  // the first add: one at a time, each waited for its round trip before the next was issued,
  // which put about ten L2 round trips after the last block's arrival on a pass of 1056 blocks.
  constexpr int kSumRound = 4;
  double s[R];
#pragma unroll
  for (int r = 0; r < R; ++r) s[r] = 0;
  for (unsigned first = threadIdx.x; first < blocks; first += kSumRound * kMapReduceBlock) {
    double v[kSumRound][R];
#pragma unroll
    for (int u = 0; u < kSumRound; ++u) {
      const unsigned b = first + u * kMapReduceBlock;
#pragma unroll
      for (int r = 0; r < R; ++r) v[u][r] = b < blocks ? __ldcg(&to.partials[std::size_t(b) * R + r]) : 0.0;
    }
#pragma unroll
    for (int u = 0; u < kSumRound; ++u)
#pragma unroll
      for (int r = 0; r < R; ++r) s[r] += v[u][r];
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const double total = BlockReduce(storage).Sum(s[r]);
    if (threadIdx.x == 0) {
      to.host_sums[r] = total;
      if (to.totals) to.totals[r] = total;
    }
    __syncthreads();
  }
  // No system-wide fence for host_sums: the host reads them only after an event recorded
  // behind this kernel has completed, and a kernel's writes, to mapped host memory too, are
  // visible once it has. The fence made the last thread wait for the write to cross to the
  // host (docs/performance/pagerank.md).
  if (threadIdx.x == 0) *to.arrivals = 0;  // ready for the next pass, which runs after this kernel
}

// A functor whose inputs for index i can be loaded apart from its work on them:
// f.load(i, data...) returns them, and f(i, loaded, acc, data...) does the rest. From: handed
// these arguments (pointers or device::*View); LoadsAhead: the pointers to T....
template <class F, class... Args>
concept LoadsAheadFrom = requires(const F& f, std::size_t i, Args... data) { f.load(i, data...); };
template <class F, class... T>
concept LoadsAhead = LoadsAheadFrom<F, T*...>;

// acc += f over indices blockIdx.x * kMapReduceBlock + threadIdx.x + j * stride < n, stride
// the threads of blocks 0 .. blocks-1 (the caller's blockIdx.x is below blocks). Four indices
// per round: where f reads through the read-only path (__ldg) and does not branch, the
// compiler may issue the loads of all four before the first store, which puts more bytes in
// flight per SM than one index at a time at full occupancy. Where f LoadsAhead, the four
// indices' loads come first by construction: PageRank's pass, whose double-precision work
// kept the compiler from issuing an index's loads before the previous index's work was done,
// read at about half the device's memory bandwidth (docs/performance/pagerank.md).
template <int R, class F, class... T>
__device__ __forceinline__ void map_rows(std::size_t n, const F& f, double (&acc)[R], unsigned blocks,
                                         T*... data) {
  constexpr int kRound = 4;
  const std::size_t stride = std::size_t(blocks) * kMapReduceBlock;
  std::size_t i = std::size_t(blockIdx.x) * kMapReduceBlock + threadIdx.x;
  for (; i + (kRound - 1) * stride < n; i += kRound * stride) {
    if constexpr (LoadsAhead<F, T...>) {
      decltype(f.load(i, data...)) in[kRound];
#pragma unroll
      for (int u = 0; u < kRound; ++u) in[u] = f.load(i + u * stride, data...);
#pragma unroll
      for (int u = 0; u < kRound; ++u) f(i + u * stride, in[u], acc, data...);
    } else {
#pragma unroll
      for (int u = 0; u < kRound; ++u) f(i + u * stride, acc, data...);
    }
  }
  for (; i < n; i += stride) {
    if constexpr (LoadsAhead<F, T...>) f(i, f.load(i, data...), acc, data...);
    else f(i, acc, data...);
  }
}

// At most 32 registers, so 8 blocks fit an SM: the pass waits on its loads, and more of them
// in flight pay. A functor that LoadsAhead holds four indices' inputs at once, which spills at
// 32 registers (and PageRank's double pass at 48, 5 blocks), so it gets 4 blocks an SM (up to
// 64 registers). Measurements in docs/performance/pagerank.md.
template <class F, class... T>
inline constexpr int kMapReduceBlocksPerSm = LoadsAhead<F, T...> ? 4 : 8;

template <int R, class F, class... T>
__global__ void __launch_bounds__(kMapReduceBlock, kMapReduceBlocksPerSm<F, T...>)
    map_reduce_kernel(std::size_t n, F f, BlockSumTargets to, T*... data) {
  // A kernel launched behind this one as a dependent (gpu::MxvReducer's next product) waits
  // for it before reading anything it writes, so it may start as soon as there is room.
  device::let_next_kernel_start();
  double acc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = 0;
  map_rows<R>(n, f, acc, gridDim.x, data...);
  add_block_sums<R>(acc, to, gridDim.x);
}

// A pass's kernel for its data pointers, T deduced from them (const where a vector was passed
// const): named by deduction, because nvcc's launch stubs cannot spell the kernel's arguments
// when they are given through an alias template.
template <int R, class F, class... T>
constexpr auto map_reduce_kernel_for(T*...) {
  return map_reduce_kernel<R, F, T...>;
}

// Grid size for a map_reduce_kernel pass over n indices: what is resident on the device at
// once, so each thread covers several indices and the per-block partials stay few.
template <class Kernel>
int map_reduce_grid(Kernel kernel, std::size_t n) {
  static device::PerDevice<int> per_device;  // per instantiation, once a device
  const int resident = per_device.get([&](int) { return device::resident_blocks(kernel, kMapReduceBlock); });
  const std::size_t needed = (n + kMapReduceBlock - 1) / kMapReduceBlock;
  return static_cast<int>(std::min<std::size_t>(needed, static_cast<std::size_t>(resident)));
}

// Scratch for the sums of a pass of `blocks` blocks on `stream`, kept between passes; a pass
// on another stream gets its own.
template <int R>
BlockSumTargets sum_targets(device::Buffer<double>& partials, device::Buffer<unsigned>& arrivals, std::size_t blocks,
                            cudaStream_t stream, double* host_sums, double* totals) {
  if (partials.size() < blocks * R || partials.stream() != stream) partials = device::Buffer<double>(blocks * R, stream);
  if (arrivals.empty() || arrivals.stream() != stream) {
    arrivals = device::Buffer<unsigned>(1, stream);
    arrivals.fill_zero();
  }
  return {partials.data(), arrivals.data(), host_sums, totals};
}

template <class... V>
std::size_t common_length(const char* op, const Vector<V>&... vectors) {
  const std::size_t sizes[] = {vectors.size()...};
  for (std::size_t s : sizes)
    if (s != sizes[0])
      throw Error(std::string(op) + ": vectors of different lengths (" + std::to_string(sizes[0]) + " and " +
                  std::to_string(s) + ")");
  return sizes[0];
}

}  // namespace detail

template <int R>
template <class F, class... Vs>
void MapReducer<R>::start(F f, Vs&... vectors) {
  static_assert(sizeof...(Vs) >= 1, "map_reduce needs at least one vector");
  if (pending_)
    throw Error("gpu::MapReducer::start: the previous pass's sums were not taken (call finish() first)");
  const std::size_t n = detail::common_length("gpu::map_reduce", vectors...);
  if (n == 0) {
    pending_ = true;
    return;
  }

  const cudaStream_t streams[] = {vectors.stream()...};
  const cudaStream_t stream = streams[0];
  auto kernel = detail::map_reduce_kernel_for<R, F>(vectors.data()...);
  const int grid = detail::map_reduce_grid(kernel, n);
  kernel<<<grid, detail::kMapReduceBlock, 0, stream>>>(
      n, f, detail::sum_targets<R>(partials_, arrivals_, std::size_t(grid), stream, sums_.device(0), nullptr),
      vectors.data()...);
  SPGRAPH_CHECK_LAUNCH("gpu::map_reduce kernel");
  SPGRAPH_CUDA(cudaEventRecord(sums_.done(0), stream));
  pending_ = launched_ = true;
}

template <int R, class F, class... Vs>
std::array<double, R> map_reduce(F f, Vs&... vectors) {
  MapReducer<R> pass;
  pass.start(f, vectors...);
  return pass.finish();
}

}  // namespace spgraph::gpu
