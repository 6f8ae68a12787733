// dist::Backend's bit-parallel BFS (dist/word_bfs.hpp), which msbfs takes on the distributed
// backend, against the one-process search of the rank's local backend, on every grid shape of the
// job's ranks: levels and summaries exact, parents valid; random and real graphs, uneven blocks,
// ranks without rows (P > n), batches of 1, 7, 64 and 64 + 6 sources with repeats, both
// directions, no sink, two threads a rank; a pull taken where the frontier grows and none on a
// path; bad input refused.
#include <gtest/gtest.h>
#include <omp.h>

#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "msbfs_answers.hpp"
#include "rank_backends.hpp"
#include "spgraph/algorithms/msbfs.hpp"

namespace spgraph::dist::test {
namespace {

using algorithms::BfsDirection;
using spgraph::test::msbfs_answers;
using spgraph::test::MsbfsAnswers;
using spgraph::test::parents_valid;

template <class B>
class DistWordBfs : public DistAlgorithms<B> {};
TYPED_TEST_SUITE(DistWordBfs, RankBackends, RankKind);

// count sources spread over the graph, the first ones repeated at the end when count > 3.
std::vector<vid_t> spread_sources(vid_t n, int count) {
  std::vector<vid_t> s;
  for (int i = 0; s.size() < std::size_t(count); ++i) {
    if (count > 3 && s.size() + 2 >= std::size_t(count)) s.push_back(s[s.size() + 2 - std::size_t(count)]);
    else s.push_back(vid_t((std::int64_t(i) * 7919 + 3) % n));
  }
  return s;
}

// 0 -> 1 -> ... -> n-1.
Csr<double> path(vid_t n) {
  Csr<double> h;
  h.nrows = h.ncols = n;
  h.rowptr.assign(std::size_t(n) + 1, 0);
  for (vid_t i = 0; i + 1 < n; ++i) h.col.push_back(i + 1);
  for (vid_t i = 0; i < n; ++i) h.rowptr[std::size_t(i) + 1] = eid_t(h.col.size());
  h.val.assign(h.col.size(), 1.0);
  return h;
}

void expect_same(const Csr<double>& host, const std::vector<vid_t>& sources, const algorithms::MsbfsOptions& options,
                 const MsbfsAnswers& got, const MsbfsAnswers& want) {
  EXPECT_EQ(got.summary.reached, want.summary.reached);
  EXPECT_EQ(got.summary.depth, want.summary.depth);
  EXPECT_EQ(got.summary.edges_traversed, want.summary.edges_traversed);
  EXPECT_EQ(got.level, want.level);
  if (!options.parents) return;
  for (std::size_t s = 0; s < sources.size(); ++s)
    EXPECT_TRUE(parents_valid(host, sources[s], got.level[s], got.parent[s], options.direction)) << "source " << s;
}

TYPED_TEST(DistWordBfs, LevelsSummaryAndParentsMatchOneProcess) {
  using One = typename TestFixture::One;
  std::vector<std::pair<std::string, Csr<double>>> graphs;
  for (const char* g : {"small/karate.mtx", "small/west0067.mtx", "small/ldbc-directed-example.mtx", "small/jagmesh7.mtx",
                        "small/netscience.mtx", "small/bcsstk13.mtx"})
    graphs.emplace_back(g, load(g));
  graphs.emplace_back("random directed 300", random_directed(300, 9));
  graphs.emplace_back("random directed 37", random_directed(37, 4));  // blocks of 10 and 9 rows at P = 4
  graphs.emplace_back("random directed 3", random_directed(3, 2));    // P > n: ranks without rows
  struct Case {
    int sources;
    int batch;
    BfsDirection direction;
  };
  const Case cases[] = {{1, 64, BfsDirection::Out}, {7, 64, BfsDirection::Out}, {7, 3, BfsDirection::In},
                        {64, 64, BfsDirection::Out}, {70, 64, BfsDirection::In}};
  for (const auto& [name, host] : graphs) {
    Graph<One> one(host);
    for (const Case& c : cases) {
      const std::vector<vid_t> sources = spread_sources(host.nrows, c.sources);
      const algorithms::MsbfsOptions options{.parents = true, .direction = c.direction, .batch = c.batch};
      const MsbfsAnswers want = msbfs_answers(one, sources, options);
      for_each_grid([&](const ProcessGrid&) {
        SCOPED_TRACE(name + ", " + std::to_string(c.sources) + " sources in batches of " + std::to_string(c.batch) +
                     (c.direction == BfsDirection::In ? ", in-links" : ""));
        Graph<TypeParam> many(host);
        expect_same(host, sources, options, msbfs_answers(many, sources, options), want);
        // Without a sink: the summary alone, and no parents asked for.
        const algorithms::MsbfsSummary summary = algorithms::msbfs(many, sources, {}, options);
        EXPECT_EQ(summary.reached, want.summary.reached);
        EXPECT_EQ(summary.edges_traversed, want.summary.edges_traversed);
      });
    }
  }
}

// WordBfs itself: karate from vertex 0 (16 of 34 vertices at level 1) pulls at its second level;
// a path, whose frontier is one vertex, pushes at every level. Levels and counts as one process.
TYPED_TEST(DistWordBfs, PullsOnlyWhereTheFrontierIsLarge) {
  using One = typename TestFixture::One;
  using WordBfs = typename TypeParam::WordBfs;
  const std::pair<Csr<double>, bool> graphs[] = {{load("small/karate.mtx"), true}, {path(100), false}};
  for (const auto& [host, pulls] : graphs) {
    Graph<One> one(host);
    const std::vector<vid_t> sources = {0, 0, vid_t(host.nrows - 1)};
    const MsbfsAnswers want = msbfs_answers(one, sources, {.parents = true});
    for_each_grid([&](const ProcessGrid&) {
      SCOPED_TRACE(pulls ? "karate" : "path");
      Graph<TypeParam> many(host);
      typename TypeParam::template Vector<std::int32_t> levels;
      typename TypeParam::template Vector<vid_t> parents;
      const typename WordBfs::Result r =
          WordBfs::run(many.template pattern<std::int32_t>(), many.template in_links<std::int32_t>(), sources, &levels, &parents);
      EXPECT_EQ(r.reached, want.summary.reached);
      EXPECT_EQ(r.depth, want.summary.depth);
      EXPECT_EQ(r.edges_traversed, want.summary.edges_traversed);
      EXPECT_GT(r.push_levels, 0);
      if (pulls) EXPECT_GT(r.pull_levels, 0);
      else EXPECT_EQ(r.pull_levels, 0);
      const std::vector<std::int32_t> level = TypeParam::to_host(levels);
      const std::vector<vid_t> parent = TypeParam::to_host(parents);
      const std::size_t n = std::size_t(host.nrows);
      ASSERT_EQ(level.size(), sources.size() * n);
      ASSERT_EQ(parent.size(), sources.size() * n);
      for (std::size_t s = 0; s < sources.size(); ++s) {
        const std::vector<std::int32_t> mine(level.begin() + std::ptrdiff_t(s * n), level.begin() + std::ptrdiff_t((s + 1) * n));
        const std::vector<vid_t> up(parent.begin() + std::ptrdiff_t(s * n), parent.begin() + std::ptrdiff_t((s + 1) * n));
        EXPECT_EQ(mine, want.level[s]) << "source " << s;
        EXPECT_TRUE(parents_valid(host, sources[s], mine, up, BfsDirection::Out)) << "source " << s;
      }
    });
  }
}

// The expansion on two threads a rank (ctest runs one): pushes OR-ing into shared words, each
// thread's parent candidates merged; the same levels, parents still valid.
TYPED_TEST(DistWordBfs, TwoThreadsARankAgree) {
  using One = typename TestFixture::One;
  const Csr<double> host = load("small/netscience.mtx");
  const std::vector<vid_t> sources = spread_sources(host.nrows, 64);
  const algorithms::MsbfsOptions options{.parents = true};
  Graph<One> one(host);
  const MsbfsAnswers want = msbfs_answers(one, sources, options);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(2);
  for_each_grid([&](const ProcessGrid&) {
    Graph<TypeParam> many(host);
    expect_same(host, sources, options, msbfs_answers(many, sources, options), want);
  });
  omp_set_num_threads(threads);
}

// Every rank refuses the same bad input before any collective, with the reason.
TYPED_TEST(DistWordBfs, RefusesBadSources) {
  using WordBfs = typename TypeParam::WordBfs;
  const Csr<double> host = load("small/karate.mtx");
  for_each_grid([&](const ProcessGrid&) {
    Graph<TypeParam> many(host);
    const auto& out = many.template pattern<std::int32_t>();
    const auto& in = many.template in_links<std::int32_t>();
    std::vector<vid_t> too_many(65);
    std::iota(too_many.begin(), too_many.end(), 0);
    for (vid_t& s : too_many) s %= host.nrows;
    const std::string many_sources = spgraph::test::error_of([&] { WordBfs::run(out, in, too_many, nullptr); });
    EXPECT_NE(many_sources.find("65 sources; one word holds 1 to 64"), std::string::npos) << many_sources;
    const std::string outside = spgraph::test::error_of([&] { WordBfs::run(out, in, {3, 34}, nullptr); });
    EXPECT_NE(outside.find("source 34 is not a vertex (0..33)"), std::string::npos) << outside;
    EXPECT_THROW(WordBfs::run(out, in, {}, nullptr), Error);
  });
}

}  // namespace
}  // namespace spgraph::dist::test
