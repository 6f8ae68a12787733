#pragma once
// Where an app's time went, from process start to its output written, for --timings: one JSON
// object a script can read, the same for every app.
//
//   {"app":"pagerank","total_s":0.84,"phases":{"startup_s":0.05,"device_init_s":0.21,"load_s":0.12,
//    "build_s":0.3,"compute_s":0.09,"write_s":0.06},"other_s":0.01,"clock":"..."}
//
// startup: process start (the fork) to main, which is exec, the dynamic loader mapping CUDA and
// GraphBLAS, and static initializers; device_init: the wait for the backend (the CUDA context,
// or GraphBLAS's start) after the load, beside which it starts (start_and_load.hpp); load, build (the graph on the backend), compute and write as each app's
// "time:" line splits them; other: the rest of total (flags, the printed report).
#include <array>
#include <string>
#include <type_traits>

#include "wall_timer.hpp"

namespace spgraph::apps {

enum class Phase { Startup, DeviceInit, Load, Build, Compute, Write };
inline constexpr std::size_t kPhaseCount = 6;

// "startup", "device_init", "load", "build", "compute", "write"
const char* phase_name(Phase phase);

// Seconds since this process was forked, from /proc/self/stat's start time against
// CLOCK_BOOTTIME (the same clock). A clock read at a static initializer would miss exec and the
// dynamic loader, which with the CUDA libraries are much of the start-up; the price is the
// start time's resolution, one clock tick (10 ms at the usual 100 Hz), rounded down, so this
// may read about a tick long.
double seconds_since_process_start();

class PhaseTimings {
 public:
  // Records startup: process start to now.
  PhaseTimings();

  // Adds seconds to phase (a phase timed in parts adds up).
  void add(Phase phase, double seconds);
  // Runs f() and adds its wall time to phase; returns what f returns.
  template <class F>
  auto time(Phase phase, F&& f) -> decltype(f()) {
    WallTimer timer;
    if constexpr (std::is_void_v<decltype(f())>) {
      f();
      add(phase, timer.seconds());
    } else {
      auto result = f();
      add(phase, timer.seconds());
      return result;
    }
  }
  double seconds(Phase phase) const { return seconds_[static_cast<std::size_t>(phase)]; }

  // The JSON object above, total_s being process start to now.
  std::string json(const std::string& app) const;
  // Writes json(app) to path, or with path "-" one line "timings: <json>" on stderr; throws
  // spgraph::Error naming the path when it cannot write.
  void report(const std::string& app, const std::string& path) const;

 private:
  std::array<double, kPhaseCount> seconds_{};
};

}  // namespace spgraph::apps
