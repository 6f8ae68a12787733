#pragma once
// A kernel launch with at most one launch attribute (cudaLaunchKernelEx), the way
// launch_cooperative and launch_kernel make theirs.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "spgraph/device/cuda_check.hpp"

namespace spgraph::device {

// attribute: null for an ordinary launch.
template <class... Params, class... Args>
void launch_with_attribute(const cudaLaunchAttribute* attribute, void (*kernel)(Params...), unsigned grid,
                           unsigned threads, std::size_t shared_bytes, cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  cudaLaunchAttribute copy{};
  if (attribute) copy = *attribute;
  config.attrs = &copy;
  config.numAttrs = attribute ? 1 : 0;
  SPGRAPH_CUDA(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

}  // namespace spgraph::device
