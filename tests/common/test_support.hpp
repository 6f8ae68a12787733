#pragma once
// Shared by every test area: where the data is, and the GPU skip.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "spgraph/device/device_info.hpp"

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
// GTEST_SKIP with the path when absent (a fresh clone elsewhere has no ../shared).
inline std::string shared_dataset(const std::string& rel) {
  return env_or("SPGRAPH_SHARED_DATASETS", std::string(SPGRAPH_SOURCE_DIR) + "/../shared/datasets") + "/" + rel;
}

}  // namespace spgraph::test

// First statement of every GPU test: skips with the reason when no usable device is present,
// so CI without a GPU stays honest (skipped, not passed).
#define SPGRAPH_REQUIRE_GPU()                                              \
  do {                                                                     \
    std::string spgraph_why_;                                              \
    if (!::spgraph::device::gpu_available(&spgraph_why_))                  \
      GTEST_SKIP() << "GPU test skipped: " << spgraph_why_;                \
  } while (0)
