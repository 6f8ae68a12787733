// gpu::mxm_prune_rows (MCL's expansion with mcl's pruning, PruneSpec) against a host reference:
// the product from GraphBLAS, then each row's values sorted in descending order and pruned by
// host/prune_rule.hpp, the kept entries in column order. Crafted rows hit every case of the rule
// with answers worked out by hand (checked against the reference without a GPU); MCL-like
// iterates, rows longer than a warp takes and a budget that forces many panels check the GPU
// against the reference.
//
// Every value is a multiple of a power of two small enough that every product, sum, mass and
// sum of squares here is exact in float and double whatever the order of the additions: the
// GPU must then decide every row exactly as the reference does, and the results, peaks and
// squares are compared for equality.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../spgemm/spgemm_test_support.hpp"
#include "gpu_vs_graphblas.hpp"
#include "gpu/spgemm/pruned_tiles_impl.cuh"
#include "host/prune_rule.hpp"
#include "spgraph/gpu/mxm_prune_rows.hpp"

namespace spgraph::test {
namespace {

using ::spgraph::detail::PruneCase;
using Cases = std::vector<PruneCase>;

// A pruned product: C, and per row its peak and sum of squares before pruning; the reference
// also says how it decided each row, the GPU what its product did.
template <class V>
struct Pruned {
  Csr<V> c;
  std::vector<V> peak, squares;
  Cases how;
  gpu::SpgemmInfo info;
};

template <class V>
Pruned<V> reference_prune(const Csr<V>& m, const PruneSpec& s) {
  Pruned<V> out;
  out.c.nrows = m.nrows;
  out.c.ncols = m.ncols;
  for (vid_t i = 0; i < m.nrows; ++i) {
    const eid_t b = m.rowptr[i], e = m.rowptr[i + 1], n = e - b;
    V peak = 0;
    double squares = 0, kept_mass = 0;
    eid_t kept = 0;
    std::vector<double> sorted;
    for (eid_t p = b; p < e; ++p) {
      const V v = m.val[p];
      if (p == b || v > peak) peak = v;
      const double d = v;
      squares += d * d;
      if (d >= s.threshold) {
        ++kept;
        kept_mass += d;
      }
      sorted.push_back(d);
    }
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    const auto at_least = [&](double x) {
      return eid_t(std::upper_bound(sorted.begin(), sorted.end(), x, std::greater<>()) - sorted.begin());
    };
    const PruneCase how = ::spgraph::detail::prune_case(n, kept, kept_mass, s);
    double bar = s.threshold;
    if (how == PruneCase::RecoverAll) bar = sorted[s.recover - 1];
    if (how == PruneCase::Select) {
      const double sbar = sorted[s.select - 1];
      const eid_t selected = at_least(sbar);
      const double mass = std::accumulate(sorted.begin(), sorted.begin() + selected, 0.0);
      const double recover_bar = s.recover > 0 && kept > s.recover ? sorted[s.recover - 1] : 0.0;
      bar = ::spgraph::detail::select_bar(sbar, selected, mass, kept, recover_bar, s);
    }
    for (eid_t p = b; p < e; ++p) {
      const bool keep = how == PruneCase::Loop ? m.col[p] == i : how == PruneCase::KeepAll || double(m.val[p]) >= bar;
      if (!keep) continue;
      out.c.col.push_back(m.col[p]);
      out.c.val.push_back(how == PruneCase::Loop ? V(1) : m.val[p]);
    }
    out.c.rowptr.push_back(eid_t(out.c.col.size()));
    out.peak.push_back(n > 0 ? peak : V(0));
    out.squares.push_back(V(squares));
    out.how.push_back(how);
  }
  return out;
}

template <class V>
Pruned<V> reference_prune(const Csr<V>& a, const Csr<V>& b, const PruneSpec& s) {
  return reference_prune(oracle_mxm<PlusTimes>(a, b), s);
}

using Path = gpu::SpgemmTuning::PrunedProduct;

template <class V>
Pruned<V> gpu_prune(const Csr<V>& a, const Csr<V>& b, const PruneSpec& s, std::size_t budget = 0,
                    Path path = Path::Auto) {
  gpu::Matrix<V> c;
  gpu::Vector<V> peak, squares;
  MxmOptions options;
  options.memory_budget = budget;
  gpu::SpgemmTuning tuning;
  tuning.pruned_product = path;
  Pruned<V> r;
  r.info = gpu::mxm_prune_rows(c, peak, squares, gpu::Matrix<V>::from_host(a), gpu::Matrix<V>::from_host(b),
                               PlusTimes{}, s, options, tuning);
  r.c = gpu_result(c);
  r.peak = peak.download();
  r.squares = squares.download();
  return r;
}

// Equal C, peaks and squares (exact: see the top of the file).
template <class V>
void expect_same(const Pruned<V>& got, const Pruned<V>& want, const std::string& what) {
  const auto structure = same_matrix(got.c, want.c, false);
  EXPECT_TRUE(structure) << what;
  if (structure) EXPECT_EQ(got.c.val, want.c.val) << what;
  EXPECT_EQ(got.peak, want.peak) << what;
  EXPECT_EQ(got.squares, want.squares) << what;
}

std::string describe(const PruneSpec& s) {
  return "threshold " + std::to_string(s.threshold) + " select " + std::to_string(s.select) + " recover " +
         std::to_string(s.recover) + " recover_mass " + std::to_string(s.recover_mass);
}

template <class V>
std::vector<eid_t> row_lengths(const Csr<V>& c) {
  std::vector<eid_t> out;
  for (vid_t i = 0; i < c.nrows; ++i) out.push_back(c.row_length(i));
  return out;
}

template <class V>
Csr<V> identity(vid_t n) {
  Csr<V> m;
  m.nrows = m.ncols = n;
  m.rowptr.resize(std::size_t(n) + 1);
  std::iota(m.rowptr.begin(), m.rowptr.end(), eid_t(0));
  m.col.resize(std::size_t(n));
  std::iota(m.col.begin(), m.col.end(), vid_t(0));
  m.val.assign(std::size_t(n), V(1));
  return m;
}

// ---- crafted rows: values in 256ths; the product is A * I = A.
struct Units {
  vid_t row, col;
  int units;
};

template <class V>
Csr<V> in_units(const std::vector<Units>& es) {
  std::vector<Entry<V>> out;
  for (const Units& u : es) out.push_back({u.row, u.col, V(u.units) / V(256)});
  return csr(12, 16, std::move(out));
}

// threshold 0.1 is 25.6 units: entries of 26 units and more are kept.
const std::vector<Units> kCrafted = {
    {0, 0, 77}, {0, 1, 13}, {0, 2, 102}, {0, 3, 5},                                     // 2 kept, mass 179
    {1, 0, 51}, {1, 1, 13}, {1, 2, 3},                                                  // 1 kept, 3 entries
    {2, 0, 51}, {2, 1, 13}, {2, 2, 13}, {2, 3, 3}, {2, 4, 13}, {2, 5, 13}, {2, 6, 5},  // 1 kept, 7 entries
    {3, 0, 77}, {3, 1, 38}, {3, 2, 51}, {3, 3, 31}, {3, 4, 28}, {3, 5, 13},            // 5 kept
    {4, 0, 51}, {4, 1, 51}, {4, 2, 77}, {4, 3, 51}, {4, 4, 28}, {4, 5, 31},            // 6 kept, ties at 51
    {5, 0, 31}, {5, 1, 33}, {5, 2, 36}, {5, 3, 28}, {5, 4, 38}, {5, 5, 27},            // 6 kept, small
    {6, 0, 31}, {6, 1, 33}, {6, 2, 28}, {6, 3, 36}, {6, 4, 2},                         // 4 kept, small
    // row 7 is empty
    {8, 0, 31}, {8, 1, 33}, {8, 2, 36}, {8, 3, 31}, {8, 4, 38}, {8, 5, 27}, {8, 6, 31},  // 7 kept, ties at 31
    {9, 0, 5}, {9, 1, 3}, {9, 2, 7}, {9, 3, 1}, {9, 4, 2}, {9, 5, 9},                    // none kept, 6 entries
    {10, 3, 5}, {10, 10, 7}, {10, 12, 2},                                                // none kept, diagonal
    {11, 0, 5}, {11, 4, 7}};                                                             // none kept, no diagonal

const PruneSpec kWithRecovery{0.1, 3, 4, 0.5};  // recover_mass 0.5 is 128 units
const Cases kWithRecoveryCases = {PruneCase::Threshold, PruneCase::KeepAll, PruneCase::RecoverAll, PruneCase::Select,
                                  PruneCase::Select,    PruneCase::Select,  PruneCase::Select,     PruneCase::KeepAll,
                                  PruneCase::Select,    PruneCase::RecoverAll, PruneCase::KeepAll, PruneCase::KeepAll};
const std::vector<Units> kWithRecoveryKept = {
    {0, 0, 77}, {0, 2, 102},                                        // Threshold
    {1, 0, 51}, {1, 1, 13}, {1, 2, 3},                              // KeepAll: kept 1 < 4, mass 51 < 128, n 3 <= 4
    {2, 0, 51}, {2, 1, 13}, {2, 2, 13}, {2, 4, 13}, {2, 5, 13},    // RecoverAll: bar 13 (4th), its 4 ties
    {3, 0, 77}, {3, 1, 38}, {3, 2, 51},                             // Select: bar 38, selected mass 166 >= 128
    {4, 0, 51}, {4, 1, 51}, {4, 2, 77}, {4, 3, 51},                 // Select: bar 51 (3rd), 4 tied: no recovery
    {5, 0, 31}, {5, 1, 33}, {5, 2, 36}, {5, 4, 38},                 // Select 107 < 128, kept 6 > 4: bar 31 (4th)
    {6, 0, 31}, {6, 1, 33}, {6, 2, 28}, {6, 3, 36},                 // Select 100 < 128, kept 4: bar threshold
    {8, 0, 31}, {8, 1, 33}, {8, 2, 36}, {8, 3, 31}, {8, 4, 38}, {8, 6, 31},  // recovery bar 31 and its ties
    {9, 0, 5}, {9, 1, 3}, {9, 2, 7}, {9, 5, 9},                     // RecoverAll from nothing kept: bar 3
    {10, 3, 5}, {10, 10, 7}, {10, 12, 2},                           // KeepAll
    {11, 0, 5}, {11, 4, 7}};                                        // KeepAll

const PruneSpec kNoRecovery{0.1, 3, 0, 0};
const Cases kNoRecoveryCases = {PruneCase::Threshold, PruneCase::Threshold, PruneCase::Threshold, PruneCase::Select,
                                PruneCase::Select,    PruneCase::Select,    PruneCase::Select,    PruneCase::Loop,
                                PruneCase::Select,    PruneCase::Loop,      PruneCase::Loop,      PruneCase::Loop};
const std::vector<Units> kNoRecoveryKept = {
    {0, 0, 77}, {0, 2, 102},
    {1, 0, 51},
    {2, 0, 51},
    {3, 0, 77}, {3, 1, 38}, {3, 2, 51},
    {4, 0, 51}, {4, 1, 51}, {4, 2, 77}, {4, 3, 51},
    {5, 1, 33}, {5, 2, 36}, {5, 4, 38},
    {6, 0, 31}, {6, 1, 33}, {6, 3, 36},
    {8, 1, 33}, {8, 2, 36}, {8, 4, 38},
    {10, 10, 256}};  // Loop: the diagonal alone, set to 1; rows 7, 9 and 11 hold none

// The reference's own known answers (no GPU needed).
TEST(PruneRowsReference, CraftedRowsByHand) {
  const Csr<double> a = in_units<double>(kCrafted);
  const Pruned<double> with = reference_prune(a, kWithRecovery);
  EXPECT_TRUE(same_matrix(with.c, in_units<double>(kWithRecoveryKept)));
  EXPECT_EQ(with.how, kWithRecoveryCases);
  const Pruned<double> without = reference_prune(a, kNoRecovery);
  EXPECT_TRUE(same_matrix(without.c, in_units<double>(kNoRecoveryKept)));
  EXPECT_EQ(without.how, kNoRecoveryCases);
  for (const auto* r : {&with, &without}) {
    EXPECT_EQ(r->peak[0], 102.0 / 256);
    EXPECT_EQ(r->squares[0], (77 * 77 + 13 * 13 + 102 * 102 + 5 * 5) / 65536.0);
    EXPECT_EQ(r->peak[7], 0.0);  // empty row
    EXPECT_EQ(r->squares[7], 0.0);
    EXPECT_EQ(r->peak[9], 9.0 / 256);
  }
}

// ---- long rows (more than a warp takes, and than the 10000 of the issue) beside short ones:
// 7 x 60000, the product A * I.
// row 0: 50000 entries (1 + j % 8) / 2^12
// row 1: 60000 entries (1 + (7919 j) % 4000) / 2^24, each level 15 times (7919 is prime)
// row 2: 30000 entries, every 10th (16 + (j / 10) % 9) / 2^16 (3000 of them), the rest as row 1
// row 3: 20000 entries from column 100 (no diagonal), every 40th 2^-8 (500), the rest as row 1
// row 4: empty; row 5: 5000 entries (1 + j % 3) / 2^12; row 6: 100 entries (1 + j % 5) / 2^12
// from column 1000
template <class V>
Csr<V> long_rows() {
  const auto tiny = [](eid_t j) { return V(1 + (7919 * j) % 4000) / V(1 << 24); };
  std::vector<Entry<V>> es;
  for (vid_t j = 0; j < 50000; ++j) es.push_back({0, j, V(1 + j % 8) / V(1 << 12)});
  for (vid_t j = 0; j < 60000; ++j) es.push_back({1, j, tiny(j)});
  for (vid_t j = 0; j < 30000; ++j) es.push_back({2, j, j % 10 == 0 ? V(16 + (j / 10) % 9) / V(1 << 16) : tiny(j)});
  for (vid_t j = 0; j < 20000; ++j) es.push_back({3, 100 + j, j % 40 == 0 ? V(1) / V(256) : tiny(j)});
  for (vid_t j = 0; j < 5000; ++j) es.push_back({5, j, V(1 + j % 3) / V(1 << 12)});
  for (vid_t j = 0; j < 100; ++j) es.push_back({6, 1000 + j, V(1 + j % 5) / V(1 << 12)});
  return csr(7, 60000, std::move(es));
}

struct LongRowsCase {
  PruneSpec spec;
  Cases how;
  std::vector<eid_t> kept;  // per row, worked out by hand
};

std::vector<LongRowsCase> long_rows_cases() {
  const double t = 1.0 / 4096;
  using P = PruneCase;
  return {
      // row 0: 6250 at the top level; row 1: the top 100 levels; row 2: 3000 kept, the 1000th is
      // level 21 (999 above it), its 1332 of mass 29970 / 2^16 < 0.5, so the 1500th (level 20,
      // 1665 at or above it); row 3: 500 kept of mass 1.95; row 5: 1666 at the top level; row 6:
      // 100 kept of mass 0.07 (no more than recover)
      {{t, 1000, 1500, 0.5},
       {P::Select, P::RecoverAll, P::Select, P::Threshold, P::KeepAll, P::Select, P::KeepAll},
       {6250, 1500, 1665, 500, 0, 1666, 100}},
      {{t, 1000, 0, 0},
       {P::Select, P::Loop, P::Select, P::Threshold, P::Loop, P::Select, P::Threshold},
       {6250, 1, 1332, 500, 0, 1666, 100}},
      {{t, 0, 100000, 1e9},  // every row no longer than recover: kept whole
       {P::KeepAll, P::KeepAll, P::KeepAll, P::KeepAll, P::KeepAll, P::KeepAll, P::KeepAll},
       {50000, 60000, 30000, 20000, 0, 5000, 100}},
      {{1.0, 0, 0, 0},  // nothing kept: the diagonal entries, where the rows hold them
       {P::Loop, P::Loop, P::Loop, P::Loop, P::Loop, P::Loop, P::Loop},
       {1, 1, 1, 0, 0, 1, 0}},
  };
}

TEST(PruneRowsReference, LongRowsByHand) {
  const Csr<double> a = long_rows<double>();
  for (const LongRowsCase& k : long_rows_cases()) {
    const Pruned<double> r = reference_prune(a, k.spec);
    EXPECT_EQ(r.how, k.how) << describe(k.spec);
    EXPECT_EQ(row_lengths(r.c), k.kept) << describe(k.spec);
  }
}

// ---- MCL-like iterates: square, every row its diagonal and random columns, values multiples
// of 2^-12 adding up to exactly 1, so every product is a multiple of 2^-24 no larger than 1.
// Most rows hold a few large values and many of one unit; every 50th is flat (its mass spread
// evenly), so that its square's row can fall wholly below a threshold.
constexpr int kUnits = 1 << 12;

template <class V>
Csr<V> mcl_iterate(vid_t n, int degree, unsigned seed, vid_t wide_row = -1, int wide = 0) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<vid_t> column(0, n - 1);
  Csr<V> m;
  m.nrows = m.ncols = n;
  for (vid_t i = 0; i < n; ++i) {
    std::set<vid_t> cols{i};
    const std::size_t want = 1 + std::size_t(i == wide_row ? wide : 1 + int(rng() % (2 * degree)));
    while (cols.size() < want) cols.insert(column(rng));
    std::vector<int> units(cols.size(), kUnits / int(cols.size()));
    int left = kUnits - units.front() * int(cols.size());
    if (i % 50 != 3) {
      std::fill(units.begin(), units.end(), 1);
      left = kUnits - int(cols.size());
    }
    while (left > 0) {  // each step a random share of what is left
      const int take = 1 + int(rng() % std::uint64_t(left));
      units[rng() % units.size()] += take;
      left -= take;
    }
    std::size_t k = 0;
    for (vid_t c : cols) {
      m.col.push_back(c);
      m.val.push_back(V(units[k++]) / V(kUnits));
    }
    m.rowptr.push_back(eid_t(m.col.size()));
  }
  return m;
}

// 6000 rows of about 30 entries, row 17 of 3000: the product's rows hold about 900 entries,
// row 17's nearly all 6000 (a long row).
template <class V>
Csr<V> mcl_example() {
  return mcl_iterate<V>(6000, 30, 701, 17, 3000);
}

// Specs that meet every case on the example (McLikeIteratesMeetEveryCase): mcl's defaults
// (-P 4000 -S 1100 -R 1400 -pct 90), smaller ones scaled to rows of about 900 entries, recovery
// alone (of few entries, and of rows whole but row 17's), no recovery (the flat rows' squares
// loop), and no pruning at all.
std::vector<PruneSpec> mcl_specs() {
  return {{0.99999 / 4000, 1100, 1400, 0.9}, {1.0 / 1024, 40, 60, 0.9}, {0.0, 25, 30, 0.6},
          {1.0 / 64, 0, 20, 0.5},           {0.1, 0, 2000, 0.9},       {1.0 / 16, 10, 0, 0},
          {}};
}

TEST(PruneRowsReference, McLikeIteratesMeetEveryCase) {
  const Csr<double> a = mcl_example<double>();
  const Csr<double> product = oracle_mxm<PlusTimes>(a, a);
  std::array<eid_t, 5> seen{};
  std::string histogram;
  for (const PruneSpec& s : mcl_specs()) {
    std::array<eid_t, 5> here{};
    const Pruned<double> r = reference_prune(product, s);
    for (PruneCase how : r.how) ++here[std::size_t(how)];
    histogram += describe(s) + ":";
    for (std::size_t k = 0; k < 5; ++k) {
      seen[k] += here[k];
      histogram += " " + std::to_string(here[k]);
    }
    histogram += "\n";
  }
  for (std::size_t k = 0; k < 5; ++k)
    EXPECT_GT(seen[k], 0) << "case " << k << " (Threshold, Loop, KeepAll, RecoverAll, Select) never met:\n"
                          << histogram;
}

// ---- the GPU
template <class V> class PruneRowsGpu : public ::testing::Test {};
using PruneTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(PruneRowsGpu, PruneTypes);

TYPED_TEST(PruneRowsGpu, CraftedRowsEveryCase) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const Csr<V> a = in_units<V>(kCrafted), b = identity<V>(16);
  for (const auto& [spec, kept] :
       {std::pair{kWithRecovery, &kWithRecoveryKept}, std::pair{kNoRecovery, &kNoRecoveryKept}}) {
    const Pruned<V> got = gpu_prune(a, b, spec);
    expect_same(got, reference_prune(a, b, spec), describe(spec));
    EXPECT_TRUE(same_matrix(got.c, in_units<V>(*kept))) << describe(spec);
    EXPECT_EQ(got.info.nnz, a.nnz()) << "entries before pruning";
    EXPECT_EQ(got.info.panels, 1);
  }
}

