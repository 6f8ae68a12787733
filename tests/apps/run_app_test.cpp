// The app skeleton's contract, without a process: exit statuses and the single error line.
#include <gtest/gtest.h>

#include <functional>
#include <new>
#include <vector>

#include "run_app.hpp"

namespace spgraph::apps {
namespace {

int run(std::vector<const char*> args, const std::function<int(Command&)>& body) {
  args.insert(args.begin(), "tool");
  return run_app("tool", static_cast<int>(args.size()), const_cast<char**>(args.data()), body);
}

TEST(RunApp, FailuresBecomeOneLineAndAStatus) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run({}, [](Command&) -> int { throw Error("first line\nsecond line\n"); }), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "tool: error: first line; second line\n");

  testing::internal::CaptureStderr();
  EXPECT_EQ(run({}, [](Command&) -> int { throw UsageError("--a needs --b"); }), 2);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "tool: error: --a needs --b (see --help)\n");

  testing::internal::CaptureStderr();
  EXPECT_EQ(run({}, [](Command&) -> int { throw std::bad_alloc(); }), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "tool: error: out of host memory\n");
}

// Out of memory outside the readers (which name their own allocations) names the input: the
// GRAPH positional every app declares, or what the app set instead.
TEST(RunApp, OutOfHostMemoryNamesTheInput) {
  std::string graph;
  auto body = [&](Command& cmd) -> int {
    cmd.cli().add_option("graph", graph);
    cmd.parse();
    throw std::bad_alloc();
  };
  testing::internal::CaptureStderr();
  EXPECT_EQ(run({"web.mtx"}, body), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "tool: error: out of host memory working on web.mtx (more than this process may take; --help says "
            "what memory a load takes)\n");

  testing::internal::CaptureStderr();
  EXPECT_EQ(run({}, [](Command& cmd) -> int {
              cmd.set_input("the generated wb-edu graph");
              throw std::bad_alloc();
            }),
            1);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("out of host memory working on the generated wb-edu graph"),
            std::string::npos);
}

TEST(RunApp, ParsesDeclaredFlagsAndReturnsTheBodyStatus) {
  int seen = 0;
  auto body = [&](Command& cmd) {
    cmd.cli().add_option("--n", seen);
    cmd.parse();
    return 7;
  };
  EXPECT_EQ(run({"--n", "5"}, body), 7);
  EXPECT_EQ(seen, 5);

  testing::internal::CaptureStderr();
  EXPECT_EQ(run({"--n", "five"}, body), 2);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.rfind("tool: error: ", 0), 0u) << err;
  EXPECT_EQ(err.find('\n'), err.size() - 1) << err;

  testing::internal::CaptureStdout();
  EXPECT_EQ(run({"--help"}, body), 0);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("--n"), std::string::npos);
}

}  // namespace
}  // namespace spgraph::apps
