#pragma once
// The first steps of every app that runs on a graph: the backend is started (the GPU's CUDA
// context, often longer than loading a cached graph, or GraphBLAS) on a second thread while
// the graph loads, so a user waits for the longer of the two, not for both.
//
// --backend auto chooses by the graph's size (backend_rule.hpp): the second thread estimates
// the links before the load (exact for .spgcsr and Matrix Market) and starts the backend that
// estimate chooses; after the load the exact count decides. Where the two disagree, the GPU is
// started after the load (an estimate too low), or the CPU runs while the GPU's start, begun
// for nothing, ends in the background (too high).
#include <future>
#include <string>

#include "backend_option.hpp"
#include "input_options.hpp"
#include "phase_timer.hpp"

namespace spgraph::apps {

struct StartedRun {
  SelectedBackend backend;
  io::LoadedGraph graph;
  double load_seconds = 0;
  // A GPU start that auto began from the estimate and the exact count made unnecessary: left
  // to end beside the work, and waited for when the run is destroyed.
  std::future<SelectedBackend> unused_start;
};

// The backend for choice (auto: by app's threshold, kGpuThresholds) beside
// load_square_graph(input, who), then print_backend's line. A backend error is reported before
// a load error, as when the two ran in turn. Timings: the load as Phase::Load; as
// Phase::DeviceInit the wait for the backend after the load ended (with a GPU started only
// then, its whole start).
StartedRun start_backend_and_load(const std::string& app, BackendChoice choice, const InputOptions& input,
                                  const std::string& who, PhaseTimings& timings);

}  // namespace spgraph::apps