TYPED_TEST(PruneRowsGpu, LongRows) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const Csr<V> a = long_rows<V>(), b = identity<V>(a.ncols);
  for (const LongRowsCase& k : long_rows_cases()) {
    const Pruned<V> got = gpu_prune(a, b, k.spec);
    expect_same(got, reference_prune(a, b, k.spec), describe(k.spec));
    EXPECT_EQ(row_lengths(got.c), k.kept) << describe(k.spec);
  }
}

TYPED_TEST(PruneRowsGpu, McLikeIterates) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const Csr<V> a = mcl_example<V>();
  const Csr<V> product = oracle_mxm<PlusTimes>(a, a);
  for (const PruneSpec& s : mcl_specs()) {
    const Pruned<V> got = gpu_prune(a, a, s);
    expect_same(got, reference_prune(product, s), describe(s));
    EXPECT_EQ(got.info.nnz, product.nnz()) << describe(s);
  }
  // A second iterate, of other sizes, pruned as mcl's defaults say.
  const Csr<V> small = mcl_iterate<V>(700, 12, 702);
  const PruneSpec mcl = mcl_specs().front();
  expect_same(gpu_prune(small, small, mcl), reference_prune(small, small, mcl), "700 rows");
}

// Bytes the hash product keeps per row whatever the panels (spgemm_impl.cuh; panels_test.cpp).
std::size_t hash_bookkeeping(vid_t rows) { return std::size_t(rows) * 29 + 8; }

