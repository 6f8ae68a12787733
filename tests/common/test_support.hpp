#pragma once
// Shared by every test area: where the data is, and the GPU skip.
#include <gtest/gtest.h>

#include <string>

#include "spgraph/device/device_info.hpp"

namespace spgraph::test {

// datasets/ inside the project (small graphs copied with provenance; always present).
inline std::string dataset(const std::string& rel) { return std::string(SPGRAPH_SOURCE_DIR) + "/datasets/" + rel; }
// ../shared/datasets beside the checkout: large real graphs; tests that need them skip when absent.
inline std::string shared_dataset(const std::string& rel) {
  return std::string(SPGRAPH_SOURCE_DIR) + "/../shared/datasets/" + rel;
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
