// Device properties are kept per device: a process that switches device (cudaSetDevice) gets
// the new device's values, not those of the device current at the first call.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "spgraph/device/device_info.hpp"
#include "test_support.hpp"

namespace spgraph::test {
namespace {

// The cache itself, on device ids alone (no device needed).
TEST(PerDevice, KeepsOneValueForEachDevice) {
  device::PerDevice<int> cache;
  int calls = 0;
  const auto compute = [&](int dev) {
    ++calls;
    return 100 + dev;
  };
  EXPECT_EQ(cache.get(0, compute), 100);
  EXPECT_EQ(cache.get(1, compute), 101);
  EXPECT_EQ(cache.get(0, compute), 100);
  EXPECT_EQ(cache.get(1, compute), 101);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(cache.get(1000, compute), 1100);  // past the table: computed, not kept
  EXPECT_EQ(cache.get(1000, compute), 1100);
  EXPECT_EQ(calls, 4);
}

TEST(PerDevice, ComputesAgainAfterAThrow) {
  device::PerDevice<int> cache;
  EXPECT_THROW(cache.get(0, [](int) -> int { throw std::runtime_error("device error"); }), std::runtime_error);
  EXPECT_EQ(cache.get(0, [](int) { return 7; }), 7);
}

int attribute(cudaDeviceAttr a, int dev) {
  int v = 0;
  EXPECT_EQ(cudaDeviceGetAttribute(&v, a, dev), cudaSuccess);
  return v;
}

// Every device's own values after switching to it (one device: that device's, at least).
TEST(DeviceInfo, PropertiesFollowTheCurrentDevice) {
  SPGRAPH_REQUIRE_GPU();
  int count = 0, original = 0;
  ASSERT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  ASSERT_EQ(cudaGetDevice(&original), cudaSuccess);
  for (int pass = 0; pass < 2; ++pass)  // the second pass reads what the first kept
    for (int dev = 0; dev < count; ++dev) {
      SCOPED_TRACE("device " + std::to_string(dev));
      ASSERT_EQ(cudaSetDevice(dev), cudaSuccess);
      EXPECT_EQ(device::current_device(), dev);
      EXPECT_EQ(device::multiprocessor_count(), attribute(cudaDevAttrMultiProcessorCount, dev));
      EXPECT_EQ(device::l2_cache_bytes(), std::size_t(attribute(cudaDevAttrL2CacheSize, dev)));
      EXPECT_EQ(device::dependent_launch_supported(), attribute(cudaDevAttrComputeCapabilityMajor, dev) >= 9);
    }
  ASSERT_EQ(cudaSetDevice(original), cudaSuccess);
}

}  // namespace
}  // namespace spgraph::test