TYPED_TEST(PruneRowsGpu, SmallBudgetManyPanelsSameAsOne) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const Csr<V> a = mcl_example<V>();
  const Csr<V> product = oracle_mxm<PlusTimes>(a, a);
  const std::size_t product_bytes = std::size_t(product.nnz()) * (sizeof(vid_t) + sizeof(V));
  const std::size_t budget = hash_bookkeeping(a.nrows) + product_bytes / 10;
  for (const PruneSpec& s : mcl_specs()) {
    const Pruned<V> one = gpu_prune(a, a, s);
    const Pruned<V> many = gpu_prune(a, a, s, budget);
    EXPECT_EQ(one.info.panels, 1) << describe(s);
    EXPECT_GE(many.info.panels, 6) << describe(s);
    expect_same(many, one, describe(s) + ", many panels against one");
    expect_same(many, reference_prune(product, s), describe(s) + ", many panels against the reference");
    EXPECT_EQ(many.info.nnz, product.nnz()) << describe(s);
  }
}

TYPED_TEST(PruneRowsGpu, EmptyOperands) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const Csr<V> b = identity<V>(5);
  Csr<V> no_rows;
  no_rows.ncols = 5;
  const Pruned<V> none = gpu_prune(no_rows, b, kNoRecovery);
  EXPECT_EQ(none.c.nrows, 0);
  EXPECT_EQ(none.c.ncols, 5);
  EXPECT_EQ(none.c.nnz(), 0);
  EXPECT_TRUE(none.peak.empty());
  EXPECT_TRUE(none.squares.empty());
  EXPECT_EQ(none.info.panels, 0);

  Csr<V> no_entries;
  no_entries.nrows = 4;
  no_entries.ncols = 5;
  no_entries.rowptr.assign(5, 0);
  for (const PruneSpec& s : {kNoRecovery, kWithRecovery}) {
    const Pruned<V> empty = gpu_prune(no_entries, b, s);
    EXPECT_TRUE(same_matrix(empty.c, no_entries)) << describe(s);
    EXPECT_EQ(empty.peak, std::vector<V>(4, V(0)));
    EXPECT_EQ(empty.squares, std::vector<V>(4, V(0)));
    EXPECT_EQ(empty.info.nnz, 0);
  }
  // B without entries: every row of the product is empty, and so pruned.
  Csr<V> empty_b;
  empty_b.nrows = empty_b.ncols = 16;
  empty_b.rowptr.assign(17, 0);
  const Pruned<V> got = gpu_prune(in_units<V>(kCrafted), empty_b, kNoRecovery);
  EXPECT_EQ(got.c.nrows, 12);
  EXPECT_EQ(got.c.nnz(), 0);
  EXPECT_EQ(got.peak, std::vector<V>(12, V(0)));
}

