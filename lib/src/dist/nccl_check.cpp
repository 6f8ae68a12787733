#include "dist/nccl_check.hpp"

#include <string>

#include "spgraph/error.hpp"

namespace spgraph::dist {

void check_nccl(ncclResult_t status, const char* call, const char* file, int line) {
  if (status == ncclSuccess) return;
  std::string msg = std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    ncclGetErrorString(status);
  // ncclInProgress is not an error for non-blocking communicators; ours block, so it is one.
  if (const char* last = ncclGetLastError(nullptr); last != nullptr && *last != '\0')
    msg += std::string(" (") + last + ")";
  throw Error(msg);
}

}  // namespace spgraph::dist
