#pragma once
// Peak device memory of one benchmarked run, as spgraph's pool allocator counts it. The
// cuSPARSE baselines allocate their matrices and work buffers through the same allocator, so
// the numbers compare.
#include <cstddef>

#include "spgraph/device/memory.hpp"

namespace spgraph::bench {

// Most bytes live at once since construction, above what was live at construction: the
// workspace and output of what ran in between, not its inputs.
class PeakMemory {
 public:
  PeakMemory() : base_(device::memory_stats().current) { device::reset_peak(); }
  std::size_t bytes() const {
    std::size_t peak = device::memory_stats().peak;
    return peak > base_ ? peak - base_ : 0;
  }

 private:
  std::size_t base_;
};

}  // namespace spgraph::bench
