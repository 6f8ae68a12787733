#include "spgraph/device/cuda_check.hpp"

#include <string>

#include "spgraph/error.hpp"

namespace spgraph::device {

void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next call does not see it again
  std::string msg = std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")";
  if (status == cudaErrorMemoryAllocation) throw ResourceError(msg);
  throw Error(msg);
}

}  // namespace spgraph::device
