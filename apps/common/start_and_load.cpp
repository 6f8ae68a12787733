#include "start_and_load.hpp"

#include <cstdint>
#include <cstdio>
#include <exception>
#include <utility>

#include "backend_rule.hpp"
#include "spgraph/config.hpp"
#include "spgraph/dist/layout.hpp"
#include "spgraph/io/csr_cache.hpp"
#include "spgraph/io/text_rows.hpp"
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/text_exchange.hpp"
#endif
#include "mpi_job.hpp"
#include "run_app.hpp"
#include "wall_timer.hpp"

namespace spgraph::apps {

namespace {

// Whether the input is a .spgcsr, which each rank reads by rows.
bool reads_cache_rows(const InputOptions& input) {
  const std::string& p = input.path;
  return input.load.format == io::GraphFormat::Cache ||
         (input.load.format == io::GraphFormat::ByName && p.size() > 7 && p.ends_with(".spgcsr"));
}

#if SPGRAPH_HAVE_MPI
// This rank's share of the graph under mpirun, so that no rank holds the whole graph: its block
// of the grid, 1/P of the entries (what dist::Backend's from_host keeps of it).
// - A .spgcsr: each rank reads its piece of the rows alone (the file's arrays are at fixed
//   offsets).
// - Matrix Market and edge-list text: each rank parses its byte range of the file, and the
//   entries go to the ranks that keep their rows (io::read_text_rows), with the one-process
//   reader's result and errors, an error agreed on by every rank and printed once.
// --undirected then mirrors the rows' links across the ranks (io::mirror_rows), and each entry
// goes to its block's rank (io::keep_entries). What needs the whole file (io::text_rows_refusal:
// .abc label files, --compact-ids, a pipe) is not read here:
// distributed_run has every rank read it whole, as without mpirun.
io::LoadedGraph load_rows(const InputOptions& input, const std::string& who, MpiJob& job) {
  const dist::GridShape shape = job.grid_shape();
  const io::RowsOf rows_of = [&](std::int64_t n) {
    const dist::BlockRange r = dist::vector_piece(n, shape, job.rank());
    return std::pair{r.begin, r.end};
  };
  dist::MpiRankExchange exchange(job.world());
  io::LoadedGraph graph;
  try {
    if (reads_cache_rows(input)) {
      io::CsrCacheRows rows = io::read_csr_cache_rows(input.path, rows_of);
      graph.matrix = std::move(rows.cache.matrix);
      graph.labels = std::move(rows.cache.labels);
      graph.id_base = rows.cache.id_base;
      graph.format = "spgcsr";
      graph.file_links = rows.links;
    } else {
      graph = io::read_text_rows(input.path, input.load, rows_of, exchange);
    }
    try {
      require_square(input.path, graph.matrix, who);
    } catch (const Error& e) {  // the shape is the header's: every rank meets it alike
      throw io::AgreedReadError(e.what());
    }
    if (input.undirected && !graph.mirrored) io::mirror_rows(graph, rows_of, exchange);
    const std::int64_t n = graph.matrix.nrows;
    io::keep_entries(
        graph, [&](std::int64_t row, std::int64_t col) { return dist::matrix_owner(n, n, shape, row, col); }, exchange);
  } catch (const io::AgreedReadError& e) {  // printed once
    throw JobWideError(e.what());
  }
  return graph;
}
#endif

// Under mpirun: every rank loads its rows of the graph (load_rows; the whole graph where the
// format needs it) and runs on the distributed backend, on GPU ranks (a GPU each) where every
// rank has one and --backend is not cpu, else on CPU ranks.
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
  // Whether every rank can read its share: where any rank finds that the file must be read whole
  // (its refusal), every rank does, so that all take the same path. The "load:" line says which.
  dist::MpiRankExchange exchange(job.world());
  const std::string whole =
      reads_cache_rows(input) ? std::string() : exchange.first_failure(io::text_rows_refusal(input.path, input.load));
  if (whole.empty()) {
    WallTimer load;
    run.graph = load_rows(input, who, job);
    run.load_seconds = load.seconds();
    std::printf("load: by rows, each rank %s and keeps its block of the grid\n",
                reads_cache_rows(input) ? "read its rows of the cache" : "parsed its share of the file's lines");
  } else {
    run.graph = load_square_graph(input, who, run.load_seconds);
    std::printf("load: whole, by every rank: %s\n", whole.c_str());
  }
#else
  run.graph = load_square_graph(input, who, run.load_seconds);
#endif
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
