#include "spgraph/device/cuda_check.hpp"

#include <string>

#include "spgraph/device/cusparse_check.hpp"
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

void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  std::string msg = std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    cusparseGetErrorName(status) + " (" + cusparseGetErrorString(status) + ")";
  if (status == CUSPARSE_STATUS_ALLOC_FAILED || status == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES)
    throw ResourceError(msg);
  throw Error(msg);
}

}  // namespace spgraph::device
