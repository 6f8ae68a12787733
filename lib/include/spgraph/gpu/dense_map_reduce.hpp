#pragma once
// One fused pass over dense vectors: for every index i, update several vectors and add to a few
// sums, in one kernel. Iterative algorithms need this between their SpMVs (PageRank computes
// the new ranks, the L1 change, the next SpMV input and the dangling mass in one pass); done
// as separate element-wise operations and reductions it would read and write the vectors
// several times over.
//
//   std::array<double, R> sums = gpu::map_reduce<R>(f, v1, v2, ...);
//
// calls f(i, acc, v1.data(), v2.data(), ...) for every i in [0, n) (a const pointer for a vector
// passed const, which the pass only reads), where n is the vectors'
// common length (a mismatch throws spgraph::Error) and acc is a double[R] that f adds its
// contributions to; returns the totals of acc. Contract for f (an SPGRAPH_HD functor, copied
// to the device by value): it may write only element i of each vector, and read element j != i
// only of vectors that no call writes, since indices run concurrently and in no fixed order.
// The sums are deterministic for a given device: the per-block partials are added on the
// device in a fixed order, never with atomics. Runs on the first vector's stream and returns
// when the pass is complete.
//
// An iterative algorithm runs its passes through one MapReducer instead, which keeps the
// scratch between passes and lets the host queue more work before it reads the sums:
//
//   gpu::MapReducer<R> pass;
//   pass.start(f, v1, v2, ...);   // queues the pass on v1's stream and returns at once
//   ...                           // queue other work (it runs after the pass)
//   std::array<double, R> sums = pass.finish();  // waits for the pass alone
//
// finish() must take one pass's sums before the next start() (otherwise spgraph::Error).
//
// Declared here so host code (gpu/backend.hpp) can name it; start() and map_reduce are
// defined in dense_map_reduce_impl.cuh, which the .cu file that instantiates them includes.
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <vector>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/memory.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/matrix.hpp"

namespace spgraph::gpu {

template <int R, class F, class... Vs>
std::array<double, R> map_reduce(F f, Vs&... vectors);

namespace detail {

// Page-locked host memory for the totals of `slots` passes of `per_slot` doubles each, which
// a pass's last block writes straight into (no copy has to be queued behind the pass, where it
// would delay the work queued after it), and an event per slot recorded after its pass.
class MappedSums {
 public:
  MappedSums(int slots, int per_slot) : per_slot_(per_slot) {
    const std::size_t bytes = std::size_t(slots) * std::size_t(per_slot) * sizeof(double);
    SPGRAPH_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&host_), bytes, cudaHostAllocMapped));
    try {
      SPGRAPH_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_), host_, 0));
      done_.reserve(std::size_t(slots));
      for (int s = 0; s < slots; ++s) {
        cudaEvent_t e = nullptr;
        SPGRAPH_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        done_.push_back(e);
      }
    } catch (...) {
      release();
      throw;
    }
  }
  MappedSums(const MappedSums&) = delete;
  MappedSums& operator=(const MappedSums&) = delete;
  ~MappedSums() { release(); }

  double* device(int slot) const { return device_ + std::size_t(slot) * std::size_t(per_slot_); }
  cudaEvent_t done(int slot) const { return done_[std::size_t(slot)]; }
  // Waits for the slot's pass, then copies its totals out.
  template <std::size_t R>
  std::array<double, R> wait(int slot) const {
    SPGRAPH_CUDA(cudaEventSynchronize(done(slot)));
    std::array<double, R> sums{};
    for (std::size_t r = 0; r < R; ++r) sums[r] = host_[std::size_t(slot) * std::size_t(per_slot_) + r];
    return sums;
  }
  // The slot's totals as zeros, for a pass over nothing (no kernel writes them).
  void clear(int slot) const {
    for (int r = 0; r < per_slot_; ++r) host_[std::size_t(slot) * std::size_t(per_slot_) + std::size_t(r)] = 0;
  }
  // For destructors: a pass still writing into the slot must finish before the memory goes.
  void drain(int slot) const noexcept { cudaEventSynchronize(done(slot)); }

 private:
  void release() noexcept {
    for (cudaEvent_t e : done_) cudaEventDestroy(e);
    if (host_) cudaFreeHost(host_);
  }
  int per_slot_;
  double* host_ = nullptr;
  double* device_ = nullptr;  // the same memory as the kernels address it
  std::vector<cudaEvent_t> done_;
};

}  // namespace detail

template <int R>
class MapReducer {
  static_assert(R >= 1, "map_reduce needs at least one sum");

 public:
  // start() returns before the pass has run, so work queued between start() and finish()
  // overlaps the host's wait for the sums (the algorithms test this to order their calls).
  static constexpr bool deferred = true;

  MapReducer() : sums_(1, R) {}
  MapReducer(const MapReducer&) = delete;
  MapReducer& operator=(const MapReducer&) = delete;
  ~MapReducer() {
    if (launched_) sums_.drain(0);
  }

  template <class F, class... Vs>
  void start(F f, Vs&... vectors);

  std::array<double, R> finish() {
    if (!pending_) throw Error("gpu::MapReducer::finish: no pass was started since the last finish()");
    pending_ = false;
    if (!launched_) return {};  // an empty pass
    launched_ = false;
    return sums_.template wait<R>(0);
  }

 private:
  device::Buffer<double> partials_;  // one sum per block and r
  device::Buffer<unsigned> arrivals_;  // blocks done with the pass in flight; 0 between passes
  detail::MappedSums sums_;
  bool pending_ = false;               // started, sums not yet taken
  bool launched_ = false;              // ... and a kernel was queued for it
};

}  // namespace spgraph::gpu
