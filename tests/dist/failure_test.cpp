// A rank that throws while the others wait in a collective ends the whole job with its message
// and a non-zero exit, never a hang (issue 42). Each case starts a job of its own, this binary
// under mpirun with --dist-child=SCENARIO, with a time limit, and reads its stderr. They run in
// the 1-rank ctest job only (the others skip them), so no rank waits for them.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dist_test_support.hpp"
#include "spgraph/dist/cpu_backend.hpp"
#include "spgraph/dist/mpi_session.hpp"
#include "spgraph/error.hpp"

#ifndef SPGRAPH_MPIEXEC
#define SPGRAPH_MPIEXEC "mpirun"  // CMake passes MPIEXEC_EXECUTABLE
#endif

extern char** environ;

namespace spgraph::dist::test {

// ---- the scenarios, run by the child jobs ---------------------------------------------------

int run_child_scenario(std::string_view name) {
  return run_or_abort([&]() -> int {
    std::unique_ptr<MpiCommunicator> world = MpiCommunicator::world();
    const int me = world->rank(), p = world->size();
    auto fail_later = [](const std::string& message) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the others are waiting by now
      throw Error(message);
    };
    if (name == "ok") {
      for (int step = 0; step < 3; ++step) {
        std::int64_t x = me, sum = 0;
        world->allreduce(&x, &sum, 1, ReduceOp::Sum);
        if (sum != std::int64_t(p) * (p - 1) / 2) throw Error("wrong sum");
      }
      return 0;
    }
    if (name == "last-rank-throws-in-allreduce") {
      for (int step = 0; step < 5; ++step) {
        if (step == 2 && me == p - 1) fail_later("injected failure at step 2\nwhile the others wait");
        std::int64_t x = me, sum = 0;
        world->allreduce(&x, &sum, 1, ReduceOp::Sum);
      }
      return 0;
    }
    if (name == "rank-0-throws-in-alltoallv") {
      const std::vector<std::int64_t> counts(p, 1), displs = [&] {
        std::vector<std::int64_t> d(p);
        for (int r = 0; r < p; ++r) d[r] = r;
        return d;
      }();
      std::vector<double> send(p, 1.0 * me), recv(p);
      if (me == 0) fail_later("rank 0 gave up in its alltoallv");
      world->alltoallv(send.data(), counts, displs, recv.data(), counts, displs);
      return 0;
    }
    if (name == "rank-1-throws-in-dist-mxv") {
      // Inside an operation of the distributed backend: rank 1's x has the wrong length, so it
      // throws where the others enter the operation's collectives.
      ProcessGrid grid(*world);
      GridScope scope(grid);
      using D = Backend<graphblas::GraphBlasBackend>;
      Csr<double> a;
      a.nrows = a.ncols = 8;
      a.rowptr.assign(9, 0);
      const auto A = D::from_host(a);
      const auto x = D::from_host(std::vector<double>(me == 1 ? 7 : 8, 1.0));
      if (me == 1) std::this_thread::sleep_for(std::chrono::milliseconds(300));
      typename D::template Vector<double> y;
      D::mxv(y, nullptr, A, x, PlusTimes{});
      return 0;
    }
    throw Error("no failure scenario '" + std::string(name) + "'");
  });
}

// ---- starting a job and watching it ---------------------------------------------------------

namespace {

struct JobResult {
  bool timed_out = false;
  int exit_code = -1;  // 128 + signal when a signal ended mpirun
  double seconds = 0;
  std::string err;  // its stderr
};

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Whether mpirun set `variable` for its ranks (a child mpirun that saw it would take itself for
// a rank of this job): OMPI_COMM_WORLD_SIZE and the other OMPI_ names outside OMPI_MCA_, the MCA
// parameters of its runtime (orte, ess, pmix, ...), PMIx's and PMI's. Other MCA parameters are
// the user's or the machine's settings (OMPI_MCA_plm_rsh_agent on a host without ssh) and stay.
bool set_by_launcher(std::string_view variable) {
  for (std::string_view prefix : {"PMIX_", "PMI_", "HYDRA_"})
    if (variable.starts_with(prefix)) return true;
  if (!variable.starts_with("OMPI_")) return false;
  if (!variable.starts_with("OMPI_MCA_")) return true;
  const std::string_view parameter = variable.substr(9);
  for (std::string_view prefix : {"orte_", "ess", "pmix", "initial_wdir", "shmem_RUNTIME_QUERY_hint",
                                  "mpi_oversubscribe", "rmaps_base_oversubscribe"})
    if (parameter.starts_with(prefix)) return true;
  return false;
}

std::vector<std::string> clean_environment() {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e)
    if (!set_by_launcher(*e)) env.emplace_back(*e);
  return env;
}

JobResult run_job(int ranks, const std::string& scenario, double limit_seconds) {
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  const std::filesystem::path err_path = std::filesystem::temp_directory_path() /
                                         ("spgraph-dist-" + std::to_string(getpid()) + "-" + scenario + ".err");
  std::vector<std::string> args = {SPGRAPH_MPIEXEC, "--oversubscribe", "--allow-run-as-root", "--mca", "btl",
                                   "self,vader", "--mca", "oob_tcp_if_include", "lo", "-n", std::to_string(ranks),
                                   self.string(), std::string(kChildFlag) + scenario};
  std::vector<char*> argv, envp;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env = clean_environment();
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&files, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);  // its own group, to end it all on a hang
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  const auto start = std::chrono::steady_clock::now();
  const int spawned = posix_spawnp(&pid, argv[0], &files, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attr);
  if (spawned != 0) throw Error(std::string("cannot start ") + SPGRAPH_MPIEXEC + ": " + std::strerror(spawned));

