// Hash SpGEMM against GraphBLAS: every row group, the dense accumulator, the global-memory
// tables (reached naturally and forced), rectangular and degenerate shapes.
#include <gtest/gtest.h>

#include <cstdint>

#include "spgemm_test_support.hpp"
#include "spgraph/error.hpp"

namespace spgraph::test {
namespace {

const MxmOptions kHash = with_algorithm(MxmAlgorithm::Hash);

TEST(SpgemmHash, RectangularWithEmptyRowsColumnsAndADenseRow) {
  SPGRAPH_REQUIRE_GPU();
  RandomSpec sa{.nrows = 300, .ncols = 200, .density = 0.05, .seed = 11, .empty_row_every = 7, .empty_col_every = 5,
                .dense_row = 17};
  RandomSpec sb{.nrows = 200, .ncols = 250, .density = 0.04, .seed = 12, .empty_row_every = 9, .empty_col_every = 6,
                .dense_row = 3};
  const auto a = random_csr<std::int64_t>(sa), b = random_csr<std::int64_t>(sb);
  const auto info = expect_matches_oracle<PlusTimes>(a, b, kHash);
  EXPECT_EQ(info.algorithm, "hash");
  EXPECT_EQ(info.panels, 1);
}

// Row lengths from 0 to hundreds of entries and columns spread over `wide`: rows land in every
// group. A's last 1000 rows reach only B's narrow rows (columns below 300): with spans that
// small their block-group rows accumulate densely; the others use hash tables.
template <class SR, class V>
void expect_every_row_group_matches(vid_t wide) {
  const vid_t n = 3000, narrow = 300;
  std::mt19937_64 rng(5);
  const auto uniform = [&](vid_t lo, vid_t hi) { return std::uniform_int_distribution<vid_t>(lo, hi)(rng); };
  const auto value = [&] { return static_cast<V>(std::uniform_int_distribution<int>(-4, 4)(rng)); };
  Csr<V> a;
  a.nrows = n;
  a.ncols = n;
  for (vid_t i = 0; i < n; ++i) {
    const vid_t len = (i % 97) * (i % 13 == 0 ? 6 : 1);  // up to 576 entries
    std::set<vid_t> cols;
    while (static_cast<vid_t>(cols.size()) < len) cols.insert(i < 2000 ? uniform(0, n - 1) : 2 * uniform(0, n / 2 - 1));
    for (vid_t j : cols) {
      a.col.push_back(j);
      a.val.push_back(value());
    }
    a.rowptr.push_back(static_cast<eid_t>(a.col.size()));
  }
  Csr<V> b;  // odd rows scattered over `wide` columns, even rows below `narrow`
  b.nrows = n;
  b.ncols = wide;
  for (vid_t k = 0; k < n; ++k) {
    const vid_t len = 1 + (k % 41);
    std::set<vid_t> cols;
    while (static_cast<vid_t>(cols.size()) < len) cols.insert(k % 2 ? uniform(0, wide - 1) : uniform(0, narrow - 1));
    for (vid_t j : cols) {
      b.col.push_back(j);
      b.val.push_back(value());
    }
    b.rowptr.push_back(static_cast<eid_t>(b.col.size()));
  }
  const auto info = expect_matches_oracle<SR>(a, b, kHash);
  EXPECT_GT(info.dense_rows, 0);
  EXPECT_LT(info.dense_rows, 2000);
  EXPECT_EQ(info.global_table_rows, 0);
}

// Rows of up to 510 products, of which a third share column 0 and a third column 1. In the
// sort tiers (rows of at most 512 products, 4 to 32 lanes a row) those runs of equal columns
// span several of a row's lanes and are combined across them. Under plus and under min.
TEST(SpgemmHash, SortTiersCombineRunsAcrossLanes) {
  SPGRAPH_REQUIRE_GPU();
  const vid_t n = 2000;
  std::mt19937_64 rng(17);
  const auto uniform = [&](vid_t lo, vid_t hi) { return std::uniform_int_distribution<vid_t>(lo, hi)(rng); };
  const auto value = [&] { return std::int64_t(std::uniform_int_distribution<int>(-3, 3)(rng)); };
  Csr<std::int64_t> a, b;
  a.nrows = a.ncols = b.nrows = b.ncols = n;
  for (vid_t i = 0; i < n; ++i) {
    std::set<vid_t> cols;
    while (static_cast<vid_t>(cols.size()) < 1 + i % 170) cols.insert(uniform(0, n - 1));
    for (vid_t j : cols) {
      a.col.push_back(j);
      a.val.push_back(value());
    }
    a.rowptr.push_back(static_cast<eid_t>(a.col.size()));
    for (vid_t j : {vid_t(0), vid_t(1), vid_t(2 + i % 500)}) {
      b.col.push_back(j);
      b.val.push_back(value());
    }
    b.rowptr.push_back(static_cast<eid_t>(b.col.size()));
  }
  expect_matches_oracle<PlusTimes>(a, b, kHash);
  expect_matches_oracle<MinPlus>(a, b, kHash);
}

// Rows whose products fill each sort tier of N elements, with column spans at the tier's limit
// (span * N one step below 2^32: the largest key sorts just below kEmptyKey), just past it and
// far past it (those rows are left to the warp tier and the block groups, where sort keys that
// wrapped around would misorder them). Columns repeat across a row's rows of B, so equal
// columns are combined.
TEST(SpgemmHash, SortTierSpanLimits) {
  SPGRAPH_REQUIRE_GPU();
  const vid_t wide = vid_t(1) << 30;
  std::mt19937_64 rng(23);
  const auto value = [&] { return std::int64_t(std::uniform_int_distribution<int>(-3, 3)(rng)); };
  Csr<std::int64_t> a, b;
  a.nrows = b.nrows = 0;
  b.ncols = wide;
  const auto add_row = [](Csr<std::int64_t>& m, std::set<vid_t> cols, const auto& value) {
    for (vid_t j : cols) {
      m.col.push_back(j);
      m.val.push_back(value());
    }
    m.rowptr.push_back(static_cast<eid_t>(m.col.size()));
    ++m.nrows;
  };
  for (int tier = 0; tier < 5; ++tier) {  // rows of up to 32, 64, 128, 256 and 512 products
    const eid_t n = eid_t(32) << tier, limit = (eid_t(1) << 32) / n;
    for (const eid_t span : {limit - 1, limit, 4 * limit + 3}) {
      const vid_t first = std::uniform_int_distribution<vid_t>(0, vid_t(wide - span))(rng);
      std::vector<vid_t> pool = {first, vid_t(first + span - 1)};
      while (pool.size() < 12) pool.push_back(first + std::uniform_int_distribution<vid_t>(1, vid_t(span - 2))(rng));
      const vid_t ends = b.nrows;
      add_row(b, {pool[0], pool[1]}, value);
      const vid_t rows_of_8 = vid_t((n - 2) / 8);  // 2 + 8 * rows_of_8 products: more than n / 2, at most n
      for (vid_t r = 0; r < rows_of_8 + 2; ++r) {
        std::set<vid_t> cols;
        while (cols.size() < 8) cols.insert(pool[std::uniform_int_distribution<std::size_t>(0, pool.size() - 1)(rng)]);
        add_row(b, cols, value);
      }
      for (vid_t shift = 0; shift < 3; ++shift) {  // three rows of A, each the ends and rows_of_8 others
        std::set<vid_t> cols = {ends};
        for (vid_t r = 0; r < rows_of_8; ++r) cols.insert(ends + 1 + shift + r);
        add_row(a, cols, value);
      }
    }
  }
  a.ncols = b.nrows;
  expect_matches_oracle<PlusTimes>(a, b, kHash);
  expect_matches_oracle<MinPlus>(a, b, kHash);
}

// Spans of 2^20 columns: the hash-mode rows of every block group are sorted.
TEST(SpgemmHash, EveryRowGroup) {
  SPGRAPH_REQUIRE_GPU();
  expect_every_row_group_matches<PlusTimes, double>(1 << 20);
}

// Spans of 40000 columns: hash-mode rows of every block group are placed by ranking their
// keys in a presence bitmap over the span. Entries of 4 and 8 bytes (the instantiated types'),
// which the ranked and dense rows stage in shared memory before they are stored.
TEST(SpgemmHash, EveryRowGroupMidSpans) {
  SPGRAPH_REQUIRE_GPU();
  expect_every_row_group_matches<PlusTimes, double>(40000);
  expect_every_row_group_matches<PlusTimes, float>(40000);
}

// Rows of A with up to 2000 entries whose rows of B are mostly empty: few products over many
// entries (rows placed by their entries of A, not their products) and long runs of empty
// entries inside every walk's chunks and windows.
TEST(SpgemmHash, ManyEntriesFewProducts) {
  SPGRAPH_REQUIRE_GPU();
  const vid_t n = 4000;
  std::mt19937_64 rng(9);
  const auto uniform = [&](vid_t lo, vid_t hi) { return std::uniform_int_distribution<vid_t>(lo, hi)(rng); };
  const auto value = [&] { return double(std::uniform_int_distribution<int>(-4, 4)(rng)); };
  Csr<double> a;
  a.nrows = a.ncols = n;
  for (vid_t i = 0; i < n; ++i) {
    const vid_t len = i % 50 == 0 ? 2000 : (i % 7) * (i % 11);
    std::set<vid_t> cols;
    while (static_cast<vid_t>(cols.size()) < len) cols.insert(uniform(0, n - 1));
    for (vid_t j : cols) {
      a.col.push_back(j);
      a.val.push_back(value());
    }
    a.rowptr.push_back(static_cast<eid_t>(a.col.size()));
  }
  Csr<double> b = a;  // one row in 20 keeps 1-3 of A's entries, the others are empty
  b.col.clear();
  b.val.clear();
  b.rowptr.assign(1, 0);
  for (vid_t k = 0; k < n; ++k) {
    if (k % 20 == 3)
      for (eid_t p = a.rowptr[k]; p < a.rowptr[k + 1] && p < a.rowptr[k] + 1 + k % 3; ++p) {
        b.col.push_back(a.col[p]);
        b.val.push_back(a.val[p]);
      }
    b.rowptr.push_back(static_cast<eid_t>(b.col.size()));
  }
  const auto info = expect_matches_oracle<PlusTimes>(a, b, kHash);
  EXPECT_GT(info.nnz, 0);
}

// A banded product: every row's span is narrow, so every block-group row accumulates densely.
TEST(SpgemmHash, BandedRowsAccumulateDensely) {
  SPGRAPH_REQUIRE_GPU();
  const vid_t n = 5000, band = 40;
  Csr<float> a;
  a.nrows = a.ncols = n;
  for (vid_t i = 0; i < n; ++i) {
    for (vid_t j = std::max(0, i - band); j <= std::min(n - 1, i + band); ++j) {
      a.col.push_back(j);
      a.val.push_back(float((i + j) % 5 - 2));
    }
    a.rowptr.push_back(static_cast<eid_t>(a.col.size()));
  }
  const auto info = expect_matches_oracle<PlusTimes>(a, a, kHash);
  EXPECT_EQ(info.dense_rows, n);  // 81 entries and up to 6561 products per row: all block groups
}

// One row with ~40000 distinct columns over 4M: too many for any shared-memory table, in the
// symbolic pass (past 7/8 of 32768 keys, redone with a global bitmap) and the numeric pass.
TEST(SpgemmHash, HugeRowTakesTheGlobalPath) {
  SPGRAPH_REQUIRE_GPU();
  const vid_t k = 2000, wide = 1 << 22;
  Csr<std::int32_t> a;
  a.nrows = 4;
  a.ncols = k;
  for (vid_t i = 0; i < 4; ++i) {
    const vid_t len = i == 2 ? 400 : 3;
    for (vid_t j = 0; j < len; ++j) {
      a.col.push_back(j * (k / 400));
      a.val.push_back(1 + j % 3);
    }
    a.rowptr.push_back(static_cast<eid_t>(a.col.size()));
  }
  const auto b = random_csr<std::int32_t>({.nrows = k, .ncols = wide, .density = 100.0 / wide, .seed = 21});
  const auto info = expect_matches_oracle<PlusTimes>(a, b, kHash);
  EXPECT_EQ(info.global_table_rows, 1);
}

TEST(SpgemmHash, ForcedGlobalTablesGiveTheSameResult) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<double>({.nrows = 400, .ncols = 300, .density = 0.03, .seed = 31, .empty_row_every = 11,
                                     .dense_row = 8});
  const auto b = random_csr<double>({.nrows = 300, .ncols = 500, .density = 0.05, .seed = 32, .empty_col_every = 4});
  gpu::SpgemmTuning forced;
  forced.force_global_tables = true;
  const auto info = expect_matches_oracle<MinPlus>(a, b, kHash, forced);
  const auto plain = gpu_mxm<MinPlus>(a, b, kHash);
  EXPECT_GT(info.global_table_rows, 0);
  EXPECT_EQ(plain.info.global_table_rows, 0);
  // Every row with products went through the global tables.
  const Csr<double> c = oracle_mxm<MinPlus>(a, b);
  vid_t rows_with_entries = 0;
  for (vid_t i = 0; i < c.nrows; ++i) rows_with_entries += c.row_length(i) > 0;
  EXPECT_EQ(info.global_table_rows, rows_with_entries);
}

// Products that cancel leave explicit zeros, as in GraphBLAS: (1 1) * (1 -1)' = 0 is stored.
TEST(SpgemmHash, CancellingProductsKeepExplicitZeros) {
  SPGRAPH_REQUIRE_GPU();
  Csr<std::int64_t> a;
  a.nrows = 2;
  a.ncols = 2;
  a.rowptr = {0, 2, 3};
  a.col = {0, 1, 1};
  a.val = {1, 1, 5};
  Csr<std::int64_t> b;
  b.nrows = 2;
  b.ncols = 2;
  b.rowptr = {0, 1, 2};
  b.col = {0, 0};
  b.val = {1, -1};
  const auto got = gpu_mxm<PlusTimes>(a, b, kHash);
  ASSERT_EQ(got.c.nnz(), 2);
  EXPECT_EQ(got.c.col, (std::vector<vid_t>{0, 0}));
  EXPECT_EQ(got.c.val, (std::vector<std::int64_t>{0, -5}));
  expect_matches_oracle<PlusTimes>(a, b, kHash);
}

TEST(SpgemmHash, EmptyOperandsGiveAnEmptyProduct) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<double>({.nrows = 50, .ncols = 40, .density = 0.1, .seed = 41});
  Csr<double> zero;
  zero.nrows = 40;
  zero.ncols = 30;
  zero.rowptr.assign(41, 0);
  const auto got = gpu_mxm<PlusTimes>(a, zero, kHash);
  EXPECT_EQ(got.c.nrows, 50);
  EXPECT_EQ(got.c.ncols, 30);
  EXPECT_EQ(got.c.nnz(), 0);
  expect_matches_oracle<PlusTimes>(a, zero, kHash);
}

