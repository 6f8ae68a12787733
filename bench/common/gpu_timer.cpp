#include "gpu_timer.hpp"

#include <algorithm>
#include <cmath>

#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"

namespace spgraph::bench {

GpuTimer::GpuTimer(const TimingOptions& options) : options_(options) {
  if (options_.warmup < 0 || options_.repeats < 1)
    throw Error("timing needs at least one repeat and no negative warm-up count (got warm-up " +
                std::to_string(options_.warmup) + ", repeats " + std::to_string(options_.repeats) + ")");
  if (options_.flush_l2) l2_scrub_ = device::Buffer<char>(2 * device::l2_cache_bytes());
}

Timing GpuTimer::time(const std::function<void()>& run, const std::function<void()>& reset) {
  auto prepare = [&] {
    if (reset) reset();
    if (!l2_scrub_.empty())
      SPGRAPH_CUDA(cudaMemsetAsync(l2_scrub_.data(), 0, l2_scrub_.size(), 0));
  };
  for (int i = 0; i < options_.warmup; ++i) {
    prepare();
    run();
  }
  SPGRAPH_CUDA(cudaDeviceSynchronize());
  device::Event start, stop;
  std::vector<double> ms;
  for (int i = 0; i < options_.repeats; ++i) {
    prepare();
    start.record(0);
    run();
    if (options_.synchronize_device) SPGRAPH_CUDA(cudaDeviceSynchronize());
    stop.record(0);
    ms.push_back(stop.elapsed_since(start));
  }
  SPGRAPH_CUDA(cudaDeviceSynchronize());
  return {median(ms), *std::min_element(ms.begin(), ms.end()), options_.repeats};
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double geometric_mean(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double log_sum = 0;
  for (double v : values) log_sum += std::log(v);
  return std::exp(log_sum / values.size());
}

}  // namespace spgraph::bench
