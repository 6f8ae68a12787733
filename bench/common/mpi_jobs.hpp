#pragma once
// Benchmarks that run themselves as MPI jobs (bench_scaling, bench_mcl --gpus). Started by hand a
// benchmark is the driver: for each rank count P it runs `mpirun ... -n P` of its own program
// with --job (JobRunner), each job runs every case and its rank 0 writes its rows of results as
// a JSON array (write_job_rows), and the driver gathers the rows into one table. The jobs'
// side here is what every case measures the same way: which kind of ranks run, the grid's
// traffic, and values agreed over the ranks.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "child_process.hpp"
#include "spgraph/config.hpp"
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/communicator.hpp"
#include "spgraph/dist/mpi_communicator.hpp"
#include "spgraph/dist/process_grid.hpp"
#endif

namespace spgraph::bench {

// The launcher's arguments by default: one host, shared memory and loopback only, more ranks
// than cores and root allowed (the development machines and CI).
inline constexpr const char* kOneHostMpirunArgs =
    "--oversubscribe --allow-run-as-root --mca btl self,vader --mca oob_tcp_if_include lo";

// The flags of the driver and its jobs (mpi_job_flags.hpp adds them to a command line).
struct JobFlags {
  std::vector<int> ranks = {1, 2, 4};  // one job each
  std::string ranks_on = "auto";       // auto, gpu or cpu
  std::string mpirun = "mpirun";
  std::string mpirun_args = kOneHostMpirunArgs;
  double timeout_s = 1800;  // a job's
  bool job = false;         // this process is a rank of a job the driver started
  std::string part_path;    // where the job's rank 0 writes its rows
};

// "a,b,c" of the values, as a list flag reads them back.
std::string joined(const std::vector<std::string>& values);

// The rows one job wrote, or why there are none.
struct JobOutcome {
  int ranks = 0;  // 0: the program alone, without mpirun
  std::string status = "ok";  // "ok", "skipped: why" or "failed: why"
  nlohmann::json rows = nlohmann::json::array();
  bool ok() const { return status == "ok"; }
  bool skipped() const { return status.starts_with("skipped"); }
  // {"input": "the job of P = 2", "ranks", "error"}: an entry of finish_run's failed_inputs.
  nlohmann::json failed_input() const;
};

// The GPUs of this host that this process may use, as CUDA lists them (0 without a driver).
int host_gpus();

// Starts this program as jobs, each in the folder's files.
class JobRunner {
 public:
  // prefix names the temporary folder of the jobs' files ("spgraph-bench-mcl").
  JobRunner(const JobFlags& flags, const std::string& prefix);

  // Runs `mpirun ARGS -x OMP_NUM_THREADS -n ranks SELF --job --part-json PART args...`, or with
  // ranks 0 `SELF --job --part-json PART args...` alone, OMP_NUM_THREADS being the host's cores
  // over the ranks; copies the job's output to `out` when it ends and returns the rows it wrote.
  // With --ranks-on gpu, a job of more ranks than this host has GPUs (alone: none) is skipped,
  // saying so (the default launcher arguments keep a job on this host). A failed job's status
  // ends with its last line of output, where its error is.
  JobOutcome run(int ranks, const std::vector<std::string>& args, std::ostream& out);

  // Another program as run() starts its jobs (the launcher and its arguments, the threads a rank,
  // a session folder of its own): `mpirun ARGS -x OMP_NUM_THREADS -n ranks command...`, or with
  // ranks 0 the command alone. Its output is copied to `out` and returned in `lines`, a line an
  // element; no rows, the status "ok" or "failed: why: its last line".
  JobOutcome run_program(int ranks, const std::vector<std::string>& command, std::ostream& out,
                         std::vector<std::string>& lines);

  const TempDir& dir() const { return dir_; }

 private:
  const JobFlags& flags_;
  TempDir dir_;
  std::string self_;
  int gpus_;
  int jobs_ = 0;  // started so far: each job's files are numbered

  JobOutcome launch(int ranks, const std::string& tag, const std::vector<std::string>& command, std::ostream& out,
                    std::vector<std::string>& lines);
};

#if SPGRAPH_HAVE_MPI
// Which ranks a job runs on: GPU ranks, one GPU a rank, when --ranks-on is gpu, or auto and
// every rank has a GPU of its own; else CPU ranks, `why` saying why. Collective. Throws Error
// for gpu when a rank has no GPU of its own.
struct RankKind {
  bool gpu = false;
  std::string why;  // with CPU ranks: why not GPU ranks
};
RankKind start_ranks(dist::MpiCommunicator& world, const std::string& ranks_on);

// Of `value` over the job's ranks. Collective.
double most_over_ranks(dist::Communicator& world, double value);
double sum_over_ranks(dist::Communicator& world, double value);
double mean_over_ranks(dist::Communicator& world, double value);

// Per collective that was called: {"bytes_per_run", "calls_per_run"}, the most over the ranks
// of `traffic` over `runs` runs. Collective.
nlohmann::json collectives_json(dist::Communicator& world, const dist::Traffic& traffic, int runs);

// The job's rows written by rank 0 to flags.part_path (nowhere when it is empty).
void write_job_rows(dist::Communicator& world, const JobFlags& flags, const nlohmann::json& rows);
#endif

}  // namespace spgraph::bench
