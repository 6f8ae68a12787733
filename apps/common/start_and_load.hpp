#pragma once
// The first steps of every app that runs on a graph: the backend is started (the GPU's CUDA
// context, often longer than loading a cached graph, or GraphBLAS) on a second thread while
// the graph loads, so a user waits for the longer of the two, not for both.
#include <string>

#include "backend_option.hpp"
#include "input_options.hpp"
#include "phase_timer.hpp"

namespace spgraph::apps {

struct StartedRun {
  SelectedBackend backend;
  io::LoadedGraph graph;
  double load_seconds = 0;
};

// select_backend(choice) beside load_square_graph(input, who), then print_backend's line. A backend error is reported before a load error, as when the two
// ran in turn. Timings: the load as Phase::Load; as Phase::DeviceInit only the wait for the
// backend after the load ended.
StartedRun start_backend_and_load(BackendChoice choice, const InputOptions& input, const std::string& who,
                                  PhaseTimings& timings);

}  // namespace spgraph::apps
