#pragma once
// Comparing clusterings: MCL's against the mcl program's in the tests and the benchmark.
#include <cstdint>
#include <vector>

#include "spgraph/types.hpp"

namespace spgraph::algorithms {

// The cluster of each vertex (its index in `clusters`), for n vertices; -1 where a vertex is
// in none. Throws Error for a vertex in two clusters or out of range.
std::vector<std::int64_t> cluster_of_each_vertex(const std::vector<std::vector<vid_t>>& clusters, vid_t n);

// Adjusted Rand index (Hubert and Arabie) of two partitions given as a cluster per vertex
// (equal lengths): 1 for identical partitions, about 0 for independent ones. Vertices with
// cluster -1 count as singletons.
double adjusted_rand_index(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b);

}  // namespace spgraph::algorithms
