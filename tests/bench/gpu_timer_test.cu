// CUDA-event timing against a kernel that waits a known wall-clock time, and the peak memory
// probe against known allocations.
#include <gtest/gtest.h>

#include "copy_bandwidth.hpp"
#include "gpu_timer.hpp"
#include "peak_memory.hpp"
#include "spgraph/error.hpp"
#include "test_support.hpp"

namespace spgraph::bench {
namespace {

__global__ void wait_ns(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

TEST(GpuTimer, MeasuresAKernelOfKnownLength) {
  SPGRAPH_REQUIRE_GPU();
  for (bool flush : {false, true}) {
    GpuTimer timer({.warmup = 2, .repeats = 5, .flush_l2 = flush});
    int runs = 0, resets = 0;
    Timing t = timer.time(
        [&] {
          ++runs;
          wait_ns<<<1, 1>>>(2'000'000);
        },
        [&] { ++resets; });
    EXPECT_EQ(runs, 7);
    EXPECT_EQ(resets, 7);
    EXPECT_EQ(t.repeats, 5);
    EXPECT_GE(t.min_ms, 1.99);
    EXPECT_LE(t.min_ms, t.median_ms);
    EXPECT_LT(t.median_ms, 3.0);
  }
}

TEST(GpuTimer, RejectsNoRepeats) {
  SPGRAPH_REQUIRE_GPU();
  TimingOptions no_repeats{.warmup = 1, .repeats = 0};
  EXPECT_THROW(GpuTimer{no_repeats}, Error);
}

TEST(PeakMemory, CountsWhatWasLiveAtOnceAboveTheStart) {
  SPGRAPH_REQUIRE_GPU();
  device::Buffer<char> before(std::size_t(8) << 20);  // live before: not counted
  PeakMemory peak;
  {
    device::Buffer<char> a(std::size_t(3) << 20);
    device::Buffer<char> b(std::size_t(1) << 20);
  }
  device::Buffer<char> c(std::size_t(2) << 20);
  EXPECT_EQ(peak.bytes(), std::size_t(4) << 20);
}

TEST(CopyBandwidth, ReportsReadPlusWrittenBytesOverTime) {
  SPGRAPH_REQUIRE_GPU();
  CopyBandwidth bw = measure_copy_bandwidth(std::size_t(256) << 20, 3);
  EXPECT_EQ(bw.bytes, std::size_t(256) << 20);
  EXPECT_NEAR(bw.gb_per_s, 2.0 * bw.bytes / (bw.timing.median_ms * 1e-3) / 1e9, 1e-6 * bw.gb_per_s);
  EXPECT_GT(bw.gb_per_s, 100);  // any GPU this project targets copies far faster
}

}  // namespace
}  // namespace spgraph::bench