// ---- the tiles (Auto takes them for products of many products a row): every row dense
// (Path::Tiles) and every row hashed (Path::HashedTiles)

const Path kTilePaths[] = {Path::Tiles, Path::HashedTiles};

std::string describe(const PruneSpec& s, Path path) {
  return describe(s) + (path == Path::HashedTiles ? ", hashed tiles" : ", dense tiles");
}

// Whether the tiles take a product pruned by s: values without sign bits and a bound on what a
// row keeps.
bool tiles_take(const PruneSpec& s) { return std::max(s.select, s.recover) > 0; }

// The tiles ran, every one of the product's rows in the kind of tile the path names.
template <class V>
void expect_tiles(const Pruned<V>& got, const PruneSpec& s, Path path) {
  EXPECT_EQ(got.info.algorithm, tiles_take(s) ? "tiles" : "hash") << describe(s, path);
  const vid_t hashed = tiles_take(s) && path == Path::HashedTiles ? got.c.nrows : 0;
  EXPECT_EQ(got.info.hashed_rows, hashed) << describe(s, path);
}

TYPED_TEST(PruneRowsGpu, TilesEveryCase) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const Csr<V> a = in_units<V>(kCrafted), b = identity<V>(16);
  for (const Path path : kTilePaths) {
    for (const PruneSpec& spec : {kWithRecovery, kNoRecovery}) {
      const Pruned<V> got = gpu_prune(a, b, spec, 0, path);
      expect_tiles(got, spec, path);
      expect_same(got, reference_prune(a, b, spec), describe(spec, path));
      EXPECT_EQ(got.info.nnz, a.nnz()) << "entries before pruning";
    }
  }
}

