// gpu::WordExpansion, dist::WordBfs's local step on GPU ranks, against the host's
// (host/word_expansion.hpp) on random blocks: square and rectangular, with empty rows and columns,
// a dense row, no rows, no links; frontiers from none to every vertex and every bit, seen words
// that cover some of them, some sources no longer active. next is the host's word for word; the
// parent candidates are one per (v, source) that next gained, each a real link u -> v whose
// frontier word has the bit (in a pull the host's own first u), through lists that must grow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "host/word_expansion.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/gpu/word_expansion.hpp"
#include "test_support.hpp"

namespace spgraph::test {
namespace {

using Word = std::uint64_t;

// rows x cols with about `per_row` links a row, row 0 linking to every column when `dense_row`,
// every third row empty.
Csr<std::int32_t> random_block(vid_t rows, vid_t cols, int per_row, bool dense_row, unsigned seed) {
  std::mt19937_64 rng(seed);
  Coo<std::int32_t> coo;
  coo.nrows = rows;
  coo.ncols = cols;
  for (vid_t r = 0; r < rows && cols > 0; ++r) {
    if (r % 3 == 2) continue;
    const int k = (dense_row && r == 0) ? cols : int(rng() % std::uint64_t(2 * per_row + 1));
    for (int e = 0; e < k; ++e) {
      coo.row.push_back(r);
      coo.col.push_back((dense_row && r == 0) ? vid_t(e) : vid_t(rng() % std::uint64_t(cols)));
      coo.val.push_back(1);
    }
  }
  return coo_to_csr(std::move(coo), Duplicates::First);
}

// Words with each bit of `mask` set with probability `density`.
std::vector<Word> random_words(std::size_t n, double density, Word mask, std::mt19937_64& rng) {
  std::bernoulli_distribution bit(density);
  std::vector<Word> w(n, 0);
  for (Word& x : w)
    for (int b = 0; b < 64; ++b)
      if (((mask >> b) & 1) && bit(rng)) x |= Word(1) << b;
  return w;
}

using Candidates = std::vector<std::tuple<vid_t, std::int32_t, vid_t>>;  // (v, bit, u), sorted
Candidates sorted(const std::vector<WordParentCandidate>& c) {
  Candidates out;
  for (const WordParentCandidate& x : c) out.emplace_back(x.v, x.bit, x.u);
  std::sort(out.begin(), out.end());
  return out;
}

// Every candidate is a link u -> v of `links` (rows on the frontier side when `push`, else on
// the reached side) whose frontier word has the bit, and the candidates are exactly the bits
// next gained, one each.
void expect_candidates(const Csr<std::int32_t>& links, bool push, const std::vector<Word>& frontier,
                       const std::vector<Word>& next, const Candidates& got) {
  std::vector<Word> covered(next.size(), 0);
  for (const auto& [v, bit, u] : got) {
    ASSERT_GE(bit, 0);
    ASSERT_LT(bit, 64);
    ASSERT_TRUE(v >= 0 && std::size_t(v) < next.size() && u >= 0 && std::size_t(u) < frontier.size())
        << "candidate (" << v << ", " << u << ")";
    const vid_t row = push ? u : v, col = push ? v : u;
    const auto first = links.col.begin() + links.rowptr[std::size_t(row)];
    const auto last = links.col.begin() + links.rowptr[std::size_t(row) + 1];
    EXPECT_NE(std::find(first, last, col), last) << "no link " << u << " -> " << v;
    EXPECT_TRUE((frontier[std::size_t(u)] >> bit) & 1) << "u " << u << " lacks bit " << bit;
    EXPECT_FALSE((covered[std::size_t(v)] >> bit) & 1) << "two candidates for (" << v << ", " << bit << ")";
    covered[std::size_t(v)] |= Word(1) << bit;
  }
  EXPECT_EQ(covered, next);
}

struct Case {
  vid_t rows, cols;
  int per_row;
  bool dense_row;
};

class WordExpansionGpu : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override { SPGRAPH_REQUIRE_GPU(); }
};

TEST_P(WordExpansionGpu, PushAndPullAreTheHostsLevel) {
  const Case c = GetParam();
  const Csr<std::int32_t> out = random_block(c.rows, c.cols, c.per_row, c.dense_row, 7u + unsigned(c.rows));
  // in_links' block on the same rows and columns (in a distributed graph it holds other links
  // than out_links' block; here another random one).
  const Csr<std::int32_t> in = random_block(c.rows, c.cols, c.per_row, c.dense_row, 11u + unsigned(c.cols));
  const auto d_out = gpu::Matrix<std::int32_t>::from_host(out), d_in = gpu::Matrix<std::int32_t>::from_host(in);
  gpu::WordExpansion e(d_out, d_in);  // one for every level, as a search keeps it
  std::mt19937_64 rng(1234 + c.rows);
  for (const double density : {0.0, 0.02, 0.3, 1.0})
    for (const Word active : {~Word(0), Word(0x00ff00ff00ff00ffULL), Word(1)}) {
      SCOPED_TRACE("density " + std::to_string(density) + ", active " + std::to_string(active));
      // push: the frontier on the rows, seen and next on the columns
      {
        const std::vector<Word> frontier = random_words(std::size_t(c.rows), density, active, rng);
        const std::vector<Word> seen = random_words(std::size_t(c.cols), 0.4, ~Word(0), rng);
        std::vector<Word> want(std::size_t(c.cols), 0), got(std::size_t(c.cols), 1), got_plain(std::size_t(c.cols), 1);
        std::vector<WordParentCandidate> want_parents, got_parents{{0, 0, 0}};
        host::push_words(out, frontier, seen, want, &want_parents);
        e.push(frontier, seen, got, &got_parents);
        e.push(frontier, seen, got_plain, nullptr);
        EXPECT_EQ(got, want);
        EXPECT_EQ(got_plain, want);
        got_parents.erase(got_parents.begin());  // the list is appended to
        expect_candidates(out, true, frontier, got, sorted(got_parents));
        EXPECT_EQ(got_parents.size(), want_parents.size());
      }
      // pull: the frontier on the columns, seen and next on the rows
      {
        const std::vector<Word> frontier = random_words(std::size_t(c.cols), density, active, rng);
        const std::vector<Word> seen = random_words(std::size_t(c.rows), 0.4, ~Word(0), rng);
        std::vector<Word> want(std::size_t(c.rows), 0), got(std::size_t(c.rows), 1);
        std::vector<WordParentCandidate> want_parents, got_parents;
        host::pull_words(in, frontier, seen, active, want, &want_parents);
        e.pull(frontier, seen, active, got, &got_parents);
        EXPECT_EQ(got, want);
        EXPECT_EQ(sorted(got_parents), sorted(want_parents));  // the first u of v's row, as on the host
        expect_candidates(in, false, frontier, got, sorted(got_parents));
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Blocks, WordExpansionGpu,
                         ::testing::Values(Case{200, 200, 4, false}, Case{300, 70, 6, true}, Case{50, 900, 30, true},
                                           Case{0, 40, 3, false}, Case{40, 0, 3, false}, Case{5000, 3000, 12, true}));

TEST(WordExpansionGpuChecks, RefusesWordsOfTheWrongLengthAndBlocksOfDifferentShapes) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = gpu::Matrix<std::int32_t>::from_host(random_block(10, 20, 3, false, 1));
  const auto b = gpu::Matrix<std::int32_t>::from_host(random_block(20, 10, 3, false, 2));
  EXPECT_THROW(gpu::WordExpansion(a, b), Error);
  gpu::WordExpansion e(a, a);
  std::vector<Word> rows(10), cols(20);
  EXPECT_THROW(e.push(cols, cols, cols, nullptr), Error);  // the frontier has a word a row
  EXPECT_THROW(e.pull(rows, rows, ~Word(0), rows, nullptr), Error);  // and here a word a column
  EXPECT_NO_THROW(e.push(rows, cols, cols, nullptr));
  EXPECT_NO_THROW(e.pull(cols, rows, ~Word(0), rows, nullptr));
}

}  // namespace
}  // namespace spgraph::test