TEST(SpgemmHash, MismatchedInnerDimensionsThrow) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = gpu::Matrix<double>::from_host(random_csr<double>({.nrows = 5, .ncols = 6, .seed = 1}));
  const auto b = gpu::Matrix<double>::from_host(random_csr<double>({.nrows = 7, .ncols = 5, .seed = 2}));
  gpu::Matrix<double> c;
  EXPECT_THROW(gpu::mxm(c, nullptr, a, b, PlusTimes{}), Error);
}

// A's dense row (900 entries) is counted by a whole block, the others by 8 lanes each.
TEST(SpgemmHash, CountProducts) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<double>({.nrows = 120, .ncols = 900, .density = 0.02, .seed = 51, .dense_row = 4});
  const auto b = random_csr<double>({.nrows = 900, .ncols = 70, .density = 0.1, .seed = 52});
  eid_t want = 0;
  for (eid_t p = 0; p < a.nnz(); ++p) want += b.row_length(a.col[p]);
  const auto ga = gpu::Matrix<double>::from_host(a), gb = gpu::Matrix<double>::from_host(b);
  EXPECT_EQ(gpu::count_products(ga, gb), want);
  EXPECT_EQ(gpu_mxm<PlusTimes>(a, b, kHash).info.products, want);
}

TEST(SpgemmHash, AutoUsesHash) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<float>({.nrows = 80, .ncols = 80, .density = 0.1, .seed = 61});
  EXPECT_EQ(expect_matches_oracle<PlusTimes>(a, a).algorithm, "hash");
}

TEST(SpgemmHash, Transposes) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<std::int64_t>({.nrows = 90, .ncols = 60, .density = 0.08, .seed = 71, .dense_row = 5});
  const auto b = random_csr<std::int64_t>({.nrows = 70, .ncols = 60, .density = 0.08, .seed = 72});
  const auto c = random_csr<std::int64_t>({.nrows = 50, .ncols = 90, .density = 0.08, .seed = 73});
  Descriptor tb;
  tb.transpose_b = true;  // a * b' = (90 x 60)(60 x 70)
  expect_matches_oracle<PlusTimes>(a, b, kHash, {}, tb);
  Descriptor ta;
  ta.transpose_a = true;  // a' * a = (60 x 90)(90 x 60)
  expect_matches_oracle<PlusTimes>(a, a, kHash, {}, ta);
  Descriptor both;
  both.transpose_a = both.transpose_b = true;  // a' * c' = (60 x 90)(90 x 50)
  expect_matches_oracle<PlusTimes>(a, c, kHash, {}, both);
  EXPECT_THROW(gpu_mxm<PlusTimes>(a, b, kHash, {}, both), Error);  // (60 x 90)(60 x 70)
}

}  // namespace
}  // namespace spgraph::test
