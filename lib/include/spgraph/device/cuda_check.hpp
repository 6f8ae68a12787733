#pragma once
// Every CUDA runtime and cuSPARSE status is checked; a failure becomes spgraph::Error naming
// the call, file and line (and, for out-of-memory, a ResourceError so callers can fall back
// to row panels).
#include <cuda_runtime_api.h>

namespace spgraph::device {

void check_cuda(cudaError_t status, const char* call, const char* file, int line);

}  // namespace spgraph::device

#define SPGRAPH_CUDA(call) ::spgraph::device::check_cuda((call), #call, __FILE__, __LINE__)
// After every kernel launch: catches bad launch configurations at the launch site.
#define SPGRAPH_CHECK_LAUNCH(name) ::spgraph::device::check_cuda(cudaGetLastError(), name, __FILE__, __LINE__)