// Rows of up to 60000 columns: several tiles a row, and Select rows whose candidates outgrow
// the stage; rows of A longer than the shared cursors (up to 60000 here, 3000 in row 17 of the
// MCL example) keep theirs in global memory.
TYPED_TEST(PruneRowsGpu, TilesLongRowsAndLeftOvers) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const Csr<V> a = long_rows<V>(), b = identity<V>(a.ncols);
  const Csr<V> m = mcl_example<V>();
  const Csr<V> product = oracle_mxm<PlusTimes>(m, m);
  for (const Path path : kTilePaths) {
    for (const LongRowsCase& k : long_rows_cases()) {
      const Pruned<V> got = gpu_prune(a, b, k.spec, 0, path);
      expect_tiles(got, k.spec, path);
      expect_same(got, reference_prune(a, b, k.spec), describe(k.spec, path));
      EXPECT_EQ(row_lengths(got.c), k.kept) << describe(k.spec, path);
    }
    for (const PruneSpec& s : mcl_specs()) {
      const Pruned<V> got = gpu_prune(m, m, s, 0, path);
      expect_tiles(got, s, path);
      expect_same(got, reference_prune(product, s), describe(s, path));
      EXPECT_EQ(got.info.nnz, product.nnz()) << describe(s, path);
    }
  }
}

