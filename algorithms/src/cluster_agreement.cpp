#include "spgraph/algorithms/cluster_agreement.hpp"

#include <cstddef>
#include <string>
#include <unordered_map>

#include "spgraph/error.hpp"

namespace spgraph::algorithms {

std::vector<std::int64_t> cluster_of_each_vertex(const std::vector<std::vector<vid_t>>& clusters, vid_t n) {
  if (n < 0) throw Error("cluster_of_each_vertex: negative vertex count " + std::to_string(n));
  std::vector<std::int64_t> cluster(static_cast<std::size_t>(n), -1);
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    for (const vid_t v : clusters[c]) {
      if (v < 0 || v >= n)
        throw Error("cluster_of_each_vertex: vertex " + std::to_string(v) + " of cluster " + std::to_string(c) +
                    " is out of range (" + std::to_string(n) + " vertices)");
      auto& slot = cluster[static_cast<std::size_t>(v)];
      if (slot != -1)
        throw Error("cluster_of_each_vertex: vertex " + std::to_string(v) + " is in cluster " + std::to_string(slot) +
                    " and in cluster " + std::to_string(c));
      slot = static_cast<std::int64_t>(c);
    }
  }
  return cluster;
}

namespace {

// Each vertex's cluster renumbered 0..k-1 in order of first appearance, a vertex with -1 in
// a cluster of its own; refuses other negative ids. Returns k.
std::size_t dense_clusters(const std::vector<std::int64_t>& ids, const char* which, std::vector<std::size_t>& dense) {
  std::unordered_map<std::int64_t, std::size_t> index;
  index.reserve(ids.size());
  dense.resize(ids.size());
  std::size_t k = 0;
  for (std::size_t v = 0; v < ids.size(); ++v) {
    const std::int64_t id = ids[v];
    if (id == -1) {
      dense[v] = k++;
    } else if (id < 0) {
      throw Error(std::string("adjusted_rand_index: vertex ") + std::to_string(v) + " has cluster " +
                  std::to_string(id) + " in the " + which + " clustering (a cluster id is >= 0, or -1 for none)");
    } else {
      const auto [it, inserted] = index.try_emplace(id, k);
      if (inserted) ++k;
      dense[v] = it->second;
    }
  }
  return k;
}

std::uint64_t pairs(std::uint64_t m) { return m < 2 ? 0 : (m % 2 == 0 ? (m / 2) * (m - 1) : m * ((m - 1) / 2)); }

}  // namespace

double adjusted_rand_index(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  if (a.size() != b.size())
    throw Error("adjusted_rand_index: the clusterings have different lengths (" + std::to_string(a.size()) + " and " +
                std::to_string(b.size()) + " vertices)");
  const std::size_t n = a.size();
  if (n > (std::size_t{1} << 32))  // the pair key below and the pair counts need n below 2^32
    throw Error("adjusted_rand_index: " + std::to_string(n) + " vertices is more than 2^32");
  std::vector<std::size_t> da, db;
  const std::size_t ka = dense_clusters(a, "first", da);
  const std::size_t kb = dense_clusters(b, "second", db);

  // Contingency table n_ij (only its nonzero cells) and its margins.
  std::vector<std::uint64_t> size_a(ka, 0), size_b(kb, 0);
  std::unordered_map<std::uint64_t, std::uint64_t> cell;
  cell.reserve(n);
  for (std::size_t v = 0; v < n; ++v) {
    ++size_a[da[v]];
    ++size_b[db[v]];
    ++cell[static_cast<std::uint64_t>(da[v]) * kb + db[v]];
  }

  // Pairs of vertices (exact: each count is at most n(n-1)/2 < 2^63): together in both
  // clusterings, together only in a, only in b, in neither.
  std::uint64_t both = 0, in_a = 0, in_b = 0;
  for (const auto& [key, count] : cell) both += pairs(count);
  for (const std::uint64_t s : size_a) in_a += pairs(s);
  for (const std::uint64_t s : size_b) in_b += pairs(s);
  const std::uint64_t only_a = in_a - both, only_b = in_b - both;
  const std::uint64_t neither = pairs(n) - in_a - in_b + both;

  // Identical partitions (which includes n < 2, both all singletons and both one cluster,
  // where the formula below is 0/0) agree perfectly.
  if (only_a == 0 && only_b == 0) return 1.0;

  // Hubert and Arabie's (index - expected) / (max - expected), multiplied out over the pair
  // counts (as scikit-learn computes it); the denominator is positive here.
  using ld = long double;
  const ld numerator = 2 * (ld(both) * ld(neither) - ld(only_a) * ld(only_b));
  const ld denominator = ld(both + only_a) * ld(only_a + neither) + ld(both + only_b) * ld(only_b + neither);
  return static_cast<double>(numerator / denominator);
}

}  // namespace spgraph::algorithms
