#pragma once
// Breadth-first search from up to 64 sources at once, one bit per source in a 64-bit word per
// vertex (MS-BFS, Then et al., PVLDB 2014), a level at a time, in either direction (Beamer's
// direction-optimizing BFS, per level):
//
//   pull: next(v) = OR over the links u -> v of frontier(u), 4 threads a vertex, the walk cut
//         short once every source still searching has reached v (an SpMV over words, bor.second)
//   push: every frontier vertex u ORs frontier(u) into next(v) for its links u -> v (atomicOr),
//         then one pass over the vertices settles them
//   new(v) = next(v) & ~seen(v);  seen(v) |= new(v);  level[b * n + v] = depth for its bits b
//
// Push while the frontier's links are fewer than a fourteenth of all links (Beamer's alpha),
// pull otherwise; the first level always pushes. The search stops at the first level that reaches
// nothing new; one read-back a level (the OR of the new bits and the frontier's links). Parents,
// when asked for: the pushing vertex whose atomicOr set the bit, or in a pull the first in-link
// whose frontier word has it. Only this backend has it
// (gpu/backend.hpp's WordBfs), so algorithms test for it with `requires`.
#include <cstdint>
#include <vector>

#include "spgraph/gpu/matrix.hpp"
#include "spgraph/types.hpp"
#include "spgraph/word_bfs_result.hpp"

namespace spgraph::gpu {

class WordBfs {
 public:
  static constexpr int kSources = 64;

  using Result = WordBfsResult;

  // out_links: row u lists every v with a link u -> v that the search follows (n x n);
  // in_links: its transpose. sources: 1 to kSources vertices (may repeat). levels: null, or
  // resized to sources.size() * n and filled with level[b * n + v] (-1 where v is not reached).
  // parents: null, or filled the same way with a parent of v for source b (-1 for the source
  // and unreached vertices): the first frontier vertex found to link to v.
  static Result run(const Matrix<std::int32_t>& out_links, const Matrix<std::int32_t>& in_links,
                    const std::vector<vid_t>& sources, Vector<std::int32_t>* levels, Vector<vid_t>* parents = nullptr);
};

}  // namespace spgraph::gpu
