#pragma once
// Breadth-first search from up to 64 sources at once, one bit per source in a 64-bit word per
// vertex (MS-BFS, Then et al., PVLDB 2014), pulled over in-links a level at a time. Each level is
// one kernel, a group of 4 threads per vertex v:
//
//   next(v)  = OR over the links u -> v of frontier(u)     (an SpMV over words: bor.second)
//   new(v)   = next(v) & ~seen(v);  seen(v) |= new(v)
//   level[b * n + v] = depth for every bit b of new(v)     (when levels are asked for)
//
// with the walk over v's in-links cut short once every source still searching has reached v.
// The search stops at the first level that reaches nothing new. Parents are not kept here: the
// frontier-matrix form of msbfs gives them. Only this backend has it (gpu/backend.hpp's WordBfs),
// so algorithms test for it with `requires`.
#include <cstdint>
#include <vector>

#include "spgraph/gpu/matrix.hpp"
#include "spgraph/types.hpp"

namespace spgraph::gpu {

class WordBfs {
 public:
  static constexpr int kSources = 64;

  struct Result {
    std::vector<std::int64_t> reached;  // per source: vertices reached, the source included
    std::vector<std::int32_t> depth;    // per source: the largest level
    std::int64_t edges_traversed = 0;   // sum over sources of degree(v) for every v reached
  };

  // in_links: row v lists every u with a link u -> v that the search follows (n x n);
  // degree(u): the links out of u that the search follows (for edges_traversed).
  // sources: 1 to kSources vertices (may repeat). levels: null, or resized to
  // sources.size() * n and filled with level[b * n + v] (-1 where v is not reached).
  static Result run(const Matrix<std::int32_t>& in_links, const Vector<vid_t>& degree,
                    const std::vector<vid_t>& sources, Vector<std::int32_t>* levels);
};

}  // namespace spgraph::gpu
