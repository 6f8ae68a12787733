#include "spgraph/dist/mpi_session.hpp"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "dist/mpi_check.hpp"
#include "spgraph/error.hpp"

namespace spgraph::dist {
namespace {

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

bool mpi_running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

int mpi_level(MpiSession::Threads threads) {
  switch (threads) {
    case MpiSession::Threads::Single: return MPI_THREAD_SINGLE;
    case MpiSession::Threads::Funneled: return MPI_THREAD_FUNNELED;
    case MpiSession::Threads::Serialized: return MPI_THREAD_SERIALIZED;
    case MpiSession::Threads::Multiple: return MPI_THREAD_MULTIPLE;
  }
  return MPI_THREAD_MULTIPLE;
}

}  // namespace

bool launched_by_mpi() {
  return env_set("OMPI_COMM_WORLD_SIZE") || env_set("PMIX_RANK") || env_set("PMI_SIZE");
}

namespace {

// The first of the variables that holds a count or index in [0, 2^30), else -1.
int first_number(std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const char* v = std::getenv(name);
    if (v == nullptr || *v == '\0') continue;
    char* end = nullptr;
    const long r = std::strtol(v, &end, 10);
    if (*end == '\0' && r >= 0 && r < (1L << 30)) return static_cast<int>(r);
  }
  return -1;
}

// Ranks sharing a host share its cores: unless OMP_NUM_THREADS says otherwise, each rank's
// OpenMP loops (GraphBLAS's, the host BFS expansion's, the parallel readers') take its share
// (the launcher's count of ranks on this host), set before GraphBLAS starts and reads it.
// Otherwise every rank starts a thread a core, and the ranks' barriers wait on threads that
// another rank's have pushed off the cores.
void share_cores_among_local_ranks() {
  if (std::getenv("OMP_NUM_THREADS")) return;
  const int local = first_number({"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS_PER_NODE"});
  if (local > 1) omp_set_num_threads(std::max(1, omp_get_num_procs() / local));
}

}  // namespace

int local_rank_from_environment() {
  return first_number({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"});
}

MpiSession::MpiSession(int* argc, char*** argv, Start start, Threads threads)
    : exceptions_at_start_(std::uncaught_exceptions()) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) throw Error("MpiSession: MPI was already finalised in this process; it cannot restart");
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    if (start == Start::IfLaunched && !launched_by_mpi()) return;  // a single process: no MPI
    if (launched_by_mpi()) share_cores_among_local_ranks();
    int provided = MPI_THREAD_SINGLE;
    SPGRAPH_MPI(MPI_Init_thread(argc, argv, mpi_level(threads), &provided));
    started_ = true;
    if (provided < mpi_level(threads)) {
      MPI_Finalize();
      started_ = false;
      throw Error("MpiSession: MPI_Init_thread provided thread level " + std::to_string(provided) +
                  ", below the " + std::to_string(mpi_level(threads)) + " required");
    }
  }
  active_ = true;
}

MpiSession::~MpiSession() {
  if (!started_ || !mpi_running()) return;
  if (std::uncaught_exceptions() > exceptions_at_start_) return;  // see the header: never wait here
  MPI_Finalize();
}

int MpiSession::world_rank() const {
  int r = 0;
  if (active_ && mpi_running()) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int MpiSession::world_size() const {
  int s = 1;
  if (active_ && mpi_running()) MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

int fail_job(std::string_view message, int exit_code) noexcept {
  if (exit_code == 0) exit_code = 1;  // a failure never reads as success
  // One line: a message with line breaks would interleave with the other ranks' output.
  std::string line;
  try {
    line.assign(message);
    for (char& c : line)
      if (c == '\n' || c == '\r') c = ' ';
  } catch (...) {
    line = "(the message could not be copied)";
  }
  if (!mpi_running()) {
    std::fprintf(stderr, "error: %s\n", line.c_str());
    std::fflush(stderr);
    return exit_code;
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "rank %d: error: %s\n", rank, line.c_str());
  std::fflush(stderr);
  std::fflush(stdout);
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);  // MPI_Abort does not return; should it, this rank still ends
}

}  // namespace spgraph::dist
