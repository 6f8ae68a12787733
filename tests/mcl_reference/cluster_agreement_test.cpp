// Adjusted Rand index and cluster_of_each_vertex: the tools the MCL tests compare clusterings with.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "spgraph/algorithms/cluster_agreement.hpp"
#include "test_support.hpp"

namespace spgraph::algorithms {
namespace {

using Labels = std::vector<std::int64_t>;

// scikit-learn's documented examples (sklearn.metrics.adjusted_rand_score).
TEST(AdjustedRandIndex, ScikitLearnExamples) {
  EXPECT_EQ(adjusted_rand_index({0, 0, 1, 1}, {0, 0, 1, 1}), 1.0);
  EXPECT_EQ(adjusted_rand_index({0, 0, 1, 1}, {1, 1, 0, 0}), 1.0);
  // 0.5714285714285715 as scikit-learn prints it; exactly 4/7 (pairs: 1 together in both, 1
  // together only in the second, 4 apart in both).
  EXPECT_NEAR(adjusted_rand_index({0, 0, 1, 2}, {0, 0, 1, 1}), 0.5714285714285715, 1e-15);
  EXPECT_DOUBLE_EQ(adjusted_rand_index({0, 0, 1, 2}, {0, 0, 1, 1}), 4.0 / 7.0);
  EXPECT_DOUBLE_EQ(adjusted_rand_index({0, 0, 1, 1}, {0, 0, 1, 2}), 4.0 / 7.0);
  EXPECT_EQ(adjusted_rand_index({0, 0, 0, 0}, {0, 1, 2, 3}), 0.0);
  EXPECT_EQ(adjusted_rand_index({0, 0, 1, 1}, {0, 1, 0, 1}), -0.5);
}

// Computed independently with python3 (fractions, math.comb) by Hubert and Arabie's formula:
// pairs together in both 5, in the first 11, in the second 9, of 91: ARI = 356/811.
TEST(AdjustedRandIndex, HandComputedValueWithUnclusteredVertices) {
  const Labels a{0, 0, 0, 1, 1, 2, 2, 2, 2, 3, 3, -1, -1, 4};
  const Labels b{5, 5, 6, 6, 6, 7, 7, 7, 8, 8, -1, 9, 9, -1};
  EXPECT_DOUBLE_EQ(adjusted_rand_index(a, b), 356.0 / 811.0);
  EXPECT_DOUBLE_EQ(adjusted_rand_index(b, a), 356.0 / 811.0);
}

// Identical partitions give exactly 1, the degenerate ones included (where the formula is 0/0).
TEST(AdjustedRandIndex, IdenticalPartitionsGiveExactlyOne) {
  EXPECT_EQ(adjusted_rand_index({}, {}), 1.0);
  EXPECT_EQ(adjusted_rand_index({7}, {3}), 1.0);
  EXPECT_EQ(adjusted_rand_index({0, 1, 2, 3}, {3, 2, 1, 0}), 1.0);        // all singletons
  EXPECT_EQ(adjusted_rand_index({-1, -1, -1}, {0, 1, 2}), 1.0);           // -1: singletons too
  EXPECT_EQ(adjusted_rand_index({5, 5, 5, 5}, {9, 9, 9, 9}), 1.0);        // one cluster
  EXPECT_LT(adjusted_rand_index({0, 0, 0, 0}, {0, 0, 0, -1}), 1.0);     // -1 is not cluster 0
  std::mt19937_64 rng(11);
  Labels a(5000);
  for (auto& x : a) x = static_cast<std::int64_t>(rng() % 300) - 1;  // some -1
  Labels relabeled(a.size());
  for (std::size_t v = 0; v < a.size(); ++v) relabeled[v] = a[v] == -1 ? -1 : a[v] * 1000003 + 17;
  EXPECT_EQ(adjusted_rand_index(a, relabeled), 1.0);
}

// A second, separate computation: count every pair of vertices directly and apply Hubert and
// Arabie's (index - expected) / (max - expected), on random partitions with unclustered vertices.
double ari_by_pairs(const Labels& a, const Labels& b) {
  long double both = 0, in_a = 0, in_b = 0, total = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      const bool sa = a[i] != -1 && a[i] == a[j], sb = b[i] != -1 && b[i] == b[j];
      both += sa && sb;
      in_a += sa;
      in_b += sb;
      total += 1;
    }
  const long double expected = in_a * in_b / total, max = (in_a + in_b) / 2;
  return static_cast<double>((both - expected) / (max - expected));
}

TEST(AdjustedRandIndex, AgreesWithBruteForcePairCounting) {
  std::mt19937_64 rng(2024);
  for (const int k : {2, 5, 20, 150}) {
    SCOPED_TRACE(k);
    Labels a(600), b(600);
    for (std::size_t v = 0; v < a.size(); ++v) {
      a[v] = rng() % 10 == 0 ? -1 : static_cast<std::int64_t>(rng() % k);  // about 10% unclustered
      // b agrees with a on about half the vertices, so the value is well away from 0 and 1
      b[v] = rng() % 2 ? a[v] : static_cast<std::int64_t>(rng() % k);
    }
    const double expected = ari_by_pairs(a, b);
    EXPECT_GT(expected, 0.05);
    EXPECT_LT(expected, 0.95);
    EXPECT_NEAR(adjusted_rand_index(a, b), expected, 1e-12);
    EXPECT_NEAR(adjusted_rand_index(b, a), expected, 1e-12);
  }
}

TEST(AdjustedRandIndex, RefusesUnequalLengthsAndBadIds) {
  const std::string len = test::error_of([] { adjusted_rand_index({0, 1, 1}, {0, 1}); });
  EXPECT_NE(len.find("different lengths (3 and 2 vertices)"), std::string::npos) << len;
  const std::string bad = test::error_of([] { adjusted_rand_index({0, 1, 1}, {0, -2, 1}); });
  EXPECT_NE(bad.find("vertex 1 has cluster -2 in the second clustering"), std::string::npos) << bad;
}

TEST(ClusterOfEachVertex, IdsAndUnlistedVertices) {
  EXPECT_EQ(cluster_of_each_vertex({{3, 0}, {1}, {}, {5}}, 7), (Labels{0, 1, -1, 0, -1, 3, -1}));
  EXPECT_EQ(cluster_of_each_vertex({}, 2), (Labels{-1, -1}));
  EXPECT_EQ(cluster_of_each_vertex({}, 0), Labels{});
}

TEST(ClusterOfEachVertex, RefusesDuplicatesAndOutOfRange) {
  const std::string dup = test::error_of([] { cluster_of_each_vertex({{0, 2}, {1, 2}}, 3); });
  EXPECT_NE(dup.find("vertex 2 is in cluster 0 and in cluster 1"), std::string::npos) << dup;
  const std::string same = test::error_of([] { cluster_of_each_vertex({{4, 4}}, 5); });
  EXPECT_NE(same.find("vertex 4 is in cluster 0 and in cluster 0"), std::string::npos) << same;
  const std::string high = test::error_of([] { cluster_of_each_vertex({{0}, {1, 3}}, 3); });
  EXPECT_NE(high.find("vertex 3 of cluster 1 is out of range (3 vertices)"), std::string::npos) << high;
  const std::string low = test::error_of([] { cluster_of_each_vertex({{-1}}, 3); });
  EXPECT_NE(low.find("vertex -1 of cluster 0 is out of range"), std::string::npos) << low;
}

}  // namespace
}  // namespace spgraph::algorithms
