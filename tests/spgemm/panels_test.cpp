// Row panels: a small memory budget splits C into panels with the same result, mxm_panels hands
// them over in order, a budget too small for one row is a ResourceError naming it, and a
// device memory limit bounds the default budget.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "spgemm_test_support.hpp"
#include "spgraph/error.hpp"

namespace spgraph::test {
namespace {

Csr<double> panel_a() {
  return random_csr<double>({.nrows = 700, .ncols = 400, .density = 0.04, .seed = 301, .empty_row_every = 13,
                             .dense_row = 33});
}
Csr<double> panel_b() { return random_csr<double>({.nrows = 400, .ncols = 600, .density = 0.04, .seed = 302}); }

// Bytes of C (12 per entry for double) plus its row offsets.
std::size_t output_bytes(const Csr<double>& c) { return std::size_t(c.nnz()) * 12 + (c.nrows + 1) * 8; }

// Per-row bookkeeping of the hash path, which the budget must hold first (spgemm_impl.cuh).
std::size_t hash_bookkeeping(vid_t rows) { return std::size_t(rows) * 29 + 8; }

TEST(SpgemmPanels, SmallBudgetSplitsTheHashProduct) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = panel_a(), b = panel_b();
  const auto want = oracle_mxm<PlusTimes>(a, b);
  const std::size_t budget = hash_bookkeeping(a.nrows) + output_bytes(want) / 6;
  for (const bool force_global : {false, true}) {
    SCOPED_TRACE(force_global ? "global tables" : "shared-memory tables");
    gpu::SpgemmTuning tuning;
    tuning.force_global_tables = force_global;
    const auto got = gpu_mxm<PlusTimes>(a, b, with_algorithm(MxmAlgorithm::Hash, budget), tuning);
    EXPECT_TRUE(same_matrix(got.c, want));
    EXPECT_GE(got.info.panels, force_global ? 7 : 6);  // the global tables take half of the room
  }
}

TEST(SpgemmPanels, SmallBudgetSplitsTheEscProduct) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = panel_a(), b = panel_b();
  const auto want = oracle_mxm<MinPlus>(a, b);
  const auto ga = gpu::Matrix<double>::from_host(a), gb = gpu::Matrix<double>::from_host(b);
  const std::size_t budget = std::size_t(gpu::count_products(ga, gb)) * 32 / 4;  // a quarter of the expansion
  const auto got = gpu_mxm<MinPlus>(a, b, with_algorithm(MxmAlgorithm::Esc, budget));
  EXPECT_TRUE(same_matrix(got.c, want));
  EXPECT_GE(got.info.panels, 4);
}

// Restores "no device memory limit" when a test ends, however it ends.
struct MemoryLimit {
  explicit MemoryLimit(std::size_t bytes) { device::set_memory_limit(bytes); }
  ~MemoryLimit() { device::set_memory_limit(std::nullopt); }
};

// mxm_panels: panels come in row order, cover every row once, and together are C. The budget
// is explicit, or (under_limit) the default one below a device memory limit of that much more
// than the inputs take.
void check_panels(MxmAlgorithm algorithm, bool under_limit = false) {
  const auto a = panel_a(), b = panel_b();
  const auto want = oracle_mxm<PlusTimes>(a, b);
  const auto ga = gpu::Matrix<double>::from_host(a), gb = gpu::Matrix<double>::from_host(b);
  const std::size_t room = algorithm == MxmAlgorithm::Esc ? std::size_t(gpu::count_products(ga, gb)) * 32 / 3
                                                          : hash_bookkeeping(a.nrows) + output_bytes(want) / 4;
  std::optional<MemoryLimit> limit;
  if (under_limit) {
    limit.emplace(device::memory_stats().current + room);
    EXPECT_LE(device::available_memory(), room);
  }
  const std::size_t budget = under_limit ? 0 : room;
  Csr<double> joined;
  joined.nrows = 0;
  joined.ncols = b.ncols;
  int calls = 0;
  const auto info = gpu::mxm_panels(ga, gb, PlusTimes{}, with_algorithm(algorithm, budget),
                                    [&](vid_t first_row, gpu::Matrix<double>&& panel) {
                                      ++calls;
                                      EXPECT_EQ(first_row, joined.nrows);
                                      EXPECT_EQ(panel.ncols(), b.ncols);
                                      const Csr<double> p = panel.to_host();
                                      for (vid_t i = 0; i < p.nrows; ++i) {
                                        for (eid_t q = p.rowptr[i]; q < p.rowptr[i + 1]; ++q) {
                                          joined.col.push_back(p.col[q]);
                                          joined.val.push_back(p.val[q]);
                                        }
                                        joined.rowptr.push_back(static_cast<eid_t>(joined.col.size()));
                                      }
                                      joined.nrows += p.nrows;
                                    });
  EXPECT_EQ(calls, info.panels);
  EXPECT_GE(info.panels, 3);
  EXPECT_EQ(info.nnz, want.nnz());
  EXPECT_TRUE(same_matrix(joined, want));
}

TEST(SpgemmPanels, MxmPanelsHash) {
  SPGRAPH_REQUIRE_GPU();
  check_panels(MxmAlgorithm::Hash);
}

TEST(SpgemmPanels, MxmPanelsEsc) {
  SPGRAPH_REQUIRE_GPU();
  check_panels(MxmAlgorithm::Esc);
}

