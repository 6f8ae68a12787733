#pragma once
#include <cusparse.h>
// cuSPARSE is used only as the baseline the benchmarks compare against.

namespace spgraph::device {
void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line);
}  // namespace spgraph::device

#define SPGRAPH_CUSPARSE(call) ::spgraph::device::check_cusparse((call), #call, __FILE__, __LINE__)
