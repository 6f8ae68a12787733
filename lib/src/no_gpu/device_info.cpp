// device_info.hpp in a build without the GPU backend (SPGRAPH_GPU=OFF): there is no device to
// ask, and the answer says why, so apps and tests state it instead of failing on a CUDA call.
#include "spgraph/device/device_info.hpp"

#include "spgraph/error.hpp"

namespace spgraph::device {
namespace {
constexpr const char* kNoGpuBackend =
    "this build of spgraph has no GPU backend (it was built without the CUDA toolkit)";
}

bool gpu_available(std::string* why) {
  if (why) *why = kNoGpuBackend;
  return false;
}

std::string device_description() { throw Error(kNoGpuBackend); }
int current_device() { throw Error(kNoGpuBackend); }
int multiprocessor_count() { throw Error(kNoGpuBackend); }
std::size_t l2_cache_bytes() { throw Error(kNoGpuBackend); }
bool dependent_launch_supported() { return false; }

}  // namespace spgraph::device