TEST(SpgemmPanels, OnePanelWhenEverythingFits) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = panel_a(), b = panel_b();
  const auto ga = gpu::Matrix<double>::from_host(a), gb = gpu::Matrix<double>::from_host(b);
  int calls = 0;
  const auto info = gpu::mxm_panels(ga, gb, PlusTimes{}, {}, [&](vid_t first, gpu::Matrix<double>&& panel) {
    ++calls;
    EXPECT_EQ(first, 0);
    EXPECT_EQ(panel.nrows(), a.nrows);
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(info.panels, 1);
}

// Row 0 of C is dense (100000 columns, 1.2 MB of double): a 200 KB budget holds the
// bookkeeping but not that row.
TEST(SpgemmPanels, BudgetTooSmallForOneRowNamesTheRow) {
  SPGRAPH_REQUIRE_GPU();
  const vid_t wide = 100000;
  Csr<double> a;
  a.nrows = 50;
  a.ncols = 50;
  a.rowptr.assign(51, 1);
  a.rowptr[0] = 0;
  a.col = {0};
  a.val = {2.0};
  const auto b = random_csr<double>({.nrows = 50, .ncols = wide, .density = 0.01, .seed = 311, .dense_row = 0});
  for (const MxmAlgorithm algorithm : {MxmAlgorithm::Hash, MxmAlgorithm::Esc}) {
    try {
      gpu_mxm<PlusTimes>(a, b, with_algorithm(algorithm, 200 * 1024));
      ADD_FAILURE() << "expected a ResourceError";
    } catch (const ResourceError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("row 0"), std::string::npos) << what;
      EXPECT_NE(what.find("memory budget"), std::string::npos) << what;
    }
  }
}

// Under a device memory limit (SPGRAPH_GPU_MEMORY_LIMIT or set_memory_limit) the default
// budget is what is left below it, so panels handed over one at a time keep to it. (mxm's C
// itself, the result asked for, must still fit.)
TEST(SpgemmPanels, DeviceMemoryLimitBoundsTheDefaultBudget) {
  SPGRAPH_REQUIRE_GPU();
  check_panels(MxmAlgorithm::Hash, true);
  check_panels(MxmAlgorithm::Esc, true);
}

// A C that cannot fit on the device at all (here: below a device memory limit that holds the
// bookkeeping and half of C): mxm says so with C's size and points to mxm_panels, rather than
// naming a row and a budget to raise; mxm_panels computes it under the same limit.
TEST(SpgemmPanels, OutputLargerThanTheDeviceNamesItAndPointsToPanels) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = panel_a(), b = panel_b();
  const auto want = oracle_mxm<PlusTimes>(a, b);
  const auto ga = gpu::Matrix<double>::from_host(a), gb = gpu::Matrix<double>::from_host(b);
  // The larger (ESC) bookkeeping: per row and per entry of A.
  const std::size_t bookkeeping = hash_bookkeeping(a.nrows) + std::size_t(a.nnz() + a.nrows + 2) * 8;
  const MemoryLimit limit(device::memory_stats().current + bookkeeping + output_bytes(want) / 2);
  for (const MxmAlgorithm algorithm : {MxmAlgorithm::Hash, MxmAlgorithm::Esc}) {
    SCOPED_TRACE(algorithm == MxmAlgorithm::Hash ? "hash" : "esc");
    gpu::Matrix<double> c;
    try {
      gpu::mxm(c, nullptr, ga, gb, PlusTimes{}, {}, with_algorithm(algorithm, 0));
      ADD_FAILURE() << "expected a ResourceError";
    } catch (const ResourceError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("C has " + std::to_string(want.nnz()) + " nonzeros"), std::string::npos) << what;
      EXPECT_NE(what.find(device::format_bytes(output_bytes(want))), std::string::npos) << what;
      EXPECT_NE(what.find("gpu::mxm_panels"), std::string::npos) << what;
      EXPECT_EQ(what.find("raise MxmOptions::memory_budget"), std::string::npos) << what;
    }
    eid_t nnz = 0;
    const auto info = gpu::mxm_panels(ga, gb, PlusTimes{}, with_algorithm(algorithm, 0),
                                      [&](vid_t, gpu::Matrix<double>&& panel) { nnz += panel.nnz(); });
    EXPECT_EQ(nnz, want.nnz());
    EXPECT_GE(info.panels, 2);
  }
}

TEST(SpgemmPanels, AllocationPastTheDeviceMemoryLimitNamesIt) {
  SPGRAPH_REQUIRE_GPU();
  const MemoryLimit limit(device::memory_stats().current + (std::size_t(1) << 20));
  EXPECT_NO_THROW(device::Buffer<char>(std::size_t(1) << 19));
  try {
    device::Buffer<char> too_big(std::size_t(3) << 20);
    ADD_FAILURE() << "expected a ResourceError";
  } catch (const ResourceError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("could not allocate 3.00 MiB"), std::string::npos) << what;
    EXPECT_NE(what.find("limit of"), std::string::npos) << what;
    EXPECT_NE(what.find("set_memory_limit"), std::string::npos) << what;
  }
}

TEST(SpgemmPanels, BudgetTooSmallForTheBookkeepingThrows) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = panel_a(), b = panel_b();
  EXPECT_THROW(gpu_mxm<PlusTimes>(a, b, with_algorithm(MxmAlgorithm::Hash, 1000)), ResourceError);
}

}  // namespace
}  // namespace spgraph::test
