#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <tuple>
#include <utility>

#include "container_test_util.hpp"
#include "spgraph/graph_ops.hpp"

namespace spgraph {
namespace {

using test::make_csr;
using test::same_csr;

template <class V>
Coo<V> make_coo(vid_t nrows, vid_t ncols, std::vector<vid_t> row, std::vector<vid_t> col, std::vector<V> val = {}) {
  Coo<V> c;
  c.nrows = nrows;
  c.ncols = ncols;
  c.row = std::move(row);
  c.col = std::move(col);
  c.val = std::move(val);
  return c;
}

// Entries in input order: (2,1)=1 (0,2)=2 (2,1)=3 (0,0)=4 (0,2)=5 (2,1)=0.5 in a 3 x 3 matrix.
Coo<double> with_duplicates() {
  return make_coo<double>(3, 3, {2, 0, 2, 0, 0, 2}, {1, 2, 1, 0, 2, 1}, {1, 2, 3, 4, 5, 0.5});
}

TEST(CooToCsr, SortsRowsAndColumns) {
  auto a = coo_to_csr(make_coo<double>(3, 4, {2, 0, 2, 0}, {3, 2, 0, 1}, {1, 2, 3, 4}));
  EXPECT_TRUE(same_csr(a, make_csr<double>(3, 4, {0, 2, 2, 4}, {1, 2, 0, 3}, {4, 2, 3, 1})));
  EXPECT_NO_THROW(a.validate());
}

TEST(CooToCsr, PatternStaysPattern) {
  auto a = coo_to_csr(make_coo<float>(2, 2, {1, 0, 1}, {0, 1, 1}));
  EXPECT_TRUE(same_csr(a, make_csr<float>(2, 2, {0, 1, 3}, {1, 0, 1})));
}

TEST(CooToCsr, EmptyAndEmptyRows) {
  auto empty = coo_to_csr(make_coo<double>(3, 2, {}, {}));
  EXPECT_TRUE(same_csr(empty, make_csr<double>(3, 2, {0, 0, 0, 0}, {})));
  auto zero = coo_to_csr(Coo<int>{});
  EXPECT_EQ(zero.nrows, 0);
  EXPECT_EQ(zero.rowptr, std::vector<eid_t>{0});
}

TEST(CooToCsr, DuplicatesSum) {
  auto a = coo_to_csr(with_duplicates(), Duplicates::Sum);
  EXPECT_TRUE(same_csr(a, make_csr<double>(3, 3, {0, 2, 2, 3}, {0, 2, 1}, {4, 7, 4.5})));
}

TEST(CooToCsr, DuplicatesMax) {
  auto a = coo_to_csr(with_duplicates(), Duplicates::Max);
  EXPECT_TRUE(same_csr(a, make_csr<double>(3, 3, {0, 2, 2, 3}, {0, 2, 1}, {4, 5, 3})));
}

TEST(CooToCsr, DuplicatesFirstKeepsTheEarlierInputEntry) {
  auto a = coo_to_csr(with_duplicates(), Duplicates::First);
  EXPECT_TRUE(same_csr(a, make_csr<double>(3, 3, {0, 2, 2, 3}, {0, 2, 1}, {4, 2, 1})));
}

TEST(CooToCsr, DuplicatesOfAPatternAreMerged) {
  auto c = with_duplicates();
  c.val.clear();
  for (auto policy : {Duplicates::Sum, Duplicates::Max, Duplicates::First})
    EXPECT_TRUE(same_csr(coo_to_csr(c, policy), make_csr<double>(3, 3, {0, 2, 2, 3}, {0, 2, 1})));
}

TEST(CooToCsr, DuplicatesErrorNamesBothInputPositions) {
  try {
    coo_to_csr(with_duplicates(), Duplicates::Error);
    FAIL() << "expected DuplicateEntryError";
  } catch (const DuplicateEntryError& e) {
    EXPECT_EQ(e.row, 2);
    EXPECT_EQ(e.col, 1);
    EXPECT_EQ(e.first_position, 0);
    EXPECT_EQ(e.second_position, 2);
    EXPECT_NE(std::string(e.what()).find("entries 0 and 2"), std::string::npos) << e.what();
  }
}

// The repeat that comes first in the input is reported, not the first in row order, so a
// reader names the first bad line of its file.
TEST(CooToCsr, DuplicatesErrorReportsTheEarliestRepeatInTheInput) {
  auto c = make_coo<int>(2, 2, {1, 0, 1, 0}, {0, 0, 0, 0}, {1, 2, 3, 4});
  try {
    coo_to_csr(c);  // Duplicates::Error is the default
    FAIL() << "expected DuplicateEntryError";
  } catch (const DuplicateEntryError& e) {
    EXPECT_EQ(e.row, 1);
    EXPECT_EQ(e.col, 0);
    EXPECT_EQ(e.first_position, 0);
    EXPECT_EQ(e.second_position, 2);
  }
}

TEST(CooToCsr, DuplicateEntryErrorIsAnSpgraphError) {
  EXPECT_THROW(coo_to_csr(with_duplicates()), Error);
}

TEST(CooToCsr, ValidatesItsInput) {
  auto c = with_duplicates();
  c.col[4] = 3;
  test::expect_error_mentions([&] { coo_to_csr(c, Duplicates::Sum); }, {"entry 4", "column 3 out of range"});
}

TEST(CooToCsr, BoolSumIsLogicalOr) {
  auto a = coo_to_csr(make_coo<bool>(1, 2, {0, 0, 0}, {1, 1, 0}, {true, true, false}), Duplicates::Sum);
  EXPECT_TRUE(same_csr(a, make_csr<bool>(1, 2, {0, 2}, {0, 1}, {false, true})));
}

TEST(CooToCsr, IntegerTypesSumAndMax) {
  auto c = make_coo<std::int64_t>(1, 1, {0, 0, 0}, {0, 0, 0}, {std::int64_t{1} << 40, 7, -3});
  EXPECT_EQ(coo_to_csr(c, Duplicates::Sum).val, std::vector<std::int64_t>{(std::int64_t{1} << 40) + 4});
  auto d = make_coo<std::int32_t>(1, 1, {0, 0, 0}, {0, 0, 0}, {-5, 9, 2});
  EXPECT_EQ(coo_to_csr(d, Duplicates::Max).val, std::vector<std::int32_t>{9});
}

// Against a std::map reference on random input with many duplicates, for every policy: small,
// and large enough (600K entries) for coo_to_csr to run on several threads. Values with
// fractions, so a sum in another order than the input's would differ in its last bits.
TEST(CooToCsr, MatchesReferenceOnRandomInput) {
  for (const auto [nrows, ncols, entries] : {std::tuple{300, 200, 20000}, std::tuple{50000, 40000, 600000}}) {
    std::mt19937 gen(7);
    Coo<double> c = make_coo<double>(nrows, ncols, {}, {});
    for (int k = 0; k < entries; ++k) {
      c.row.push_back(static_cast<vid_t>(gen() % nrows));
      c.col.push_back(static_cast<vid_t>(gen() % (k % 3 ? ncols : 8)));  // repeats in every row
      c.val.push_back(static_cast<double>(gen() % 1000) / 7.0);
    }
    for (auto policy : {Duplicates::Sum, Duplicates::Max, Duplicates::First}) {
      std::map<std::pair<vid_t, vid_t>, double> ref;
      for (std::size_t k = 0; k < c.row.size(); ++k) {
        auto [it, fresh] = ref.emplace(std::make_pair(c.row[k], c.col[k]), c.val[k]);
        if (fresh) continue;
        if (policy == Duplicates::Sum) it->second += c.val[k];
        if (policy == Duplicates::Max) it->second = std::max(it->second, c.val[k]);
      }
      Csr<double> expected = make_csr<double>(nrows, ncols, std::vector<eid_t>(nrows + 1, 0), {});
      for (auto& [key, v] : ref) {
        ++expected.rowptr[key.first + 1];
        expected.col.push_back(key.second);
        expected.val.push_back(v);
      }
      for (vid_t i = 0; i < nrows; ++i) expected.rowptr[i + 1] += expected.rowptr[i];
      EXPECT_TRUE(same_csr(coo_to_csr(c, policy), expected)) << entries << " entries, policy " << int(policy);
    }
    // The error names the earliest repeat of the input and the entry it repeats.
    std::map<std::pair<vid_t, vid_t>, eid_t> seen;
    eid_t first = -1, second = -1;
    for (std::size_t k = 0; k < c.row.size() && second < 0; ++k) {
      auto [it, fresh] = seen.emplace(std::make_pair(c.row[k], c.col[k]), eid_t(k));
      if (!fresh) first = it->second, second = eid_t(k);
    }
    try {
      coo_to_csr(c, Duplicates::Error);
      ADD_FAILURE() << "expected a DuplicateEntryError";
    } catch (const DuplicateEntryError& e) {
      EXPECT_EQ(e.first_position, first);
      EXPECT_EQ(e.second_position, second);
    }
  }
}

TEST(CsrToCoo, ExpandsRowsInOrder) {
  auto c = csr_to_coo(make_csr<double>(3, 4, {0, 2, 2, 3}, {1, 3, 0}, {1, 2, 3}));
  EXPECT_EQ(c.nrows, 3);
  EXPECT_EQ(c.ncols, 4);
  EXPECT_EQ(c.row, (std::vector<vid_t>{0, 0, 2}));
  EXPECT_EQ(c.col, (std::vector<vid_t>{1, 3, 0}));
  EXPECT_EQ(c.val, (std::vector<double>{1, 2, 3}));
}

}  // namespace
}  // namespace spgraph