  JobResult result;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > limit_seconds) {  // hung: end mpirun, its ranks, and anything left in its group
      result.timed_out = true;
      kill(pid, SIGTERM);
      std::this_thread::sleep_for(std::chrono::seconds(2));
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.err = read_file(err_path);
  std::filesystem::remove(err_path);
  return result;
}

// The lines of `text` that start with `prefix`.
std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(prefix)) found.push_back(line);
  return found;
}

constexpr double kLimitSeconds = 90;  // a 4-rank job on 2 busy cores takes a few seconds

#define SPGRAPH_IN_ONE_RANK_JOB_ONLY()                                                       \
  do {                                                                                       \
    if (world().size() != 1) GTEST_SKIP() << "starts jobs of its own: runs in the 1-rank job"; \
  } while (0)

TEST(FailureEndsTheJob, CleanJobExitsZero) {
  SPGRAPH_IN_ONE_RANK_JOB_ONLY();
  const JobResult job = run_job(2, "ok", kLimitSeconds);
  EXPECT_FALSE(job.timed_out);
  EXPECT_EQ(job.exit_code, 0) << job.err;
  EXPECT_EQ(job.err.find("error"), std::string::npos) << job.err;
}

TEST(FailureEndsTheJob, RankThrowingWhileOthersWaitInAllreduce) {
  SPGRAPH_IN_ONE_RANK_JOB_ONLY();
  const JobResult job = run_job(3, "last-rank-throws-in-allreduce", kLimitSeconds);
  EXPECT_FALSE(job.timed_out) << "the job hung; stderr so far:\n" << job.err;
  EXPECT_NE(job.exit_code, 0) << job.err;
  // Its message, as one line, led by the rank that failed; no other rank reports one.
  EXPECT_EQ(lines_starting(job.err, "rank 2: error: "),
            std::vector<std::string>{"rank 2: error: injected failure at step 2 while the others wait"})
      << job.err;
  EXPECT_TRUE(lines_starting(job.err, "rank 0: error").empty()) << job.err;
  EXPECT_TRUE(lines_starting(job.err, "rank 1: error").empty()) << job.err;
  std::printf("[          ] the 3-rank job ended %.1f s after it started (exit %d)\n", job.seconds, job.exit_code);
}

TEST(FailureEndsTheJob, RootThrowingWhileOthersWaitInAlltoallv) {
  SPGRAPH_IN_ONE_RANK_JOB_ONLY();
  const JobResult job = run_job(4, "rank-0-throws-in-alltoallv", kLimitSeconds);
  EXPECT_FALSE(job.timed_out) << "the job hung; stderr so far:\n" << job.err;
  EXPECT_NE(job.exit_code, 0) << job.err;
  EXPECT_EQ(lines_starting(job.err, "rank 0: error: "),
            std::vector<std::string>{"rank 0: error: rank 0 gave up in its alltoallv"})
      << job.err;
}

TEST(FailureEndsTheJob, RankThrowingInsideADistributedOperation) {
  SPGRAPH_IN_ONE_RANK_JOB_ONLY();
  const JobResult job = run_job(4, "rank-1-throws-in-dist-mxv", kLimitSeconds);
  EXPECT_FALSE(job.timed_out) << "the job hung; stderr so far:\n" << job.err;
  EXPECT_NE(job.exit_code, 0) << job.err;
  EXPECT_EQ(lines_starting(job.err, "rank 1: error: "),
            std::vector<std::string>{"rank 1: error: dist::Backend::mxv: x has 7 elements; 8 are needed"})
      << job.err;
}

TEST(FailureEndsTheJob, JobOfOneRankFailsWithItsMessage) {
  SPGRAPH_IN_ONE_RANK_JOB_ONLY();
  const JobResult job = run_job(1, "no-such-scenario", kLimitSeconds);
  EXPECT_FALSE(job.timed_out);
  EXPECT_NE(job.exit_code, 0);
  EXPECT_EQ(lines_starting(job.err, "rank 0: error: "),
            std::vector<std::string>{"rank 0: error: no failure scenario 'no-such-scenario'"})
      << job.err;
}

}  // namespace
}  // namespace spgraph::dist::test
