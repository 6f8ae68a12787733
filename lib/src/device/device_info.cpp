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
