#pragma once
// The command-line flags of the benchmarks that run themselves as MPI jobs (mpi_jobs.hpp), so
// that bench_scaling and bench_mcl name them alike. Header-only: included by the benchmark
// programs, which link CLI11.
#include <CLI/CLI.hpp>

#include <string>

#include "mpi_jobs.hpp"

namespace spgraph::bench {

// --ranks (`ranks_names`, as "--gpus,--ranks", may add another name), --ranks-on, --mpirun,
// --mpirun-args, --timeout, and the hidden --job and --part-json by which the driver starts a
// job. Returns the --ranks option.
inline CLI::Option* add_job_flags(CLI::App& cli, JobFlags& flags, const std::string& ranks_names,
                                  const std::string& ranks_on_help) {
  CLI::Option* ranks = cli.add_option(ranks_names, flags.ranks, "rank counts, one mpirun job each")
                           ->delimiter(',')->allow_extra_args(false)
                           ->check(CLI::PositiveNumber);
  cli.add_option("--ranks-on", flags.ranks_on, ranks_on_help)
      ->check(CLI::IsMember({"auto", "gpu", "cpu"}))
      ->capture_default_str();
  cli.add_option("--mpirun", flags.mpirun, "the launcher")->capture_default_str();
  cli.add_option("--mpirun-args", flags.mpirun_args,
                 "the launcher's arguments before -n (one host, loopback only, by default)")
      ->capture_default_str();
  cli.add_option("--timeout", flags.timeout_s, "seconds a job may take before it is killed")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cli.add_flag("--job", flags.job, "run as a rank of one job (how the driver starts it)")->group("");
  cli.add_option("--part-json", flags.part_path, "where the job's rank 0 writes its results")->group("");
  return ranks;
}

}  // namespace spgraph::bench
