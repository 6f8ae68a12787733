#pragma once
// Programs run as child processes by the benchmarks that time whole runs (bench_mcl runs van
// Dongen's mcl, bench_end_to_end our apps): the wall clock from spawn to exit, with a time limit.
#include <filesystem>
#include <string>
#include <vector>

namespace spgraph::bench {

// A folder under the system's temporary one, removed with everything in it at the end.
class TempDir {
 public:
  // prefix: the start of the folder's name, as "spgraph-bench-mcl".
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

struct ProcessResult {
  double seconds = 0;  // wall clock, spawn to exit
  bool timed_out = false;
  int exit_status = -1;  // when it exited
  int signal = 0;        // when a signal ended it
  bool ok() const { return !timed_out && signal == 0 && exit_status == 0; }
  // "exit status 1", "killed by signal 9 (Killed)", "timed out after 300.0 s (killed)"
  std::string describe() const;
};

// Runs argv (argv[0] looked up on PATH unless it has a slash) with stdin from /dev/null, stdout
// into `log` and stderr into `err_log` (into `log` too when empty); kills it (SIGKILL) once
// `timeout_s` have passed. Its exit is polled every 0.2 ms, the time's resolution. Throws
// spgraph::Error when it cannot be started.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& log, double timeout_s,
                          const std::string& err_log = "");

}  // namespace spgraph::bench
