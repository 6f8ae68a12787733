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
#include <utility>
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

// A failure as every app reports it: exactly one line on stderr, "APP: error: ...", that
// mentions `mentions`.
inline void expect_app_error(const AppRun& r, const std::string& app, const std::string& mentions) {
  const auto lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind(app + ": error: ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(mentions), std::string::npos) << lines[0];
}

// Each `args` (with what its error line must mention) is a usage error: exit status 2, one
// error line, nothing on stdout and no file left in dir. `env` goes before the command as in
// run_app.
inline void expect_usage_errors(const ScratchDir& dir, const std::string& app,
                                const std::vector<std::pair<std::string, std::string>>& cases,
                                const std::string& env = "") {
  for (const auto& [args, mentions] : cases) {
    SCOPED_TRACE(args);
    const AppRun r = run_app(dir, app, args, env);
    EXPECT_EQ(r.status, 2);
    expect_app_error(r, app, mentions);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_TRUE(dir.files().empty());
  }
}

// Inputs every app refuses, each with what its error line must mention: a malformed edge list
// (its line), a rectangular matrix, a missing file (made up in dir) and every file of
// datasets/malformed/.
inline std::vector<std::pair<std::string, std::string>> refused_inputs(const ScratchDir& dir) {
  std::ofstream(dir / "bad.txt") << "0 1\n1 2\n2 zero\n";
  std::ofstream(dir / "wide.mtx") << "%%MatrixMarket matrix coordinate pattern general\n2 3 1\n1 3\n";
  std::vector<std::pair<std::string, std::string>> cases = {{(dir / "bad.txt").string(), "bad.txt:3"},
                                                            {(dir / "wide.mtx").string(), "the matrix is 2 x 3"},
                                                            {(dir / "missing.mtx").string(), "missing.mtx"}};
  for (const auto& e : fs::directory_iterator(dataset("malformed")))
    cases.emplace_back(e.path().string(), e.path().filename().string());
  return cases;
}

// `app GRAPH flags -o FILE` fails for each (GRAPH, what its error mentions) of `cases`: exit
// status 1, one error line, and no FILE.
inline void expect_inputs_refused(const ScratchDir& dir, const std::string& app,
                                  const std::vector<std::pair<std::string, std::string>>& cases,
                                  const std::string& flags) {
  const fs::path output = dir / "refused-output.txt";
  for (const auto& [graph, mentions] : cases) {
    SCOPED_TRACE(graph);
    const AppRun r = run_app(dir, app, quote(graph) + " " + flags + " -o " + quote(output.string()));
    EXPECT_EQ(r.status, 1);
    expect_app_error(r, app, mentions);
    EXPECT_FALSE(fs::exists(output));
  }
}

// On the GPU (--backend gpu, or auto with SPGRAPH_GPU_THRESHOLD=0 so that it takes the GPU for a
// small graph too), a graph too big for the memory spgraph may take (here a 1 KiB limit) fails with one line naming the limit and the way out (--backend cpu), leaving
// no file in dir.
inline void expect_gpu_memory_limit_named(const ScratchDir& dir, const std::string& app, const std::string& args) {
  for (const char* backend : {"gpu", "auto"}) {
    SCOPED_TRACE(backend);
    const AppRun r = run_app(dir, app, args + " --backend " + backend + " -o " + quote((dir / "output.txt").string()),
                             "SPGRAPH_GPU_MEMORY_LIMIT=1K SPGRAPH_GPU_THRESHOLD=0 ");
    EXPECT_EQ(r.status, 1);
    expect_app_error(r, app, "device memory limit reached");
    EXPECT_NE(r.err.find("limit of 1.0 KiB (SPGRAPH_GPU_MEMORY_LIMIT)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--backend cpu"), std::string::npos) << r.err;
    EXPECT_TRUE(dir.files().empty());
  }
}

// `app args -o <a folder that does not exist>/FILE` fails before the work: exit status 1, one
// error line naming the folder, and none of `work` (a line the work prints, as "graph:") on
// stdout.
inline void expect_unwritable_output_fails_first(const ScratchDir& dir, const std::string& app,
                                                 const std::string& args, const std::string& work = "graph:") {
  const std::string target = (dir / "no-such-folder" / "output.txt").string();
  const AppRun r = run_app(dir, app, args + " -o " + quote(target));
  EXPECT_EQ(r.status, 1);
  expect_app_error(r, app, "no-such-folder");
  EXPECT_EQ(r.out.find(work), std::string::npos) << "ran before failing: " << r.out;
}

}  // namespace spgraph::test
