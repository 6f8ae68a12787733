// graphblas::mxm_prune_rows (MCL's expansion, each row pruned by mcl's rules as it is produced)
// against what the previous implementation gave, restated here as plainly as possible: the
// whole product from GraphBLAS's own mxm, then each row summarised in column order and, where
// the rule needs an order, its values sorted whole in descending order. Results, peaks and
// squares must be equal bit for bit: the same double (or float) sums in the same order, the
// same ties, the same diagonal rule. The values are arbitrary doubles (not exact sums), so a
// term added in another order shows; crafted rows with ties hit every case of the rule, and the
// test checks that they do.
#include <omp.h>

#include <algorithm>
#include <limits>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "host/prune_rule.hpp"
#include "small_matrices.hpp"
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::test {
namespace {

using ::spgraph::detail::PruneCase;

template <class V>
struct Pruned {
  Csr<V> c;
  std::vector<V> peak, squares;
  std::vector<PruneCase> how;  // the reference's case of each row
};

// The rule on a whole product, row by row, as the previous implementation applied it.
template <class V>
Pruned<V> reference_prune(const Csr<V>& m, const PruneSpec& s) {
  Pruned<V> out;
  out.c.nrows = m.nrows;
  out.c.ncols = m.ncols;
  for (vid_t i = 0; i < m.nrows; ++i) {
    const eid_t b = m.rowptr[i], e = m.rowptr[i + 1], n = e - b;
    double peak = -std::numeric_limits<double>::infinity(), squares = 0, kept_mass = 0;
    eid_t kept = 0;
    for (eid_t p = b; p < e; ++p) {  // column order
      const double x = m.val[p];
      peak = std::max(peak, x);
      squares += x * x;
      if (x >= s.threshold) ++kept, kept_mass += x;
    }
    std::vector<V> sorted(m.val.begin() + b, m.val.begin() + e);
    std::sort(sorted.begin(), sorted.end(), std::greater<V>());
    const PruneCase how = ::spgraph::detail::prune_case(n, kept, kept_mass, s);
    double bar = s.threshold;
    if (how == PruneCase::RecoverAll) bar = sorted[s.recover - 1];
    if (how == PruneCase::Select) {
      const double sbar = sorted[s.select - 1];
      eid_t selected = 0;
      double mass = 0;  // largest first
      for (; selected < n && double(sorted[selected]) >= sbar; ++selected) mass += sorted[selected];
      const double recover_bar = s.recover > 0 && kept > s.recover ? double(sorted[s.recover - 1]) : 0.0;
      bar = ::spgraph::detail::select_bar(sbar, selected, mass, kept, recover_bar, s);
    }
    for (eid_t p = b; p < e; ++p) {
      const bool keep = how == PruneCase::Loop ? m.col[p] == i : how == PruneCase::KeepAll || double(m.val[p]) >= bar;
      if (!keep) continue;
      out.c.col.push_back(m.col[p]);
      out.c.val.push_back(how == PruneCase::Loop ? V(1) : m.val[p]);
    }
    out.c.rowptr.push_back(eid_t(out.c.col.size()));
    out.peak.push_back(n > 0 ? V(peak) : V(0));
    out.squares.push_back(V(squares));
    out.how.push_back(how);
  }
  return out;
}

template <class V>
Pruned<V> reference(const gb::Matrix<V>& a, const gb::Matrix<V>& b, const PruneSpec& s) {
  gb::Matrix<V> product;
  gb::mxm(product, nullptr, a, b, PlusTimes{});
  return reference_prune(gb::to_host(product), s);
}

template <class V>
Pruned<V> ours(const gb::Matrix<V>& a, const gb::Matrix<V>& b, const PruneSpec& s) {
  gb::Matrix<V> c;
  gb::Vector<V> peak, squares;
  gb::mxm_prune_rows(c, peak, squares, a, b, PlusTimes{}, s);
  return {gb::to_host(c), gb::to_host(peak), gb::to_host(squares), {}};
}

template <class V>
void expect_same(const Pruned<V>& got, const Pruned<V>& want, const std::string& what) {
  EXPECT_EQ(got.c.nrows, want.c.nrows) << what;
  EXPECT_EQ(got.c.ncols, want.c.ncols) << what;
  EXPECT_EQ(got.c.rowptr, want.c.rowptr) << what;
  EXPECT_EQ(got.c.col, want.c.col) << what;
  EXPECT_EQ(got.c.val, want.c.val) << what;  // exactly
  EXPECT_EQ(got.peak, want.peak) << what;
  EXPECT_EQ(got.squares, want.squares) << what;
}

std::set<PruneCase> cases_of(const std::vector<PruneCase>& how) { return {how.begin(), how.end()}; }

// Rows scaled to sum 1, as an MCL iterate's are.
template <class V>
void stochastic(Csr<V>& m) {
  for (vid_t i = 0; i < m.nrows; ++i) {
    double sum = 0;
    for (eid_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p) sum += m.val[p];
    for (eid_t p = m.rowptr[i]; p < m.rowptr[i + 1]; ++p) m.val[p] = V(m.val[p] / sum);
  }
}

// n x n with a loop in every row and `per_row` more entries of random weight (a few rows much
// longer), rows made stochastic: its square has rows of hundreds of entries.
template <class V>
Csr<V> random_iterate(vid_t n, int per_row, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<vid_t> column(0, n - 1);
  std::uniform_real_distribution<double> weight(0.05, 1.0);
  std::vector<Entry<V>> es;
  for (vid_t i = 0; i < n; ++i) {
    std::map<vid_t, V> row{{i, V(weight(rng))}};
    const int len = i % 17 == 0 ? 8 * per_row : per_row;
    while (int(row.size()) < len + 1) row.emplace(column(rng), V(weight(rng)));
    for (const auto& [j, v] : row) es.push_back({i, j, v});
  }
  Csr<V> m = csr<V>(n, n, std::move(es));
  stochastic(m);
  return m;
}

template <class V>
class GraphblasPruneRows : public ::testing::Test {};
using Values = ::testing::Types<double, float>;
TYPED_TEST_SUITE(GraphblasPruneRows, Values);

// A B where B is the identity is A itself: each crafted row below is a row of the product.
// threshold 0.01, select 4, recover 6, recover_mass 0.9 (values in 1/64, so that ties are exact):
//   0  4/64 x 16 (all tied): Select, all 16 at the bar, mass 1                    -> all 16
//   1  3/64 x 5, 1/64 x 10, 0.5/64 x 4: Select; the 4 largest are the five tied 3/64, of mass
//      15/64 < 0.9, and kept 15 > recover: the bar is the 6th largest, 1/64       -> 15
//   2  8/64 x 5, 2/64, 0.25/64 x 3: Select (kept 6 = recover); the five tied 8/64 are short of
//      recover and of the mass, kept is not above recover: the bar is the threshold -> 6
//   3  0.5/64 x 9 (below the threshold), 1/64: RecoverAll, the 6th largest 0.5/64 is tied
//      with the other 0.5/64                                                       -> all 10
//   4  0.25/64 x 3: KeepAll (3 <= recover, mass < 0.9)                            -> all 3
//   5  40/64, 24/64, 0.1/64: Threshold (kept 2 of mass 1)                          -> 2
//   6  14/64 x 5, 1/64 x 10: Select; the ties at the bar make the mass, 70/64 >= 0.9 (the
//      first 4 alone, 56/64, would ask for recovery down to 1/64)                  -> the five 14/64
TYPED_TEST(GraphblasPruneRows, EveryCaseWithTies) {
  using V = TypeParam;
  const vid_t n = 40;
  std::vector<Entry<V>> es;
  auto put = [&](vid_t row, vid_t from, int count, double sixty_fourths) {
    for (int k = 0; k < count; ++k) es.push_back({row, vid_t(from + k), V(sixty_fourths / 64)});
  };
  put(0, 0, 16, 4);
  put(1, 0, 5, 3), put(1, 6, 10, 1), put(1, 16, 4, 0.5);
  put(2, 10, 5, 8), put(2, 15, 1, 2), put(2, 20, 3, 0.25);
  put(3, 2, 9, 0.5), put(3, 30, 1, 1);
  put(4, 1, 3, 0.25);
  put(5, 3, 1, 40), put(5, 9, 1, 24), put(5, 33, 1, 0.1);
  put(6, 20, 5, 14), put(6, 0, 10, 1);
  const auto a = matrix<V>(n, n, es);
  std::vector<Entry<V>> ones;
  for (vid_t i = 0; i < n; ++i) ones.push_back({i, i, V(1)});
  const auto id = matrix<V>(n, n, ones);
  const PruneSpec spec{0.01, 4, 6, 0.9};
  const auto want = reference(a, id, spec);
  expect_same(ours(a, id, spec), want, "crafted rows");
  EXPECT_EQ(std::vector<PruneCase>(want.how.begin(), want.how.begin() + 7),
            (std::vector<PruneCase>{PruneCase::Select, PruneCase::Select, PruneCase::Select, PruneCase::RecoverAll,
                                    PruneCase::KeepAll, PruneCase::Threshold, PruneCase::Select}));
  const std::vector<eid_t> kept{16, 15, 6, 10, 3, 2, 5};
  for (vid_t i = 0; i < 7; ++i) EXPECT_EQ(want.c.row_length(i), kept[std::size_t(i)]) << "row " << i;
  // The same through a pattern (iso) identity, as the distributed backend prunes its rows.
  Csr<V> pattern = gb::to_host(id);
  pattern.val.clear();
  expect_same(ours(a, gb::from_host(pattern), spec), want, "crafted rows, pattern identity");
}

// Without recovery, a row with nothing at or above the threshold keeps its diagonal entry, set
// to 1 (mcl's emergency loop), or nothing where the product has none there.
TYPED_TEST(GraphblasPruneRows, DiagonalRuleWithoutRecovery) {
  using V = TypeParam;
  // Row 0: the diagonal among small entries; row 1: small entries, none on the diagonal;
  // row 2: one entry above the threshold; row 3: empty.
  const auto a = matrix<V>(4, 4, {{0, 0, V(0.001)}, {0, 1, V(0.002)}, {0, 3, V(0.003)}, {1, 0, V(0.004)},
                                  {1, 2, V(0.005)}, {2, 1, V(0.5)}, {2, 2, V(0.004)}});
  const auto id = matrix<V>(4, 4, {{0, 0, 1}, {1, 1, 1}, {2, 2, 1}, {3, 3, 1}});
  const PruneSpec spec{0.01, 2, 0, 0.9};
  const auto want = reference(a, id, spec);
  EXPECT_EQ(want.how, (std::vector<PruneCase>{PruneCase::Loop, PruneCase::Loop, PruneCase::Threshold, PruneCase::Loop}));
  EXPECT_EQ(want.c.rowptr, (std::vector<eid_t>{0, 1, 1, 2, 2}));
  EXPECT_EQ(want.c.val[0], V(1));
  expect_same(ours(a, id, spec), want, "diagonal rule");
}

// Products of MCL-like iterates (long rows: up to ~800 entries from ~800-term sums of arbitrary
// doubles, ties among the terms' sums rare) under mcl's default scheme and tighter ones, with
// and without recovery; the same whatever the number of threads.
TYPED_TEST(GraphblasPruneRows, LongRowsAsThePreviousImplementation) {
  using V = TypeParam;
  const Csr<V> h = random_iterate<V>(900, 24, 7);
  const auto t = gb::from_host(h);
  const std::vector<PruneSpec> specs{{0.99999 / 10000, 1100, 1400, 0.9},
                                     {0.99999 / 10000, 50, 70, 0.9},
                                     {0.99999 / 10000, 300, 100, 0.9},
                                     {0.002, 40, 0, 0.9},
                                     {0.01, 0, 30, 0.95},
                                     {0.01, 0, 1000, 0.95},
                                     {0.05, 0, 0, 0}};
  const int threads = omp_get_max_threads();
  for (const PruneSpec& s : specs) {
    const auto want = reference(t, t, s);
    const std::string what = "threshold " + std::to_string(s.threshold) + " select " + std::to_string(s.select) +
                             " recover " + std::to_string(s.recover);
    for (int th : {1, 3}) {
      omp_set_num_threads(th);
      expect_same(ours(t, t, s), want, what + ", " + std::to_string(th) + " threads");
    }
    omp_set_num_threads(threads);
  }
  // Every case of the rule occurs in these products.
  std::set<PruneCase> seen;
  for (const PruneSpec& s : specs)
    for (PruneCase c : cases_of(reference(t, t, s).how)) seen.insert(c);
  EXPECT_EQ(seen.size(), 5u);
}

// Values that are floats exactly, as an MCL iterate's are (each is rounded to float): B's values
// are then read beside its columns, which must come back unchanged.
TYPED_TEST(GraphblasPruneRows, FloatValuesAsAnMclIterate) {
  using V = TypeParam;
  Csr<V> h = random_iterate<V>(700, 30, 5);
  for (V& v : h.val) v = V(float(v));
  const auto t = gb::from_host(h);
  for (const PruneSpec& s : {PruneSpec{0.99999 / 10000, 1100, 1400, 0.9}, PruneSpec{0.99999 / 10000, 40, 60, 0.9}}) {
    const auto want = reference(t, t, s);
    expect_same(ours(t, t, s), want, "select " + std::to_string(s.select));
    const auto a = gb::from_host(random_iterate<V>(700, 5, 6));  // A != B: only B's are packed
    expect_same(ours(a, t, s), reference(a, t, s), "A B, select " + std::to_string(s.select));
  }
  const Csr<V> after = gb::to_host(t);
  EXPECT_EQ(after.col, h.col);
  EXPECT_EQ(after.val, h.val);
}

// Negative values and -0.0 (the product is defined for any values; mcl's have none): an entry
// whose terms sum to -0.0, or to 0 by cancellation, is still an entry of the row.
TYPED_TEST(GraphblasPruneRows, SignedValuesAndNegativeZeros) {
  using V = TypeParam;
  Csr<V> h = random_iterate<V>(500, 30, 9);
  for (std::size_t q = 0; q < h.val.size(); ++q) {
    if (q % 7 == 3) h.val[q] = -h.val[q];
    if (q % 29 == 5) h.val[q] = V(-0.0);
    if (q % 31 == 7) h.val[q] = V(0);
  }
  const auto t = gb::from_host(h);
  for (const PruneSpec& s : {PruneSpec{0.99999 / 10000, 1100, 1400, 0.9}, PruneSpec{0.001, 40, 60, 0.9},
                             PruneSpec{0.5, 0, 0, 0}}) {
    const auto want = reference(t, t, s);
    expect_same(ours(t, t, s), want, "signed, select " + std::to_string(s.select));
  }
  // A row of -0.0 terms only: (0, 1) = -0.0 * 1 + 1 * -0.0.
  const auto a = matrix<V>(2, 2, {{0, 0, V(-0.0)}, {0, 1, V(1)}});
  const auto b = matrix<V>(2, 2, {{0, 1, V(1)}, {1, 1, V(-0.0)}});
  const auto got = ours(a, b, PruneSpec{0, 0, 2, 0.9});
  expect_same(got, reference(a, b, PruneSpec{0, 0, 2, 0.9}), "-0.0 sums");
  ASSERT_EQ(got.c.col, (std::vector<vid_t>{1}));
  EXPECT_TRUE(std::signbit(got.c.val[0]));
  // A row of negative values only: its peak is the largest of them (the GPU's rule), not 0.
  const auto negative = matrix<V>(2, 2, {{0, 0, V(-3)}, {0, 1, V(-1)}});
  const auto identity = matrix<V>(2, 2, {{0, 0, V(1)}, {1, 1, V(1)}});
  const auto below = ours(negative, identity, PruneSpec{0, 0, 2, 0.9});
  expect_same(below, reference(negative, identity, PruneSpec{0, 0, 2, 0.9}), "negative row");
  EXPECT_EQ(below.peak, (std::vector<V>{V(-1), V(0)}));
}

// The first two expansions of MCL on a real weighted graph (hep-th, 8361 vertices), pruned with
// a small select and recover so that most rows are ordered: A != B in the second (T1 T0).
TYPED_TEST(GraphblasPruneRows, RealGraphIterates) {
  using V = TypeParam;
  const Csr<double> g = io::load_graph(dataset("small/hep-th.mtx")).matrix;
  std::vector<Entry<V>> es;
  for (vid_t i = 0; i < g.nrows; ++i) {
    es.push_back({i, i, V(1)});
    for (eid_t p = g.rowptr[i]; p < g.rowptr[i + 1]; ++p)
      if (g.col[p] != i) es.push_back({i, g.col[p], V(g.is_pattern() ? 1.0 : g.val[p])});
  }
  Csr<V> h = csr<V>(g.nrows, g.ncols, std::move(es));
  stochastic(h);
  const auto t0 = gb::from_host(h);
  const PruneSpec spec{0.99999 / 10000, 30, 40, 0.9};
  const auto first = reference(t0, t0, spec);
  expect_same(ours(t0, t0, spec), first, "T0 T0");
  Csr<V> t1 = first.c;
  stochastic(t1);
  const auto t1m = gb::from_host(t1);
  expect_same(ours(t1m, t0, spec), reference(t1m, t0, spec), "T1 T0");
  expect_same(ours(t1m, t1m, spec), reference(t1m, t1m, spec), "T1 T1");
}

// B with over two million columns: the accumulator holds fewer rows side by side (the group of
// rows that share each read of B shrinks to keep it within its bytes), with short rows listed
// and long ones read back by a scan.
TYPED_TEST(GraphblasPruneRows, ManyColumns) {
  using V = TypeParam;
  const vid_t n = (vid_t(1) << 21) + 7;
  std::mt19937 rng(11);
  std::uniform_int_distribution<vid_t> column(0, n - 1);
  std::uniform_real_distribution<double> weight(0.01, 1.0);
  std::vector<Entry<V>> ea, eb;
  std::set<vid_t> ks;
  for (vid_t i = 0; i < 48; ++i) {  // rows 0-23 short (few terms), 24-47 long
    std::set<vid_t> row;
    while (row.size() < (i < 24 ? 3u : 150u)) row.insert(column(rng) % 4096);
    for (vid_t k : row) ea.push_back({i, k, V(weight(rng))}), ks.insert(k);
  }
  for (vid_t k : ks) {
    std::set<vid_t> row;
    while (row.size() < 1000u) row.insert(column(rng));
    for (vid_t j : row) eb.push_back({k, j, V(weight(rng))});
  }
  const auto a = matrix<V>(48, n, ea), b = matrix<V>(n, n, eb);
  const PruneSpec spec{0.99999 / 10000, 1100, 1400, 0.9};
  expect_same(ours(a, b, spec), reference(a, b, spec), "2^21 + 7 columns");
  const PruneSpec tight{0.001, 60, 80, 0.9};
  expect_same(ours(a, b, tight), reference(a, b, tight), "2^21 + 7 columns, tight");
}

// A and B are read in place and given back unchanged; C may be A itself.
TEST(GraphblasPruneRowsInputs, UnchangedAndAliased) {
  const Csr<double> h = random_iterate<double>(200, 10, 3);
  auto t = gb::from_host(h);
  const PruneSpec spec{0.99999 / 10000, 20, 30, 0.9};
  const auto want = reference(t, t, spec);
  expect_same(ours(t, t, spec), want, "first");
  const Csr<double> after = gb::to_host(t);
  EXPECT_EQ(after.rowptr, h.rowptr);
  EXPECT_EQ(after.col, h.col);
  EXPECT_EQ(after.val, h.val);
  gb::Vector<double> peak, squares;
  gb::mxm_prune_rows(t, peak, squares, t, t, PlusTimes{}, spec);
  const Csr<double> c = gb::to_host(t);
  EXPECT_EQ(c.rowptr, want.c.rowptr);
  EXPECT_EQ(c.col, want.c.col);
  EXPECT_EQ(c.val, want.c.val);
  EXPECT_EQ(gb::to_host(peak), want.peak);
}

TEST(GraphblasPruneRowsInputs, RefusesOtherSemiringsAndMismatchedShapes) {
  const auto a = example_a<double>();
  gb::Matrix<double> c;
  gb::Vector<double> peak, squares;
  try {
    gb::mxm_prune_rows(c, peak, squares, a, a, MinPlus{}, PruneSpec{});
    FAIL() << "min-plus accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("plus-times"), std::string::npos) << e.what();
  }
  const auto wide = matrix<double>(4, 5, {{0, 4, 1}});
  try {
    gb::mxm_prune_rows(c, peak, squares, wide, a, PlusTimes{}, PruneSpec{});
    FAIL() << "4 x 5 times 4 x 4 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("4 x 5 but B has 4 rows"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace spgraph::test
