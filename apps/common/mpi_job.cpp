#include "mpi_job.hpp"

#include <cstdio>

#include "run_app.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graphblas/matrix.hpp"
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/containers.hpp"
#include "spgraph/dist/mpi_communicator.hpp"
#include "spgraph/dist/mpi_session.hpp"
#include "spgraph/dist/process_grid.hpp"
#endif
#if SPGRAPH_HAVE_MPI && SPGRAPH_HAVE_GPU
#include "spgraph/device/device_info.hpp"
#include "spgraph/dist/rank_gpu.hpp"
#endif

namespace spgraph::apps {

#if SPGRAPH_HAVE_MPI
struct MpiJob::Mpi {
  dist::MpiSession session;
  std::unique_ptr<dist::MpiCommunicator> world;
  std::unique_ptr<dist::ProcessGrid> grid;
  std::unique_ptr<dist::GridScope> scope;
  bool gpu_ranks = false;
  Mpi(int* argc, char*** argv) : session(argc, argv) {}
};
#else
struct MpiJob::Mpi {};
#endif

namespace {
MpiJob* current_job = nullptr;
}

MpiJob& mpi_job() {
  if (!current_job) throw Error("internal: no MpiJob (apps run inside run_app)");
  return *current_job;
}

MpiJob::MpiJob(int* argc, char*** argv) {
#if SPGRAPH_HAVE_MPI
  if (dist::launched_by_mpi()) {
    mpi_ = std::make_unique<Mpi>(argc, argv);  // each rank's OpenMP takes its share of the host's cores
    if (rank() != 0 && !std::freopen("/dev/null", "w", stdout))
      throw Error("rank " + std::to_string(rank()) + ": cannot silence stdout (/dev/null)");
  }
#else
  (void)argc, (void)argv;
#endif
  current_job = this;
}

MpiJob::~MpiJob() {
  if (current_job == this) current_job = nullptr;
}

#if SPGRAPH_HAVE_MPI
int MpiJob::rank() const { return mpi_ ? mpi_->session.world_rank() : 0; }
int MpiJob::size() const { return mpi_ ? mpi_->session.world_size() : 1; }
#else
int MpiJob::rank() const { return 0; }
int MpiJob::size() const { return 1; }
#endif

void MpiJob::add_grid_option(CLI::App& cli) {
  cli.add_option("--grid", grid_flag_,
                 "under mpirun -n P: the R x C grid of ranks the matrix is cut into (R*C = P; default the most "
                 "nearly square, R <= C)")
      ->type_name("RxC");
}

void MpiJob::start_grid() {
  if (!distributed()) {
    if (!grid_flag_.empty())
      throw UsageError("--grid " + grid_flag_ + " lays out the ranks of an MPI job: start the app under mpirun -n P");
    return;
  }
#if SPGRAPH_HAVE_MPI
  if (mpi_->grid) return;
  dist::GridShape shape = dist::default_grid_shape(size());
  if (!grid_flag_.empty()) {
    try {
      shape = dist::parse_grid_shape(grid_flag_, size());
    } catch (const Error& e) {
      throw UsageError(e.what());
    }
  }
  mpi_->world = dist::MpiCommunicator::world();
  mpi_->grid = std::make_unique<dist::ProcessGrid>(*mpi_->world, shape);
  mpi_->scope = std::make_unique<dist::GridScope>(*mpi_->grid);
#endif
}

dist::GridShape MpiJob::grid_shape() const {
#if SPGRAPH_HAVE_MPI
  if (mpi_ && mpi_->grid) return mpi_->grid->shape();
#endif
  return {1, 1};
}

dist::MpiCommunicator& MpiJob::world() const {
#if SPGRAPH_HAVE_MPI
  if (mpi_ && mpi_->world) return *mpi_->world;
#endif
  throw Error("internal: MpiJob::world outside an MPI job, or before start_grid");
}

bool MpiJob::start_gpu_ranks(std::string* why) {
#if SPGRAPH_HAVE_MPI && SPGRAPH_HAVE_GPU
  if (!mpi_ || !mpi_->grid) throw Error("internal: start_gpu_ranks before start_grid");
  mpi_->gpu_ranks = dist::start_gpu_ranks(*mpi_->world, why) >= 0;
  return mpi_->gpu_ranks;
#else
  *why = "this build of spgraph has no GPU backend";
  return false;
#endif
}

std::string MpiJob::description() const {
#if SPGRAPH_HAVE_MPI
  if (mpi_ && mpi_->grid) {
    std::string each = graphblas::description() + ")";
#if SPGRAPH_HAVE_GPU
    if (mpi_->gpu_ranks) each = "gpu (" + device::device_description() + ")";
#endif
    return "distributed over " + std::to_string(size()) + (size() == 1 ? " rank" : " ranks") + " on a " +
           dist::to_string(mpi_->grid->shape()) + " grid, each " + each;
  }
#endif
  return graphblas::description() + ")";
}

int MpiJob::fail(const std::string& name, const std::string& message, int status) {
#if SPGRAPH_HAVE_MPI
  if (distributed() && size() > 1) return dist::fail_job(name + ": " + message, status);
#endif
  print_error(name, message);
  return status;
}

int MpiJob::usage_error(const std::string& name, const std::string& message, int status) {
  if (root()) print_error(name, message);
  return status;
}

}  // namespace spgraph::apps
