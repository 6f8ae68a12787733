#pragma once
// CUDA-event timing for the benchmarks: warm-up runs, then repeats; median and minimum in ms.
#include <functional>
#include <vector>

#include "spgraph/device/memory.hpp"

namespace spgraph::bench {

struct TimingOptions {
  int warmup = 2;
  int repeats = 10;
  // Overwrite the L2 cache before every run: H200's 60 MiB L2 holds a whole small matrix, and
  // repeats would otherwise read it from there rather than from memory (SpMV). The scrub also
  // keeps the device busy while the host enqueues the run, so launch latency is not timed.
  bool flush_l2 = false;
  // Wait for the whole device before the stop event, so work a run leaves on streams of its
  // own (SpGEMM's concurrent row groups) is counted even if it is not joined to stream 0.
  // Adds the host round trip (microseconds): meant for millisecond-scale runs.
  bool synchronize_device = false;
};

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  int repeats = 0;
};

class GpuTimer {
 public:
  explicit GpuTimer(const TimingOptions& options);
  // Runs `run` options.warmup times untimed, then options.repeats times, each between two
  // CUDA events on the default stream. `reset`, when given, runs before every run outside the
  // events: drop the previous run's output there, so it is neither timed nor counted twice in
  // peak memory.
  Timing time(const std::function<void()>& run, const std::function<void()>& reset = {});
  const TimingOptions& options() const { return options_; }

 private:
  TimingOptions options_;
  device::Buffer<char> l2_scrub_;  // twice the L2 size, written before each run when flushing
};

double median(std::vector<double> values);
double geometric_mean(const std::vector<double>& values);  // of positive values; 0 when empty

}  // namespace spgraph::bench