// B's rows spread over 300000 columns with wide gaps: each tile starts at the next column a
// product reaches, so the tiles skip the gaps; A's rows reach 1 to 40 of B's.
template <class V>
Csr<V> spread_rows(vid_t rows, vid_t ncols, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<Entry<V>> es;
  for (vid_t i = 0; i < rows; ++i) {
    std::set<vid_t> cols;
    const vid_t base = vid_t(rng() % std::uint64_t(ncols));
    const std::size_t want = 1 + rng() % 60;
    while (cols.size() < want) {
      // clusters of nearby columns around a few far-apart centres
      const vid_t centre = vid_t((base + (rng() % 4) * (ncols / 4)) % std::uint64_t(ncols));
      cols.insert(vid_t((centre + rng() % 3000) % std::uint64_t(ncols)));
    }
    for (vid_t c : cols) es.push_back({i, c, V(1 + rng() % 16) / V(1 << 10)});
  }
  return csr(rows, ncols, std::move(es));
}

TYPED_TEST(PruneRowsGpu, TilesSkipGaps) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const vid_t n = 3000, wide = 300000;
  const Csr<V> b = spread_rows<V>(n, wide, 11);
  Csr<V> a = mcl_iterate<V>(n, 20, 12);
  for (const Path path : kTilePaths) {
    for (const PruneSpec& s : {PruneSpec{1.0 / 4096, 200, 300, 0.9}, PruneSpec{0.0, 50, 0, 0}}) {
      const Pruned<V> got = gpu_prune(a, b, s, 0, path);
      expect_tiles(got, s, path);
      expect_same(got, reference_prune(a, b, s), describe(s, path));
    }
  }
}

