#pragma once
// Starting and ending MPI, and ending the whole job when one rank fails.
//
// An app starts MPI only when a launcher started it (mpirun, mpiexec, srun), so a plain
// `build/pagerank graph.mtx` neither loads a communication runtime nor waits for one:
//
//   int main(int argc, char** argv) {
//     dist::MpiSession mpi(&argc, &argv);            // MPI_Init_thread under mpirun, else nothing
//     return dist::run_or_abort([&] {                 // a throw on any rank ends every rank
//       if (!mpi.active()) return run_single_process(argc, argv);
//       auto world = dist::MpiCommunicator::world();
//       ...
//     });
//   }
#include <cstdio>
#include <exception>
#include <string_view>
#include <type_traits>
#include <utility>

namespace spgraph::dist {

// Whether a launcher started this process as a rank of a job, by the variables it sets:
// OpenMPI's mpirun (OMPI_COMM_WORLD_SIZE), PMIx launchers such as srun --mpi=pmix (PMIX_RANK),
// and PMI ones such as MPICH's Hydra and Slurm's PMI-2 (PMI_SIZE).
bool launched_by_mpi();

// This process's index among the job's ranks on its host, as the launcher gives it
// (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, SLURM_LOCALID); -1 when none does.
int local_rank_from_environment();

// MPI for the lifetime of the object: MPI_Init_thread if MPI is not yet initialised, and
// MPI_Finalize at the end if this session initialised it. Create one, in main, before any
// communicator, and let it outlive them all. Where a launcher started several ranks on this
// host and OMP_NUM_THREADS is unset, starting MPI also gives this rank's OpenMP threads its
// share of the host's cores (omp_set_num_threads), so that the ranks do not each take them all.
class MpiSession {
 public:
  enum class Start {
    IfLaunched,  // only when launched_by_mpi() (or MPI is already initialised)
    Always,      // also a process started by hand (MPI's singleton: a job of one)
  };
  // The MPI thread level required; MPI_Init_thread providing less throws. Funneled: other
  // threads (OpenMP loops, CUDA callbacks) exist, but only the main thread calls MPI and NCCL.
  enum class Threads { Single, Funneled, Serialized, Multiple };

  MpiSession(int* argc, char*** argv, Start start = Start::IfLaunched,
             Threads threads = Threads::Funneled);
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  // MPI_Finalize when this session started MPI. Not while an exception unwinds through it:
  // finalising is collective and would wait forever for ranks stuck in a collective with this
  // one. The process then exits without it, which OpenMPI's mpirun takes as a failed rank and
  // ends the job; run_or_abort does the same explicitly, with the message, by MPI_Abort.
  ~MpiSession();

  bool active() const { return active_; }  // MPI is initialised and not finalised
  bool started_here() const { return started_; }
  int world_rank() const;  // 0 and 1 when not active
  int world_size() const;

 private:
  bool active_ = false;
  bool started_ = false;
  int exceptions_at_start_ = 0;
};

// Ends the job because of `message` on this rank: "rank R: error: MESSAGE" (one line, world
// rank) on stderr, then MPI_Abort(MPI_COMM_WORLD, exit_code), which the launcher turns into the
// end of every rank, also those waiting in a collective for this one. Without MPI active it
// prints "error: MESSAGE" and returns exit_code (a single process has no one to wait for it).
int fail_job(std::string_view message, int exit_code = 1) noexcept;

// Runs fn() (returning an exit code, or void for 0); an exception escaping it ends the job by
// fail_job(what()). The way to keep a failure on one rank from hanging the others.
template <class F>
int run_or_abort(F&& fn, int exit_code = 1) noexcept {
  try {
    if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
      std::forward<F>(fn)();
      return 0;
    } else {
      return static_cast<int>(std::forward<F>(fn)());
    }
  } catch (const std::exception& e) {
    return fail_job(e.what(), exit_code);
  } catch (...) {
    return fail_job("an exception that is not a std::exception", exit_code);
  }
}

}  // namespace spgraph::dist
