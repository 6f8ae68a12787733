#include "start_and_load.hpp"

#include <exception>
#include <future>
#include <optional>

#include "wall_timer.hpp"

namespace spgraph::apps {

StartedRun start_backend_and_load(BackendChoice choice, const InputOptions& input, const std::string& who,
                                  PhaseTimings& timings) {
  std::future<SelectedBackend> backend = std::async(std::launch::async, [choice] { return select_backend(choice); });
  StartedRun run;
  std::exception_ptr load_error;
  try {
    run.graph = load_square_graph(input, who, run.load_seconds);
  } catch (...) {
    load_error = std::current_exception();
  }
  WallTimer wait;
  run.backend = backend.get();
  timings.add(Phase::DeviceInit, wait.seconds());
  if (load_error) std::rethrow_exception(load_error);
  timings.add(Phase::Load, run.load_seconds);
  print_backend(run.backend, choice);
  return run;
}

}  // namespace spgraph::apps
