#pragma once
// Shared by every test area: where the data is, and the GPU skip.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "spgraph/device/device_info.hpp"
#include "spgraph/error.hpp"

namespace spgraph::test {

// The test binaries also run on the GPU machine from another checkout path, so the data
// folders can be overridden at run time (SPGRAPH_DATASETS, SPGRAPH_SHARED_DATASETS).
inline std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}
// datasets/ inside the project (small graphs copied with provenance; always present).
inline std::string dataset(const std::string& rel) {
  return env_or("SPGRAPH_DATASETS", std::string(SPGRAPH_SOURCE_DIR) + "/datasets") + "/" + rel;
}
// ../shared/datasets beside the checkout: the larger real graphs; tests that need them
// start with SPGRAPH_REQUIRE_SHARED_DATASET(path) (a fresh clone elsewhere has no ../shared).
inline std::string shared_dataset(const std::string& rel) {
  return env_or("SPGRAPH_SHARED_DATASETS", std::string(SPGRAPH_SOURCE_DIR) + "/../shared/datasets") + "/" + rel;
}

// Names of parameterised tests (the 4th argument of INSTANTIATE_TEST_SUITE_P) are built from
// what the parameter means, never its index or bytes, so a test keeps its name from build to
// build; gtest accepts only [A-Za-z0-9_] there. test_name turns every other character into '_'.
// A struct parameter also gets a PrintTo, so gtest's listing shows it instead of its bytes;
// ctest's names are gtest's (gtest_discover_tests ... NO_PRETTY_VALUES). Typed suites keep
// gtest's numbers (Suite/0): from those CMake names the ctest test Suite.Test<float> by the
// type, where a named typed suite would carry gtest's whole "# TypeParam = ..." comment
// (CMake 3.25).
inline std::string test_name(std::string_view s) {
  std::string name(s);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}
// A graph file as a test name: no folder, no extension ("real/web-NotreDame.txt.gz" gives
// web_NotreDame, "small/hep-th.mtx" hep_th).
inline std::string graph_test_name(const std::string& path) {
  const std::string file = std::filesystem::path(path).filename().string();
  return test_name(file.substr(0, file.find('.')));
}
// The name generator of a suite whose parameter is a graph's file name (const char*).
struct GraphFileTestName {
  template <class Info>
  std::string operator()(const Info& info) const {
    return graph_test_name(info.param);
  }
};

// Whether the environment variable `name` is set to 1: a switch that turns a skip into a failure.
inline bool switch_on(const char* name) { return env_or(name, "") == "1"; }

// The message of the spgraph::Error f throws ("" when it throws none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace spgraph::test

// A test that cannot run here: skipped with the reason, or, where the environment variable
// `switch_name` is 1 (where it must run: the GPU machine, CI), a failure with the reason.
#define SPGRAPH_SKIP_UNLESS_REQUIRED(switch_name, reason)                                     \
  do {                                                                                       \
    const std::string spgraph_reason_ = (reason);                                            \
    if (::spgraph::test::switch_on(switch_name))                                             \
      FAIL() << spgraph_reason_ << " (" switch_name "=1: this test must run here)";          \
    GTEST_SKIP() << spgraph_reason_;                                                         \
  } while (0)

// First statement of every GPU test: skips with the reason when no usable device is present
// (or the device fails), so CI without a GPU stays honest (skipped, not passed);
// SPGRAPH_REQUIRE_GPU=1 (scripts/gpu-check.sh) makes that a failure on the GPU machine.
#define SPGRAPH_REQUIRE_GPU()                                                              \
  do {                                                                                     \
    std::string spgraph_why_;                                                              \
    if (!::spgraph::device::gpu_available(&spgraph_why_))                                  \
      SPGRAPH_SKIP_UNLESS_REQUIRED("SPGRAPH_REQUIRE_GPU", "GPU test skipped: " + spgraph_why_); \
  } while (0)

// A test on a graph of ../shared/datasets: skipped when the file is absent, a failure instead
// under SPGRAPH_REQUIRE_SHARED_DATASETS=1 (.ci/run, scripts/gpu-check.sh).
#define SPGRAPH_REQUIRE_SHARED_DATASET(path)                                                     \
  do {                                                                                           \
    const std::string spgraph_path_ = (path);                                                    \
    if (!std::filesystem::exists(spgraph_path_))                                                 \
      SPGRAPH_SKIP_UNLESS_REQUIRED("SPGRAPH_REQUIRE_SHARED_DATASETS", spgraph_path_ + " is absent"); \
  } while (0)
