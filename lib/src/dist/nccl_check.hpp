#pragma once
// Every NCCL call of the NCCL communicator is checked; a failure becomes spgraph::Error naming
// the call, file and line, NCCL's error name and its last error message (which says more, e.g.
// which peer or transport failed). CUDA calls go through SPGRAPH_CUDA
// (spgraph/device/cuda_check.hpp), the same form.
#include <nccl.h>

namespace spgraph::dist {

void check_nccl(ncclResult_t status, const char* call, const char* file, int line);

}  // namespace spgraph::dist

#define SPGRAPH_NCCL(call) ::spgraph::dist::check_nccl((call), #call, __FILE__, __LINE__)
