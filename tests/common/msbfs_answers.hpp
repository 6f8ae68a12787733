#pragma once
// What the multi-source BFS tests read of a run (tests/msbfs, tests/dist): every source's levels
// and parents, and the check that parents are valid.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "spgraph/algorithms/msbfs.hpp"
#include "spgraph/csr.hpp"
#include "spgraph/graph.hpp"

namespace spgraph::test {

// Every source's levels (and parents), in source order: level[s][v].
struct MsbfsAnswers {
  std::vector<std::vector<std::int32_t>> level;
  std::vector<std::vector<vid_t>> parent;
  algorithms::MsbfsSummary summary;
};

// msbfs on g from `sources`, its batches collected by source.
template <class B>
MsbfsAnswers msbfs_answers(Graph<B>& g, const std::vector<vid_t>& sources, const algorithms::MsbfsOptions& options = {}) {
  MsbfsAnswers a;
  a.level.resize(sources.size());
  a.parent.resize(sources.size());
  const std::size_t n = static_cast<std::size_t>(g.vertices());
  a.summary = algorithms::msbfs(
      g, sources,
      [&](const algorithms::MsbfsBatch& b) {
        EXPECT_EQ(b.level.size(), b.count * n);
        for (std::size_t s = 0; s < b.count; ++s) {
          a.level[b.first + s].assign(b.level.begin() + s * n, b.level.begin() + (s + 1) * n);
          if (!b.parent.empty())
            a.parent[b.first + s].assign(b.parent.begin() + s * n, b.parent.begin() + (s + 1) * n);
        }
      },
      options);
  return a;
}

inline bool has_link(const Csr<double>& h, vid_t u, vid_t v) {
  for (eid_t p = h.rowptr[u]; p < h.rowptr[u + 1]; ++p)
    if (h.col[p] == v) return true;
  return false;
}

// Every parent is one level up and linked to its vertex (u -> v, or v -> u following in-links);
// the source and unreached vertices have none.
inline ::testing::AssertionResult parents_valid(const Csr<double>& h, vid_t source, const std::vector<std::int32_t>& level,
                                                const std::vector<vid_t>& parent, algorithms::BfsDirection direction) {
  if (parent.size() != level.size()) return ::testing::AssertionFailure() << parent.size() << " parents for " << level.size() << " levels";
  for (vid_t v = 0; v < h.nrows; ++v) {
    const vid_t p = parent[v];
    if (v == source || level[v] == algorithms::kUnreached) {
      if (p != algorithms::kNoParent) return ::testing::AssertionFailure() << "vertex " << v << " has parent " << p;
      continue;
    }
    if (p < 0 || p >= h.nrows) return ::testing::AssertionFailure() << "vertex " << v << ": parent " << p;
    if (level[p] != level[v] - 1)
      return ::testing::AssertionFailure() << "vertex " << v << " (level " << level[v] << "): parent " << p
                                           << " at level " << level[p];
    if (!(direction == algorithms::BfsDirection::Out ? has_link(h, p, v) : has_link(h, v, p)))
      return ::testing::AssertionFailure() << "vertex " << v << ": no link from parent " << p;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace spgraph::test
