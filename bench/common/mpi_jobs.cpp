#include "mpi_jobs.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <thread>

#include "json_output.hpp"
#include "spgraph/error.hpp"
#if SPGRAPH_HAVE_GPU
#include <cuda_runtime_api.h>
#endif
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/mpi_communicator.hpp"
#if SPGRAPH_HAVE_GPU
#include "spgraph/dist/rank_gpu.hpp"
#endif
#endif

namespace spgraph::bench {

std::string joined(const std::vector<std::string>& values) {
  std::string s;
  for (const auto& v : values) s += (s.empty() ? "" : ",") + v;
  return s;
}

nlohmann::json JobOutcome::failed_input() const {
  return {{"input", ranks == 0 ? "the job alone" : "the job of P = " + std::to_string(ranks)},
          {"ranks", ranks},
          {"error", status}};
}

int host_gpus() {
#if SPGRAPH_HAVE_GPU
  // Listing the devices makes no context: the driver holds no GPU memory while its jobs run.
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess) return count;
  cudaGetLastError();
#endif
  return 0;
}

JobRunner::JobRunner(const JobFlags& flags, const std::string& prefix)
    : flags_(flags),
      dir_(prefix),
      self_(std::filesystem::read_symlink("/proc/self/exe").string()),
      gpus_(flags.ranks_on == "gpu" ? host_gpus() : 0) {}

JobOutcome JobRunner::run(int ranks, const std::vector<std::string>& args, std::ostream& out) {
  JobOutcome o;
  o.ranks = ranks;
  const std::string name = ranks == 0 ? "alone" : "P = " + std::to_string(ranks);
  if (flags_.ranks_on == "gpu" && std::max(1, ranks) > gpus_) {
    o.status = "skipped: " +
               (ranks == 0 ? std::string("a run on the GPU needs one") : std::to_string(ranks) + " GPU ranks need a GPU each") +
               ", this host has " + std::to_string(gpus_);
    out << "== " << name << ": " << o.status << '\n';
    return o;
  }
  const std::string tag = std::to_string(++jobs_);
  const std::string part = dir_.file("part-" + tag + ".json");
  std::vector<std::string> command = {self_, "--job", "--part-json", part};
  command.insert(command.end(), args.begin(), args.end());
  std::vector<std::string> lines;
  o = launch(ranks, tag, command, out, lines);
  if (!o.ok()) return o;
  std::ifstream rows(part);
  if (!rows) {
    o.status = "failed: the job wrote no results" + (lines.empty() ? "" : ": " + lines.back());
    return o;
  }
  o.rows = nlohmann::json::parse(rows);
  return o;
}

JobOutcome JobRunner::run_program(int ranks, const std::vector<std::string>& command, std::ostream& out,
                                  std::vector<std::string>& lines) {
  return launch(ranks, std::to_string(++jobs_), command, out, lines);
}

JobOutcome JobRunner::launch(int ranks, const std::string& tag, const std::vector<std::string>& command,
                             std::ostream& out, std::vector<std::string>& lines) {
  JobOutcome o;
  o.ranks = ranks;
  const std::string name = ranks == 0 ? "alone" : "P = " + std::to_string(ranks);
  const std::string log = dir_.file("job-" + tag + ".log");
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::string threads = std::to_string(std::max(1u, cores / unsigned(std::max(1, ranks))));
  ::setenv("OMP_NUM_THREADS", threads.c_str(), 1);  // the ranks share the host's cores
  // OpenMPI 4 makes its session folder under /tmp unless told otherwise, and two jobs starting
  // at once (ctest's parallel tests) can both try to create it, one then failing with "File
  // exists": each job gets a folder of its own.
  const std::string sessions = dir_.file("mpi-" + tag);
  std::filesystem::create_directories(sessions);
  ::setenv("OMPI_MCA_orte_tmpdir_base", sessions.c_str(), 1);
  std::vector<std::string> argv;
  if (ranks > 0) {
    argv.push_back(flags_.mpirun);
    std::istringstream words(flags_.mpirun_args);
    argv.insert(argv.end(), std::istream_iterator<std::string>(words), std::istream_iterator<std::string>());
    argv.insert(argv.end(), {"-x", "OMP_NUM_THREADS", "-n", std::to_string(ranks)});
  }
  argv.insert(argv.end(), command.begin(), command.end());
  out << "== " << name << " (OMP_NUM_THREADS " << threads << ")\n" << std::flush;
  const ProcessResult r = run_process(argv, log, flags_.timeout_s);
  lines.clear();
  std::ifstream job_out(log);
  for (std::string line; std::getline(job_out, line);) {
    out << line << '\n';
    lines.push_back(line);
  }
  out << std::flush;
  while (!lines.empty() && lines.back().empty()) lines.pop_back();  // the last line: where a failure says why
  if (!r.ok()) o.status = "failed: " + r.describe() + (lines.empty() ? "" : ": " + lines.back());
  return o;
}

#if SPGRAPH_HAVE_MPI
RankKind start_ranks(dist::MpiCommunicator& world, const std::string& ranks_on) {
  RankKind kind;
  kind.why = "--ranks-on cpu";
#if SPGRAPH_HAVE_GPU
  if (ranks_on != "cpu") kind.gpu = dist::start_gpu_ranks(world, &kind.why) >= 0;
#else
  kind.why = "this build has no GPU backend";
#endif
  if (ranks_on == "gpu" && !kind.gpu) throw Error("--ranks-on gpu: " + kind.why);
  return kind;
}

namespace {
double over_ranks(dist::Communicator& world, double value, dist::ReduceOp op) {
  double result = 0;
  world.allreduce(&value, &result, 1, op);
  return result;
}
}  // namespace

double most_over_ranks(dist::Communicator& world, double value) { return over_ranks(world, value, dist::ReduceOp::Max); }
double sum_over_ranks(dist::Communicator& world, double value) { return over_ranks(world, value, dist::ReduceOp::Sum); }
double mean_over_ranks(dist::Communicator& world, double value) { return sum_over_ranks(world, value) / world.size(); }

nlohmann::json collectives_json(dist::Communicator& world, const dist::Traffic& traffic, int runs) {
  nlohmann::json j = nlohmann::json::object();
  for (int c = 0; c < dist::kCollectives; ++c) {
    const dist::CollectiveCost& cost = traffic.by_collective[c];
    const double bytes = most_over_ranks(world, double(cost.bytes) / runs);
    const double calls = most_over_ranks(world, double(cost.calls) / runs);
    if (calls > 0) j[dist::name_of(dist::Collective(c))] = {{"bytes_per_run", bytes}, {"calls_per_run", calls}};
  }
  return j;
}

void write_job_rows(dist::Communicator& world, const JobFlags& flags, const nlohmann::json& rows) {
  if (world.rank() == 0 && !flags.part_path.empty()) write_json_file(flags.part_path, rows);
}
#endif

}  // namespace spgraph::bench
