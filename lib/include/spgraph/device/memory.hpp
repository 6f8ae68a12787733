#pragma once
// Stream-ordered pooled device memory (cudaMallocAsync on the device's default pool, with
// the release threshold raised so freed blocks are reused rather than returned to the driver:
// cudaMalloc dominated the sparse SpGEMM cases in the seed paper). Every byte goes through
// allocate()/deallocate(), so memory_stats() reports the live and peak bytes of spgraph's own
// allocations, which the benchmarks report as peak device memory.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "spgraph/device/cuda_check.hpp"

namespace spgraph::device {

struct MemoryStats {
  std::size_t current = 0;  // bytes live now
  std::size_t peak = 0;     // most bytes live at once since the last reset_peak()
};

// Throws ResourceError naming the request and the free memory when it cannot be satisfied, or
// the limit (below) when it would pass it.
void* allocate(std::size_t bytes, cudaStream_t stream);
void deallocate(void* ptr, std::size_t bytes, cudaStream_t stream) noexcept;
MemoryStats memory_stats();
void reset_peak();
// Free bytes on the device as the driver reports them, plus what the pool holds unused; under a
// limit, no more than is left below it (so the SpGEMM's default memory budget keeps to it).
std::size_t available_memory();

// The most device memory spgraph holds at once. None by default; the environment variable
// SPGRAPH_GPU_MEMORY_LIMIT sets one (bytes, or a number with K, M, G or T for powers of 1024,
// as in 512M, 1.5G or 8GiB), read once, at the first allocation or call here; set_memory_limit
// replaces it (nullopt: none). For sharing a GPU with other work, and for trying what a graph
// too big for the GPU does. A malformed value throws Error naming the variable.
void set_memory_limit(std::optional<std::size_t> bytes);
// "1.50 GiB", "12.00 MiB", "3.0 KiB", "100 bytes".
std::string format_bytes(std::size_t bytes);

// Copies `bytes` from the device to host memory on `stream` and waits for it. Copies of up to
// 1 MiB go through a pinned block kept per host thread rather than being staged by the driver
// into pageable memory: the SpGEMM, which reads back counts four to six times, took 6-27 us
// less per product (H200; docs/performance/spgemm.md).
void copy_to_host(void* host, const void* device_ptr, std::size_t bytes, cudaStream_t stream);

// RAII device array of trivially copyable T, allocated on (and freed in order with) a stream.
template <class T>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t n, cudaStream_t stream = 0) : stream_(stream) { reset(n); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept { swap(o); }
  Buffer& operator=(Buffer&& o) noexcept { Buffer(std::move(o)).swap(*this); return *this; }
  ~Buffer() { release(); }

  // Drops the contents and makes room for n elements (uninitialised).
  void reset(std::size_t n) {
    release();
    if (n) ptr_ = static_cast<T*>(allocate(n * sizeof(T), stream_));
    n_ = n;
  }
  void release() noexcept {
    if (ptr_) deallocate(ptr_, n_ * sizeof(T), stream_);
    ptr_ = nullptr;
    n_ = 0;
  }
  void fill_zero() {
    if (n_) SPGRAPH_CUDA(cudaMemsetAsync(ptr_, 0, n_ * sizeof(T), stream_));
  }
  void upload(const T* host, std::size_t n) {
    if (n != n_) reset(n);
    if (n) SPGRAPH_CUDA(cudaMemcpyAsync(ptr_, host, n * sizeof(T), cudaMemcpyHostToDevice, stream_));
  }
  void upload(const std::vector<T>& host) {
    if constexpr (std::is_same_v<T, bool>) {  // std::vector<bool> is bit-packed: go through bool[]
      const std::unique_ptr<bool[]> plain(new bool[host.size()]);
      std::copy(host.begin(), host.end(), plain.get());
      upload(plain.get(), host.size());
      if (n_) SPGRAPH_CUDA(cudaStreamSynchronize(stream_));
    } else {
      upload(host.data(), host.size());
    }
  }
  std::vector<T> download() const {
    if constexpr (std::is_same_v<T, bool>) {
      const std::unique_ptr<bool[]> plain(new bool[n_]);
      if (n_) copy_to_host(plain.get(), ptr_, n_ * sizeof(T), stream_);
      return std::vector<bool>(plain.get(), plain.get() + n_);
    } else {
      std::vector<T> host(n_);
      if (n_) copy_to_host(host.data(), ptr_, n_ * sizeof(T), stream_);
      return host;
    }
  }
  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  cudaStream_t stream() const { return stream_; }
  void swap(Buffer& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(n_, o.n_);
    std::swap(stream_, o.stream_);
  }

 private:
  T* ptr_ = nullptr;
  std::size_t n_ = 0;
  cudaStream_t stream_ = 0;
};

// One element of device memory, copied back on `stream` (synchronises it): the count or total
// the host needs before it can size what comes next.
template <class T>
T read_value(const T* device_ptr, cudaStream_t stream = 0) {
  static_assert(std::is_trivially_copyable_v<T>);
  T value;
  copy_to_host(&value, device_ptr, sizeof(T), stream);
  return value;
}

// RAII CUDA stream / event, for the concurrent SpGEMM row groups and for benchmark timing.
class Stream {
 public:
  Stream() { SPGRAPH_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { cudaStreamDestroy(s_); }
  cudaStream_t get() const { return s_; }
  void synchronize() const { SPGRAPH_CUDA(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  Event() { SPGRAPH_CUDA(cudaEventCreate(&e_)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { cudaEventDestroy(e_); }
  void record(cudaStream_t s = 0) { SPGRAPH_CUDA(cudaEventRecord(e_, s)); }
  cudaEvent_t get() const { return e_; }
  // Milliseconds from start to this event (synchronises on this event).
  float elapsed_since(const Event& start) const {
    SPGRAPH_CUDA(cudaEventSynchronize(e_));
    float ms = 0;
    SPGRAPH_CUDA(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms;
  }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace spgraph::device
