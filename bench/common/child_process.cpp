#include "child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "spgraph/error.hpp"

extern char** environ;

namespace spgraph::bench {

namespace fs = std::filesystem;

TempDir::TempDir(const std::string& prefix) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data())) throw Error("cannot create a folder " + pattern + ": " + std::strerror(errno));
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::string ProcessResult::describe() const {
  char text[96];
  if (timed_out) std::snprintf(text, sizeof text, "timed out after %.1f s (killed)", seconds);
  else if (signal) std::snprintf(text, sizeof text, "killed by signal %d (%s)", signal, strsignal(signal));
  else std::snprintf(text, sizeof text, "exit status %d", exit_status);
  return text;
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& log, double timeout_s,
                          const std::string& err_log) {
  using Clock = std::chrono::steady_clock;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (err_log.empty())
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  else
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ProcessResult r;
  pid_t pid = 0;
  const auto start = Clock::now();
  auto since_start = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  // The child leads a process group of its own, so that a timeout reaches what it started too
  // (mpirun's ranks).
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const int rc = posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw Error("cannot run " + argv[0] + ": " + std::strerror(rc));
  int status = 0;
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) throw Error("waiting for " + argv[0] + ": " + std::strerror(errno));
    if (since_start() > timeout_s) {
      // SIGTERM first, which mpirun passes on to ranks that left the group; then SIGKILL.
      kill(-pid, SIGTERM);
      const auto asked = Clock::now();
      while (waitpid(pid, &status, WNOHANG) == 0 && Clock::now() - asked < std::chrono::seconds(5))
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      kill(-pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  r.seconds = since_start();
  if (!r.timed_out) {
    if (WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  }
  return r;
}

}  // namespace spgraph::bench
