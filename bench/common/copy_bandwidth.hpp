#pragma once
// The device's copy bandwidth, measured in the same run as the SpMV kernels it is the
// ceiling for: cudaMemcpyAsync device-to-device, counted as bytes read + bytes written.
#include <cstddef>

#include "gpu_timer.hpp"

namespace spgraph::bench {

struct CopyBandwidth {
  std::size_t bytes = 0;  // size of one copy
  Timing timing;
  double gb_per_s = 0;  // 2 * bytes / median time, in 1e9 bytes per second
};

// Two buffers of `bytes` each are allocated (through the pool) and freed again.
CopyBandwidth measure_copy_bandwidth(std::size_t bytes = std::size_t(2) << 30, int repeats = 10);

}  // namespace spgraph::bench
