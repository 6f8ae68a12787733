#pragma once
// How the algorithm benchmarks time a call: one checked run (its result kept, its peak device
// memory measured on the GPU), `warmup` untimed runs, then `repeats` timed ones, each of whose
// results must agree with the first. The time is the algorithm's own clock (CUDA events on the
// GPU) as the result reports it; the host's wall clock of each call is kept beside it.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "gpu_timer.hpp"
#include "peak_memory.hpp"

namespace spgraph::bench {

template <class Result>
struct TimedRuns {
  Result first;
  std::string status = "ok";  // or why a repeat disagreed with the first run
  double median_s = 0, min_s = 0, wall_median_s = 0;
  std::optional<std::size_t> peak_bytes;  // on the GPU: above what was live before the checked run
};

// run() -> Result; seconds_of(result) -> double; differs(again, first, run number) -> "" or why.
// Exceptions from run() reach the caller.
template <class Run, class SecondsOf, class Differs>
auto timed_runs(Run run, SecondsOf seconds_of, Differs differs, int warmup, int repeats, bool gpu)
    -> TimedRuns<decltype(run())> {
  using Clock = std::chrono::steady_clock;
  TimedRuns<decltype(run())> t;
  {
    std::optional<PeakMemory> memory;
    if (gpu) memory.emplace();
    t.first = run();
    if (memory) t.peak_bytes = memory->bytes();
  }
  std::vector<double> seconds, wall;
  for (int i = 0; i < warmup + repeats; ++i) {
    const auto start = Clock::now();
    const auto again = run();
    const double w = std::chrono::duration<double>(Clock::now() - start).count();
    if (std::string why = differs(again, t.first, i + 2); !why.empty()) {
      t.status = why;
      return t;
    }
    if (i >= warmup) {
      seconds.push_back(seconds_of(again));
      wall.push_back(w);
    }
  }
  t.median_s = median(seconds);
  t.min_s = *std::min_element(seconds.begin(), seconds.end());
  t.wall_median_s = median(wall);
  return t;
}

}  // namespace spgraph::bench