// The entries a tile's scratch holds for A*B: the most products of a row, at most B's columns.
template <class V>
eid_t scratch_columns(const Csr<V>& a, const Csr<V>& b) {
  eid_t most = 1;
  for (vid_t i = 0; i < a.nrows; ++i) {
    eid_t products = 0;
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) products += b.row_length(a.col[p]);
    most = std::max(most, products);
  }
  return std::min<eid_t>(most, b.ncols);
}

// A budget that holds the tiles' scratch and a hundred rows' stage: the rows go in many pieces.
TYPED_TEST(PruneRowsGpu, TilesInPiecesSameAsOne) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const Csr<V> a = mcl_iterate<V>(2000, 30, 703);
  const PruneSpec s = mcl_specs()[1];  // select 40, recover 60
  const std::size_t budget = gpu::prune_detail::tile_scratch_bytes<V>(scratch_columns(a, a), a.nnz()) +
                             100 * gpu::prune_detail::tile_row_bytes<V>(s);
  for (const Path path : kTilePaths) {
    const Pruned<V> one = gpu_prune(a, a, s, 0, path);
    const Pruned<V> many = gpu_prune(a, a, s, budget, path);
    EXPECT_EQ(one.info.panels, 1);
    EXPECT_GT(many.info.panels, 10);
    expect_tiles(many, s, path);
    expect_same(many, one, describe(s, path) + ": pieces of 75 rows against one");
    expect_same(many, reference_prune(a, a, s), describe(s, path) + ": pieces of 75 rows against the reference");
  }
}

// Rows keeping more than max(select, recover) (ties at the bar: crafted rows 2 and 8) go to the
// overflow area; with no room for one there (a budget of the scratch alone), to the panels.
TYPED_TEST(PruneRowsGpu, TilesOverflowAndLeftOvers) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const Csr<V> a = in_units<V>(kCrafted), b = identity<V>(16);
  for (const Path path : kTilePaths) {
    const std::size_t scratch = gpu::prune_detail::tile_scratch_bytes<V>(scratch_columns(a, b), b.nnz());
    for (const std::size_t budget : {std::size_t(0), scratch + 40}) {
      const Pruned<V> got = gpu_prune(a, b, kWithRecovery, budget, path);
      const std::string what = describe(kWithRecovery, path) + ", budget " + std::to_string(budget);
      expect_tiles(got, kWithRecovery, path);
      expect_same(got, reference_prune(a, b, kWithRecovery), what);
      EXPECT_EQ(got.info.nnz, a.nnz()) << "entries before pruning, " << what;
    }
  }
}

// A hashed piece whose columns outgrow its table is walked again at half the width. Row 0 of B
// reaches column 0 and 9000 columns at the far end of 300000: the first piece's width, guessed
// as if the row's 9001 products were spread evenly (3072 columns a piece), holds column 0 alone,
// so the second piece, eight times as wide, holds all 9000 (over the 4096 a piece may find) and
// is walked again at 4500 and 2250 columns. Rows 1-3 of B are shorter copies; A's rows reach
// them in turn.
TYPED_TEST(PruneRowsGpu, HashedTilesWalkAPieceAgainWhereItOverflows) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  constexpr vid_t wide = 300000;
  std::vector<Entry<V>> bs;
  for (vid_t r = 0; r < 4; ++r) {
    bs.push_back({r, 0, V(1) / V(16)});
    for (vid_t j = 0; j < 9000 - 2000 * r; ++j) bs.push_back({r, 290000 + j, V(1 + (j * 7) % 13) / V(1 << 12)});
  }
  const Csr<V> b = csr(4, wide, std::move(bs));
  std::vector<Entry<V>> as;
  for (vid_t i = 0; i < 8; ++i) {
    as.push_back({i, vid_t(i % 4), V(1 + i) / V(8)});
    if (i >= 4) as.push_back({i, vid_t((i + 1) % 4), V(1) / V(4)});
  }
  const Csr<V> a = csr(8, 4, std::move(as));
  for (const PruneSpec& s : {PruneSpec{1.0 / 4096, 2000, 3000, 0.9}, PruneSpec{0.0, 500, 0, 0}}) {
    const Pruned<V> got = gpu_prune(a, b, s, 0, Path::HashedTiles);
    expect_tiles(got, s, Path::HashedTiles);
    expect_same(got, reference_prune(a, b, s), describe(s, Path::HashedTiles));
  }
}

