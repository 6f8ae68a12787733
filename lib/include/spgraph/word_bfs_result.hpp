#pragma once
// What a bit-parallel breadth-first search from up to 64 sources (gpu::WordBfs, dist::WordBfs)
// reports besides the levels and parents it writes, and what one level on a block of a
// distributed graph proposes as parents (host/word_expansion.hpp, gpu/word_expansion.hpp).
#include <cstdint>
#include <vector>

#include "spgraph/types.hpp"

namespace spgraph {

struct WordBfsResult {
  std::vector<std::int64_t> reached;  // per source: vertices reached, the source included
  std::vector<std::int32_t> depth;    // per source: the largest level
  std::int64_t edges_traversed = 0;   // sum over sources of the links out of every v reached
  // Levels expanded by push and by pull, the last (which reaches nothing) included.
  int push_levels = 0;
  int pull_levels = 0;
};

// u (the frontier side) is a parent of v for source `bit`; both local ids of the block.
struct WordParentCandidate {
  vid_t v;
  vid_t u;
  std::int32_t bit;
};

}  // namespace spgraph
