#pragma once
// One fused pass over dense vectors: for every index i, update several vectors and add to a few
// sums, in one kernel. Iterative algorithms need this between their SpMVs (PageRank computes
// the new ranks, the L1 change, the next SpMV input and the dangling mass in one pass); done
// as separate element-wise operations and reductions it would read and write the vectors
// several times over.
//
//   std::array<double, R> sums = gpu::map_reduce<R>(f, v1, v2, ...);
//
// calls f(i, acc, v1.data(), v2.data(), ...) for every i in [0, n), where n is the vectors'
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

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/memory.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/matrix.hpp"

namespace spgraph::gpu {

template <int R, class F, class... V>
std::array<double, R> map_reduce(F f, Vector<V>&... vectors);

template <int R>
class MapReducer {
  static_assert(R >= 1, "map_reduce needs at least one sum");

 public:
  // start() returns before the pass has run, so work queued between start() and finish()
  // overlaps the host's wait for the sums (the algorithms test this to order their calls).
  static constexpr bool deferred = true;

  MapReducer() {
    // The last block of a pass writes the totals straight into this page-locked memory, so
    // no copy has to be queued behind the pass (it would delay the work queued after it).
    SPGRAPH_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&sums_), R * sizeof(double), cudaHostAllocMapped));
    try {
      SPGRAPH_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_sums_), sums_, 0));
      SPGRAPH_CUDA(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming));
    } catch (...) {
      cudaFreeHost(sums_);
      throw;
    }
  }
  MapReducer(const MapReducer&) = delete;
  MapReducer& operator=(const MapReducer&) = delete;
  ~MapReducer() {
    if (launched_) cudaEventSynchronize(done_);  // a pass still writing into sums_
    cudaEventDestroy(done_);
    cudaFreeHost(sums_);
  }

  template <class F, class... V>
  void start(F f, Vector<V>&... vectors);

  std::array<double, R> finish() {
    if (!pending_) throw Error("gpu::MapReducer::finish: no pass was started since the last finish()");
    pending_ = false;
    std::array<double, R> sums{};
    if (!launched_) return sums;  // an empty pass
    launched_ = false;
    SPGRAPH_CUDA(cudaEventSynchronize(done_));
    for (int r = 0; r < R; ++r) sums[r] = sums_[r];
    return sums;
  }

 private:
  device::Buffer<double> partials_;  // one sum per block and r
  device::Buffer<unsigned> arrivals_;  // blocks done with the pass in flight; 0 between passes
  double* sums_ = nullptr;             // host side of the totals
  double* device_sums_ = nullptr;      // the same memory as the kernel addresses it
  cudaEvent_t done_ = nullptr;         // recorded after the pass
  bool pending_ = false;               // started, sums not yet taken
  bool launched_ = false;              // ... and a kernel was queued for it
};

}  // namespace spgraph::gpu
