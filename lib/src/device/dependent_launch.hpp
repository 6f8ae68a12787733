#pragma once
// Programmatic dependent launch (compute capability 9.0 and later): a kernel launched by
// launch_kernel(..., AfterPrevious::Programmatic, ...) may start while the kernel before it in
// the stream is still running, once every block of that kernel has called
// let_next_kernel_start() or exited. Until it calls wait_for_previous_kernel(), which returns
// when the previous kernel has completed and its writes are visible, it may only read what no
// unfinished kernel writes, and write nothing. Both calls have no effect in a kernel launched
// the ordinary way, so a kernel written for this can be launched either way, but the wait is
// not free there (csr_stream_kernel keeps it to an instantiation of its own). gpu::MxvReducer's
// chain uses it: each product reads its matrix while the pass before it finishes.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "spgraph/device/device_info.hpp"
#include "device/launch.hpp"

namespace spgraph::device {

#ifdef __CUDACC__
__device__ __forceinline__ void wait_for_previous_kernel() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ __forceinline__ void let_next_kernel_start() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}
#endif

// How a launch waits for the kernel before it in the stream: until it completes (the ordinary
// launch), or as above (ordinary where the device does not support it).
enum class AfterPrevious { Completes, Programmatic };

template <class... Params, class... Args>
void launch_kernel(void (*kernel)(Params...), unsigned grid, unsigned threads, std::size_t shared_bytes,
                   cudaStream_t stream, AfterPrevious after, Args&&... args) {
  cudaLaunchAttribute dependent{};
  dependent.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  dependent.val.programmaticStreamSerializationAllowed = 1;
  const bool programmatic = after == AfterPrevious::Programmatic && dependent_launch_supported();
  launch_with_attribute(programmatic ? &dependent : nullptr, kernel, grid, threads, shared_bytes, stream,
                        std::forward<Args>(args)...);
}

}  // namespace spgraph::device
