#pragma once
// An app started by mpirun runs as one rank of a job: `mpirun -n 4 build/pagerank graph.mtx`.
// Every rank parses the same flags and loads the same graph; the algorithm runs on the
// distributed backend (dist::CpuBackend) over a pr x pc grid of the ranks (--grid RxC, else the
// most nearly square); rank 0 alone prints to stdout and writes the output file, once, when the
// result is complete. A failure on any rank ends the whole job with that rank's message
// (dist::fail_job), so no rank waits for it forever. A process started without mpirun runs as
// before.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "spgraph/config.hpp"

#include "spgraph/dist/process_grid.hpp"

namespace spgraph::dist {
class MpiCommunicator;
}

namespace spgraph::apps {

class MpiJob {
 public:
  // MPI when a launcher started this process (dist::launched_by_mpi); the other ranks' stdout
  // then goes to /dev/null.
  MpiJob(int* argc, char*** argv);
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;
  ~MpiJob();

  bool distributed() const { return mpi_ != nullptr; }  // under mpirun, P = 1 included
  int rank() const;
  int size() const;
  bool root() const { return rank() == 0; }

  // Adds --grid RxC (the value checked when the grid starts).
  void add_grid_option(CLI::App& cli);
  // After the flags are parsed: the world communicator, the grid and its scope (collective).
  // Throws UsageError for --grid without mpirun or with R*C not the job's size.
  void start_grid();
  // The grid's shape (after start_grid).
  dist::GridShape grid_shape() const;
  // The communicator of every rank (after start_grid; under mpirun in a build with MPI).
  dist::MpiCommunicator& world() const;
  // GPU ranks (after start_grid; collective): each rank takes a GPU of its own and true is
  // returned; where any rank has none (or the build has no GPU backend), false, with *why the
  // same on every rank.
  bool start_gpu_ranks(std::string* why);
  // "distributed over 4 ranks on a 2x2 grid, each cpu (SuiteSparse:GraphBLAS 7.4.0, 1 threads)",
  // or "..., each gpu (NVIDIA H200 (sm_90, 139.8 GiB))" on GPU ranks.
  std::string description() const;

  // A failure: under mpirun with more than one rank, ends the job (MPI_Abort) with
  // "rank R: error: NAME: MESSAGE"; else prints "NAME: error: MESSAGE" and returns `status`.
  int fail(const std::string& name, const std::string& message, int status);
  // A usage error, which every rank meets alike: printed by rank 0 alone; returns `status`.
  int usage_error(const std::string& name, const std::string& message, int status);

 private:
  struct Mpi;  // the session, world, grid and its scope (mpi_job.cpp); null outside mpirun
  std::unique_ptr<Mpi> mpi_;
  std::string grid_flag_;
};

// The job of this process (the one run_app made).
MpiJob& mpi_job();

}  // namespace spgraph::apps
