#include "spgraph/device/device_info.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>

#include "spgraph/device/cuda_check.hpp"

namespace spgraph::device {

bool gpu_available(std::string* why) {
  int count = 0;
  cudaError_t st = cudaGetDeviceCount(&count);
  if (st != cudaSuccess) {
    cudaGetLastError();
    if (why) *why = std::string("no CUDA driver or device (") + cudaGetErrorString(st) + ")";
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
    if (why) *why = std::string("CUDA device unusable (") + cudaGetErrorString(st) + ")";
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

namespace {
int current_device_attribute(cudaDeviceAttr attribute) {
  int dev = 0, value = 0;
  SPGRAPH_CUDA(cudaGetDevice(&dev));
  SPGRAPH_CUDA(cudaDeviceGetAttribute(&value, attribute, dev));
  return value;
}
}  // namespace

int multiprocessor_count() {
  static const int count = current_device_attribute(cudaDevAttrMultiProcessorCount);
  return count;
}

bool dependent_launch_supported() {
  static const bool supported = current_device_attribute(cudaDevAttrComputeCapabilityMajor) >= 9;
  return supported;
}

std::size_t l2_cache_bytes() {
  static const std::size_t bytes = std::size_t(current_device_attribute(cudaDevAttrL2CacheSize));
  return bytes;
}

}  // namespace spgraph::device