// Auto sums each row of the tiles dense or hashed by how widely its products spread. B's even
// rows spread over 400000 columns (25 dense tiles a row of double, 13 of float), its odd rows
// within 3000; A's even rows reach B's even rows alone, its odd rows the odd ones: about 4000
// products a row either way, so the even rows go hashed (two pieces at most) and the odd ones
// dense.
TYPED_TEST(PruneRowsGpu, AutoHashesRowsSpreadOverManyTiles) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  constexpr vid_t n = 2000, wide = 400000;
  std::mt19937_64 rng(705);
  std::vector<Entry<V>> bs, as;
  for (vid_t r = 0; r < n; ++r) {
    std::set<vid_t> cols;
    while (cols.size() < 100) cols.insert(vid_t(r % 2 == 0 ? rng() % wide : 5000 + rng() % 3000));
    for (vid_t c : cols) bs.push_back({r, c, V(1 + rng() % 16) / V(1 << 10)});
  }
  for (vid_t i = 0; i < n; ++i) {
    std::set<vid_t> cols;
    while (cols.size() < 40) cols.insert(vid_t(2 * (rng() % (n / 2)) + i % 2));
    for (vid_t c : cols) as.push_back({i, c, V(1 + rng() % 16) / V(1 << 10)});
  }
  const Csr<V> a = csr(n, n, std::move(as)), b = csr(n, wide, std::move(bs));
  const PruneSpec s{1.0 / 4096, 200, 300, 0.9};
  const Pruned<V> got = gpu_prune(a, b, s);
  EXPECT_EQ(got.info.algorithm, "tiles");
  EXPECT_EQ(got.info.hashed_rows, n / 2);
  expect_same(got, reference_prune(a, b, s), "rows spread and rows within a tile, by Auto");
}

// Auto takes the tiles for heavy products alone: many products a row and an entry of A (an
// iterate of about 100 entries a row squared), not a product by the identity (one an entry)
// nor the MCL example's (about 900 a row).
TYPED_TEST(PruneRowsGpu, AutoTakesTheTilesForHeavyProducts) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const PruneSpec s = mcl_specs().front();
  const Csr<V> heavy = mcl_iterate<V>(3000, 100, 704);
  const Pruned<V> got = gpu_prune(heavy, heavy, s);
  EXPECT_EQ(got.info.algorithm, "tiles");
  expect_same(got, reference_prune(heavy, heavy, s), "an iterate of about 100 entries a row, squared");
  const Csr<V> wide = long_rows<V>();
  EXPECT_EQ(gpu_prune(wide, identity<V>(wide.ncols), s).info.algorithm, "hash") << "by the identity";
  const Csr<V> m = mcl_example<V>();
  EXPECT_EQ(gpu_prune(m, m, s).info.algorithm, "hash") << "about 900 products a row";
}

// Negative values (or -0.0) hide a column's presence from the tiles: the panels take them.
TYPED_TEST(PruneRowsGpu, SignedValuesGoToThePanels) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  Csr<V> a = in_units<V>(kCrafted);
  a.val[5] = -a.val[5];
  const Csr<V> b = identity<V>(16);
  const Pruned<V> got = gpu_prune(a, b, kWithRecovery, 0, Path::Tiles);
  EXPECT_EQ(got.info.algorithm, "hash");
  expect_same(got, reference_prune(a, b, kWithRecovery), "a negative value");
}

// The tiles load a double B's values as floats where every one is a float (the other tests' B);
// here one is not, so they must stay double. Row i of A holds 2^r entries of 2^-r (r = i % 5) and
// B is the identity times 1 + 2^-24, which a float rounds to 1: every product, mass and square is
// exact in double, and a B read as floats would give values of 2^-r instead.
TEST(PruneRowsGpuDouble, TilesKeepValuesThatAreNotFloats) {
  SPGRAPH_REQUIRE_GPU();
  constexpr vid_t n = 64;
  Csr<double> a;
  a.nrows = a.ncols = n;
  for (vid_t i = 0; i < n; ++i) {
    const int r = int(i % 5);
    std::vector<vid_t> cols;
    for (vid_t k = 0; k < (vid_t(1) << r); ++k) cols.push_back((i + 3 * k) % n);
    std::sort(cols.begin(), cols.end());
    for (vid_t c : cols) {
      a.col.push_back(c);
      a.val.push_back(std::ldexp(1.0, -r));
    }
    a.rowptr.push_back(eid_t(a.col.size()));
  }
  Csr<double> b = identity<double>(n);
  for (double& v : b.val) v = 1 + std::ldexp(1.0, -24);
  ASSERT_NE(double(float(b.val[0])), b.val[0]);
  for (const PruneSpec& spec : mcl_specs()) {
    if (!tiles_take(spec)) continue;
    const Pruned<double> got = gpu_prune(a, b, spec, 0, Path::Tiles);
    EXPECT_EQ(got.info.algorithm, "tiles") << describe(spec);
    expect_same(got, reference_prune(a, b, spec), describe(spec));
  }
}

}  // namespace
}  // namespace spgraph::test
