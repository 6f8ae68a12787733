#include "spgraph/device/memory.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

#include "spgraph/error.hpp"

namespace spgraph::device {
namespace {

std::atomic<std::size_t> g_current{0};
std::atomic<std::size_t> g_peak{0};
std::once_flag g_pool_once;

// Keep freed blocks in the pool: returning them to the driver after every synchronisation
// would make each SpGEMM phase pay cudaMalloc again.
void configure_pool() {
  int dev = 0;
  SPGRAPH_CUDA(cudaGetDevice(&dev));
  cudaMemPool_t pool;
  SPGRAPH_CUDA(cudaDeviceGetDefaultMemPool(&pool, dev));
  std::uint64_t threshold = UINT64_MAX;
  SPGRAPH_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
}

std::string gib(std::size_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / double(1ull << 30));
  return buf;
}

}  // namespace

void* allocate(std::size_t bytes, cudaStream_t stream) {
  std::call_once(g_pool_once, configure_pool);
  void* p = nullptr;
  cudaError_t st = cudaMallocAsync(&p, bytes, stream);
  if (st == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw ResourceError("device memory exhausted: could not allocate " + gib(bytes) + " (" +
                        gib(available_memory()) + " available, " + gib(g_current.load()) +
                        " held by spgraph)");
  }
  SPGRAPH_CUDA(st);
  std::size_t now = g_current.fetch_add(bytes) + bytes;
  std::size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
  return p;
}

void deallocate(void* ptr, std::size_t bytes, cudaStream_t stream) noexcept {
  cudaFreeAsync(ptr, stream);
  g_current.fetch_sub(bytes);
}

MemoryStats memory_stats() { return {g_current.load(), g_peak.load()}; }

void reset_peak() { g_peak.store(g_current.load()); }

void copy_to_host(void* host, const void* device_ptr, std::size_t bytes, cudaStream_t stream) {
  constexpr std::size_t kStagedBytes = std::size_t(1) << 20;
  struct Staging {
    void* ptr = nullptr;
    std::size_t size = 0;
    ~Staging() {
      if (ptr) cudaFreeHost(ptr);  // at exit the context may be gone already; nothing to report
    }
  };
  thread_local Staging staging;
  if (bytes > kStagedBytes) {
    SPGRAPH_CUDA(cudaMemcpyAsync(host, device_ptr, bytes, cudaMemcpyDeviceToHost, stream));
    SPGRAPH_CUDA(cudaStreamSynchronize(stream));
    return;
  }
  if (bytes > staging.size) {
    const std::size_t size = std::max<std::size_t>(bytes, 4096);
    void* p = nullptr;
    SPGRAPH_CUDA(cudaHostAlloc(&p, size, cudaHostAllocDefault));
    if (staging.ptr) cudaFreeHost(staging.ptr);
    staging.ptr = p;
    staging.size = size;
  }
  SPGRAPH_CUDA(cudaMemcpyAsync(staging.ptr, device_ptr, bytes, cudaMemcpyDeviceToHost, stream));
  SPGRAPH_CUDA(cudaStreamSynchronize(stream));
  std::memcpy(host, staging.ptr, bytes);
}

std::size_t available_memory() {
  std::size_t free_b = 0, total_b = 0;
  SPGRAPH_CUDA(cudaMemGetInfo(&free_b, &total_b));
  int dev = 0;
  SPGRAPH_CUDA(cudaGetDevice(&dev));
  cudaMemPool_t pool;
  SPGRAPH_CUDA(cudaDeviceGetDefaultMemPool(&pool, dev));
  std::uint64_t reserved = 0, used = 0;
  SPGRAPH_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  SPGRAPH_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  return free_b + static_cast<std::size_t>(reserved - used);
}

}  // namespace spgraph::device
