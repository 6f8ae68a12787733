#include "spgraph/device/device_info.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

#include "spgraph/device/cuda_check.hpp"

namespace spgraph::device {

namespace {

// "12.4" from CUDA's 12040.
std::string cuda_version(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

// What a user can act on when cudaGetDeviceCount fails. CUDA's own texts mislead here: with no
// NVIDIA driver installed at all, the runtime says "CUDA driver version is insufficient for
// CUDA runtime version"; cudaDriverGetVersion tells the two apart (0: no driver).
std::string why_no_device(cudaError_t st) {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  switch (st) {
    case cudaErrorInsufficientDriver: {
      int driver = 0, runtime = 0;
      cudaDriverGetVersion(&driver);
      cudaRuntimeGetVersion(&runtime);
      if (driver == 0) return "no NVIDIA driver found";
      return "the NVIDIA driver supports CUDA up to " + cuda_version(driver) + ", older than the CUDA " +
             cuda_version(runtime) + " this build needs (update the driver)";
    }
    case cudaErrorNoDevice:
      if (visible)
        return std::string("no CUDA device found (CUDA_VISIBLE_DEVICES=\"") + visible + "\" limits the devices CUDA sees)";
      return "no CUDA device found";
    case cudaErrorDevicesUnavailable:
      return "every CUDA device is busy or unavailable (another process may hold one in exclusive mode)";
    case cudaErrorSystemDriverMismatch:
      return "the NVIDIA kernel module and driver library are of different versions (reload the module or reboot)";
    case cudaErrorCompatNotSupportedOnDevice:
      return "the CUDA forward-compatibility driver does not support this device";
    default:
      return std::string("CUDA cannot list the devices (") + cudaGetErrorString(st) + ")";
  }
}

}  // namespace

bool gpu_available(std::string* why) {
  int count = 0;
  cudaError_t st = cudaGetDeviceCount(&count);
  if (st != cudaSuccess) {
    cudaGetLastError();
    if (why) *why = why_no_device(st);
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  // The driver may list a device yet fail to create a context (busy, wrong driver):
  // a one-byte allocation brings the context up and proves it.
  void* p = nullptr;
  st = cudaMalloc(&p, 1);
  if (st != cudaSuccess) {
    cudaGetLastError();
    if (why) *why = std::string("the CUDA device is unusable (") + cudaGetErrorString(st) + ")";
    return false;
  }
  cudaFree(p);
  return true;
}

std::string device_description() {
  int dev = 0;
  SPGRAPH_CUDA(cudaGetDevice(&dev));
  cudaDeviceProp prop{};
  SPGRAPH_CUDA(cudaGetDeviceProperties(&prop, dev));
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %.1f GiB)", prop.name, prop.major, prop.minor,
                prop.totalGlobalMem / double(1ull << 30));
  return buf;
}

int current_device() {
  int dev = 0;
  SPGRAPH_CUDA(cudaGetDevice(&dev));
  return dev;
}

namespace {
int device_attribute(cudaDeviceAttr attribute, int dev) {
  int value = 0;
  SPGRAPH_CUDA(cudaDeviceGetAttribute(&value, attribute, dev));
  return value;
}
}  // namespace

int multiprocessor_count() {
  static PerDevice<int> count;
  return count.get([](int dev) { return device_attribute(cudaDevAttrMultiProcessorCount, dev); });
}

bool dependent_launch_supported() {
  static PerDevice<bool> supported;
  return supported.get([](int dev) { return device_attribute(cudaDevAttrComputeCapabilityMajor, dev) >= 9; });
}

std::size_t l2_cache_bytes() {
  static PerDevice<std::size_t> bytes;
  return bytes.get([](int dev) { return std::size_t(device_attribute(cudaDevAttrL2CacheSize, dev)); });
}

}  // namespace spgraph::device
