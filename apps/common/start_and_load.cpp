#include "start_and_load.hpp"

#include <cstdint>
#include <exception>
#include <utility>

#include "backend_rule.hpp"
#include "spgraph/config.hpp"
#include "spgraph/dist/layout.hpp"
#include "spgraph/io/csr_cache.hpp"
#include "mpi_job.hpp"
#include "run_app.hpp"
#include "wall_timer.hpp"

namespace spgraph::apps {

namespace {

// Whether the input is a .spgcsr read as it is (no --undirected, which needs every link).
bool reads_cache_rows(const InputOptions& input) {
  const std::string& p = input.path;
  const bool cache = input.load.format == io::GraphFormat::Cache ||
                     (input.load.format == io::GraphFormat::ByName && p.size() > 7 && p.ends_with(".spgcsr"));
  return cache && !input.undirected;
}

// Under mpirun: every rank loads the graph and runs on the distributed backend, on GPU ranks
// (a GPU each) where every rank has one and --backend is not cpu, else on CPU ranks.
StartedRun distributed_run(BackendChoice choice, const InputOptions& input, const std::string& who,
                           PhaseTimings& timings) {
  MpiJob& job = mpi_job();
  WallTimer start;
  job.start_grid();
  std::string no_gpu;
  const bool gpu = choice != BackendChoice::Cpu && job.start_gpu_ranks(&no_gpu);
  if (choice == BackendChoice::Gpu && !gpu)
    throw JobWideError("--backend gpu under mpirun needs a GPU for every rank: " + no_gpu +
                       " (--backend cpu runs the ranks on their CPUs)");
  timings.add(Phase::DeviceInit, start.seconds());
  StartedRun run;
#if SPGRAPH_HAVE_MPI
  if (reads_cache_rows(input)) {
    // A .spgcsr: each rank reads the rows of its grid row's block alone (the file's arrays are at
    // fixed offsets), so no rank holds the whole graph.
    WallTimer load;
    const dist::GridShape shape = job.grid_shape();
    const int grid_row = job.rank() / shape.cols;
    io::CsrCacheRows rows = io::read_csr_cache_rows(input.path, [&](std::int64_t n) {
      const dist::BlockRange r = dist::matrix_row_block(n, shape, grid_row);
      return std::pair{r.begin, r.end};
    });
    require_square(input.path, rows.cache.matrix, who);
    run.graph.matrix = std::move(rows.cache.matrix);
    run.graph.labels = std::move(rows.cache.labels);
    run.graph.id_base = rows.cache.id_base;
    run.graph.format = "spgcsr";
    run.graph.file_links = rows.links;
    run.load_seconds = load.seconds();
  } else
#endif
  {
    run.graph = load_square_graph(input, who, run.load_seconds);
  }
  timings.add(Phase::Load, run.load_seconds);
  run.backend.backend = gpu ? algorithms::Backend::DistributedGpu : algorithms::Backend::Distributed;
  run.backend.description = job.description();
  if (choice == BackendChoice::Auto) run.backend.why_chosen = gpu ? "every rank has a GPU of its own" : no_gpu;
  print_backend(run.backend, choice);
  return run;
}

}  // namespace

StartedRun start_backend_and_load(const std::string& app, BackendChoice choice, const InputOptions& input,
                                  const std::string& who, PhaseTimings& timings) {
  mpi_job().start_grid();  // --grid without mpirun: refused before the load
  if (mpi_job().distributed()) return distributed_run(choice, input, who, timings);
  // A build without the GPU backend says so (select_backend's reason), whatever the size.
  const bool by_size = choice == BackendChoice::Auto && SPGRAPH_HAVE_GPU;
  Threshold threshold;
  if (by_size) threshold = gpu_threshold(app);  // a malformed SPGRAPH_GPU_THRESHOLD: before the load
  // The second thread: by_size, the estimate (a header read at most) says whether it starts the
  // GPU, told through gpu_started before the start; then the start.
  std::promise<bool> tell;
  std::future<bool> gpu_started = tell.get_future();
  std::future<SelectedBackend> second =
      std::async(std::launch::async, [&input, choice, by_size, threshold, tell = std::move(tell)]() mutable {
        if (!by_size) return select_backend(choice);
        bool gpu = false;
        try {
          gpu = estimate_links(input) >= threshold.links;
        } catch (...) {  // out of memory, say: no estimate, the CPU; the exact count decides
        }
        tell.set_value(gpu);
        return select_backend(gpu ? BackendChoice::Auto : BackendChoice::Cpu);
      });
  StartedRun run;
  std::exception_ptr load_error;
  try {
    run.graph = load_square_graph(input, who, run.load_seconds);
  } catch (...) {
    load_error = std::current_exception();
  }
  WallTimer wait;
  if (load_error) {
    second.get();  // a backend error first
    std::rethrow_exception(load_error);
  }
  if (!by_size) {
    run.backend = second.get();
  } else {
    const SizeDecision decision = decide_by_size(app, static_cast<std::int64_t>(run.graph.matrix.nnz()), threshold);
    const bool tried_gpu = gpu_started.get();
    if (decision.gpu) {
      if (tried_gpu) {
        run.backend = second.get();
      } else {  // the estimate was low: the GPU starts now, after the load
        second.get();
        run.backend = select_backend(BackendChoice::Auto);
      }
      // Where no GPU is usable, the description's reason says why the CPU runs.
      if (run.backend.backend == algorithms::Backend::Gpu) run.backend.why_chosen = decision.reason;
    } else {
      if (tried_gpu) {  // the estimate was high: that start ends beside the work, unwaited for
        run.unused_start = std::move(second);
        run.backend = select_backend(BackendChoice::Cpu);
      } else {
        run.backend = second.get();
      }
      run.backend.why_chosen = decision.reason;
    }
  }
  timings.add(Phase::DeviceInit, wait.seconds());
  timings.add(Phase::Load, run.load_seconds);
  print_backend(run.backend, choice);
  return run;
}

}  // namespace spgraph::apps
