#include "spgraph/device/memory.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>

#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"

namespace spgraph::device {
namespace {

std::atomic<std::size_t> g_current{0};
std::atomic<std::size_t> g_peak{0};

cudaMemPool_t default_pool(int dev) {
  cudaMemPool_t pool;
  SPGRAPH_CUDA(cudaDeviceGetDefaultMemPool(&pool, dev));
  return pool;
}

cudaMemPool_t current_pool() {
  int dev = 0;
  SPGRAPH_CUDA(cudaGetDevice(&dev));
  return default_pool(dev);
}

// Keep freed blocks in the pool: returning them to the driver after every synchronisation
// would make each SpGEMM phase pay cudaMalloc again. Once for each device's pool.
void configure_pool() {
  static PerDevice<bool> configured;
  configured.get([](int dev) {
    std::uint64_t threshold = UINT64_MAX;
    SPGRAPH_CUDA(cudaMemPoolSetAttribute(default_pool(dev), cudaMemPoolAttrReleaseThreshold, &threshold));
    return true;
  });
}

constexpr const char* kLimitVariable = "SPGRAPH_GPU_MEMORY_LIMIT";
constexpr std::size_t kNoLimit = SIZE_MAX;
std::atomic<std::size_t> g_limit{kNoLimit};
std::once_flag g_limit_once;
std::atomic<const char*> g_limit_source{kLimitVariable};  // what set the limit, for the error message

// "123", "512K", "1.5G", "8GB", "8GiB", ... (powers of 1024, any case) as bytes.
std::size_t parse_limit(const std::string& text) {
  const auto malformed = [&] {
    return Error(std::string(kLimitVariable) + "=" + text +
                 ": expected a number of bytes, optionally followed by K, M, G or T (powers of 1024), as in 512M");
  };
  std::size_t used = 0;
  double number = 0;
  try {
    number = std::stod(text, &used);
  } catch (const std::exception&) {
    throw malformed();
  }
  std::string unit = text.substr(used);
  for (char& c : unit) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (unit.ends_with("ib")) unit.resize(unit.size() - 2);
  else if (unit.ends_with("b")) unit.pop_back();
  double scale = 1;
  if (unit == "k") scale = 0x1p10;
  else if (unit == "m") scale = 0x1p20;
  else if (unit == "g") scale = 0x1p30;
  else if (unit == "t") scale = 0x1p40;
  else if (!unit.empty()) throw malformed();
  const double bytes = number * scale;
  if (!(bytes >= 1) || bytes >= 0x1p63) throw malformed();
  return static_cast<std::size_t>(bytes);
}

// The limit in force, reading the environment the first time.
std::size_t current_limit() {
  std::call_once(g_limit_once, [] {
    const char* text = std::getenv(kLimitVariable);
    if (text && *text) g_limit = parse_limit(text);
  });
  return g_limit.load();
}

}  // namespace

std::string format_bytes(std::size_t bytes) {
  char buf[64];
  if (bytes >= (std::size_t(1) << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / double(1ull << 30));
  else if (bytes >= (std::size_t(1) << 20)) std::snprintf(buf, sizeof buf, "%.2f MiB", bytes / double(1ull << 20));
  else if (bytes >= 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024.0);
  else std::snprintf(buf, sizeof buf, "%zu bytes", bytes);
  return buf;
}

void set_memory_limit(std::optional<std::size_t> bytes) {
  current_limit();  // so a later first read of the environment cannot replace this
  g_limit_source = "set_memory_limit";
  g_limit = bytes ? *bytes : kNoLimit;
}

void* allocate(std::size_t bytes, cudaStream_t stream) {
  configure_pool();
  const std::size_t limit = current_limit();
  // Checked, then counted below: host threads allocating at the same moment could each pass
  // the check and together go past the limit by one allocation each.
  const std::size_t held = g_current.load();
  if (limit != kNoLimit && bytes > limit - std::min(held, limit))
    throw ResourceError("device memory limit reached: could not allocate " + format_bytes(bytes) + " with " +
                        format_bytes(held) + " held by spgraph under its limit of " + format_bytes(limit) + " (" +
                        g_limit_source.load() + ")");
  void* p = nullptr;
  cudaError_t st = cudaMallocAsync(&p, bytes, stream);
  if (st == cudaErrorMemoryAllocation) {
    // The pool keeps what was freed (configure_pool), in blocks that may be too small for this
    // request while counting as available: hand them back to the driver and try once more.
    cudaGetLastError();
    SPGRAPH_CUDA(cudaDeviceSynchronize());  // frees still queued on streams complete first
    SPGRAPH_CUDA(cudaMemPoolTrimTo(current_pool(), 0));
    st = cudaMallocAsync(&p, bytes, stream);
  }
  if (st == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t free_b = 0, total_b = 0;
    SPGRAPH_CUDA(cudaMemGetInfo(&free_b, &total_b));
    throw ResourceError("device memory exhausted: could not allocate " + format_bytes(bytes) + " (" +
                        format_bytes(free_b) + " free on the device of " + format_bytes(total_b) + ", " +
                        format_bytes(held) + " held by spgraph)");
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
  const cudaMemPool_t pool = current_pool();
  std::uint64_t reserved = 0, used = 0;
  SPGRAPH_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  SPGRAPH_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  const std::size_t device = free_b + static_cast<std::size_t>(reserved - used);
  const std::size_t limit = current_limit();
  if (limit == kNoLimit) return device;
  return std::min(device, limit - std::min(g_current.load(), limit));
}

}  // namespace spgraph::device
