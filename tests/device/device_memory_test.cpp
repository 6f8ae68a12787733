// The device allocator (spgraph/device/memory.hpp): its pool keeps freed blocks for reuse,
// which must not make a later, larger request fail while the memory is there.
#include <gtest/gtest.h>

#include <vector>

#include "spgraph/device/memory.hpp"
#include "test_support.hpp"

namespace spgraph {
namespace {

// Blocks freed into the pool (60% of what is available, in 256 MiB pieces) leave the driver
// too little for one request of 70% unless the pool hands them back: the allocator trims the
// pool and retries before it reports the memory exhausted.
TEST(DeviceMemory, BlocksKeptByThePoolServeALargerRequest) {
  SPGRAPH_REQUIRE_GPU();
  const std::size_t available = device::available_memory();
  const std::size_t piece = std::size_t(256) << 20;
  {
    std::vector<device::Buffer<char>> pieces;
    for (std::size_t held = 0; held + piece <= available / 10 * 6; held += piece) pieces.emplace_back(piece);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_GE(device::available_memory(), available / 10 * 9) << "the freed blocks count as available";
  device::Buffer<char> large(available / 10 * 7);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

}  // namespace
}  // namespace spgraph
