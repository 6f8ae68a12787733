// The benchmarks' shared run helpers, on the host: for_each_input (an input that fails is
// reported and the others run) and timed_runs (the checked run kept, medians of the repeats, a
// repeat that disagrees reported).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "bench_inputs.hpp"
#include "test_support.hpp"
#include "timed_runs.hpp"

namespace spgraph::bench {
namespace {

TEST(ForEachInput, AFailingInputIsReportedAndTheOthersRun) {
  const std::vector<InputSpec> specs = {{"karate", test::dataset("small/karate.mtx"), ""},
                                        {"missing", test::dataset("small/no-such-graph.mtx"), ""},
                                        {"dolphins", test::dataset("small/dolphins.mtx"), ""}};
  std::ostringstream out;
  nlohmann::json failed = nlohmann::json::array();
  std::vector<std::string> seen;
  for_each_input(specs, out, failed, [&](const BenchInput& in) {
    seen.push_back(in.name);
    if (in.name == "dolphins") throw Error("dolphins: made to fail");
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"karate", "dolphins"}));
  ASSERT_EQ(failed.size(), 2u);
  EXPECT_EQ(failed[0]["input"], "missing");
  EXPECT_EQ(failed[1]["input"], "dolphins");
  EXPECT_EQ(failed[1]["error"], "dolphins: made to fail");
  EXPECT_NE(out.str().find("== karate: 34 vertices, 156 links"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("!! missing stopped: "), std::string::npos) << out.str();
}

struct Result {
  int value;
  double seconds;
};

TEST(TimedRuns, KeepsTheFirstResultAndTakesMediansOfTheRepeats) {
  int calls = 0;
  const std::vector<double> seconds = {9, 1, 3, 2};  // the seconds of calls 1, 2, 3, 4, 5, ... in turn
  const auto t = timed_runs([&] { return Result{7, seconds[std::size_t(calls++) % seconds.size()]}; },
                            [](const Result& r) { return r.seconds; },
                            [](const Result&, const Result&, int) { return std::string(); }, 1, 3, false);
  EXPECT_EQ(calls, 1 + 1 + 3);
  EXPECT_EQ(t.first.value, 7);
  EXPECT_EQ(t.status, "ok");
  // Calls 3, 4, 5 are timed: seconds 3, 2, 9 (the list wraps).
  EXPECT_EQ(t.median_s, 3);
  EXPECT_EQ(t.min_s, 2);
  EXPECT_FALSE(t.peak_bytes.has_value());  // not on the GPU
}

TEST(TimedRuns, ARepeatThatDisagreesStopsWithTheReason) {
  int calls = 0;
  const auto t = timed_runs([&] { return Result{calls++ < 2 ? 1 : 2, 0.5}; }, [](const Result& r) { return r.seconds; },
                            [](const Result& again, const Result& first, int run) {
                              return again.value == first.value ? std::string()
                                                                : "wrong: run " + std::to_string(run);
                            },
                            0, 5, false);
  EXPECT_EQ(t.status, "wrong: run 3");
  EXPECT_EQ(calls, 3);
}

}  // namespace
}  // namespace spgraph::bench
