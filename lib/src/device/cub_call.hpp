#pragma once
// CUB's device-wide algorithms take two calls: one that reports the temporary storage they
// need, one that runs. run_cub makes both, with the storage from the pooled allocator:
//   run_cub([&](void* temp, std::size_t& bytes) {
//     return cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream);
//   }, stream);
#include <cuda_runtime_api.h>

#include <cstddef>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/memory.hpp"

namespace spgraph::device {

template <class CubCall>
void run_cub(CubCall call, cudaStream_t stream) {
  std::size_t bytes = 0;
  SPGRAPH_CUDA(call(nullptr, bytes));
  Buffer<unsigned char> temp(bytes, stream);
  SPGRAPH_CUDA(call(temp.data(), bytes));
}

}  // namespace spgraph::device
