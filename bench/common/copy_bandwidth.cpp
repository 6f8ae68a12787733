#include "copy_bandwidth.hpp"

namespace spgraph::bench {

CopyBandwidth measure_copy_bandwidth(std::size_t bytes, int repeats) {
  device::Buffer<char> src(bytes), dst(bytes);
  src.fill_zero();
  GpuTimer timer({.warmup = 2, .repeats = repeats});
  CopyBandwidth result;
  result.bytes = bytes;
  result.timing = timer.time([&] {
    SPGRAPH_CUDA(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, 0));
  });
  result.gb_per_s = 2.0 * bytes / (result.timing.median_ms * 1e-3) / 1e9;
  return result;
}

}  // namespace spgraph::bench
