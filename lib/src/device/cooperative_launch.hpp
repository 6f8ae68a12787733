#pragma once
// Kernels that wait at a grid-wide barrier (cooperative_groups::this_grid().sync()) must have
// every block resident at once, which only a cooperative launch guarantees: launch_cooperative
// makes one, with a grid of at most resident_blocks(kernel, threads).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <utility>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/device_info.hpp"
#include "device/launch.hpp"

namespace spgraph::device {

// Blocks of `threads` threads of this kernel, each with shared_bytes of dynamic shared memory,
// that the whole current device holds at once.
template <class Kernel>
int resident_blocks(Kernel kernel, int threads, std::size_t shared_bytes = 0) {
  int per_sm = 0;
  SPGRAPH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
  return std::max(1, multiprocessor_count() * per_sm);
}

// Of the current device, asked once per device: the kernels that use it are on hot paths (a
// PageRank iteration, a small SpMV).
inline bool cooperative_launch_supported() {
  static PerDevice<bool> supported;
  return supported.get([](int dev) {
    int attribute = 0;
    SPGRAPH_CUDA(cudaDeviceGetAttribute(&attribute, cudaDevAttrCooperativeLaunch, dev));
    return attribute != 0;
  });
}

template <class... Params, class... Args>
void launch_cooperative(void (*kernel)(Params...), int grid, int threads, std::size_t shared_bytes,
                        cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  launch_with_attribute(&cooperative, kernel, unsigned(grid), unsigned(threads), shared_bytes, stream,
                        std::forward<Args>(args)...);
}

}  // namespace spgraph::device
