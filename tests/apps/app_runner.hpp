#pragma once
// Runs a built app as a user would (a shell command) and captures what it printed.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace spgraph::test {

namespace fs = std::filesystem;

// The apps are built next to the test binaries (SPGRAPH_BINARY_DIR); on the GPU machine the
// bundle puts every executable in one folder, so the test binary's own folder is tried next.
inline std::string app_path(const std::string& name) {
  const fs::path built = fs::path(SPGRAPH_BINARY_DIR) / name;
  if (fs::exists(built)) return built.string();
  return (fs::read_symlink("/proc/self/exe").parent_path() / name).string();
}

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct AppRun {
  int status = -1;  // exit status
  std::string out, err;
  std::vector<std::string> err_lines() const { return lines_of(err); }
};

// A fresh, empty folder per test, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("spgraph-apps-" + std::to_string(::getpid()) + "-" + info->test_suite_name() + "-" + info->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ScratchDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }
  // Files in the folder other than the run's captured output.
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path_)) {
      const std::string n = e.path().filename().string();
      if (n != "stdout" && n != "stderr") names.push_back(n);
    }
    return names;
  }

 private:
  fs::path path_;
};

// Runs `app args` (args already quoted where needed) with stdout and stderr captured in dir;
// env, as "NAME=value ", goes before the command.
inline AppRun run_app(const ScratchDir& dir, const std::string& app, const std::string& args,
                      const std::string& env = "") {
  const std::string exe = app_path(app);
  EXPECT_TRUE(fs::exists(exe)) << exe << " is not built: build the '" << app << "' target before apps_test";
  const fs::path out = dir / "stdout", err = dir / "stderr";
  const std::string command =
      env + quote(exe) + " " + args + " >" + quote(out.string()) + " 2>" + quote(err.string());
  const int raw = std::system(command.c_str());
  AppRun r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  fs::remove(out);
  fs::remove(err);
  return r;
}

}  // namespace spgraph::test
