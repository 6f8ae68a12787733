// ESC SpGEMM against GraphBLAS, whole and in budget-sized row slices.
#include <gtest/gtest.h>

#include <cstdint>

#include "spgemm_test_support.hpp"

namespace spgraph::test {
namespace {

const MxmOptions kEsc = with_algorithm(MxmAlgorithm::Esc);

TEST(SpgemmEsc, RectangularWithEmptyRowsColumnsAndADenseRow) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<std::int64_t>({.nrows = 300, .ncols = 200, .density = 0.05, .seed = 111,
                                           .empty_row_every = 7, .empty_col_every = 5, .dense_row = 17});
  const auto b = random_csr<std::int64_t>({.nrows = 200, .ncols = 250, .density = 0.04, .seed = 112,
                                           .empty_row_every = 9, .empty_col_every = 6, .dense_row = 3});
  const auto info = expect_matches_oracle<PlusTimes>(a, b, kEsc);
  EXPECT_EQ(info.algorithm, "esc");
  EXPECT_EQ(info.panels, 1);
}

// A budget that holds about a tenth of the expansion: the product runs in slices.
TEST(SpgemmEsc, SlicesToFitTheBudget) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<double>({.nrows = 500, .ncols = 400, .density = 0.05, .seed = 121, .dense_row = 50});
  const auto b = random_csr<double>({.nrows = 400, .ncols = 450, .density = 0.05, .seed = 122});
  const auto ga = gpu::Matrix<double>::from_host(a), gb = gpu::Matrix<double>::from_host(b);
  const eid_t products = gpu::count_products(ga, gb);
  const std::size_t budget = 64 * 1024 + std::size_t(products) * 40 / 10;
  const auto info = expect_matches_oracle<MinPlus>(a, b, with_algorithm(MxmAlgorithm::Esc, budget));
  EXPECT_GT(info.panels, 5);
}

// Wide matrices use more key bits than the row index alone; the single-column case none.
TEST(SpgemmEsc, KeyWidthExtremes) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<std::int32_t>({.nrows = 40, .ncols = 30, .density = 0.2, .seed = 131});
  const auto wide = random_csr<std::int32_t>({.nrows = 30, .ncols = 1 << 30, .density = 20.0 / (1 << 30), .seed = 132});
  expect_matches_oracle<PlusTimes>(a, wide, kEsc);
  const auto column = random_csr<std::int32_t>({.nrows = 30, .ncols = 1, .density = 0.5, .seed = 133});
  expect_matches_oracle<PlusTimes>(a, column, kEsc);
}

}  // namespace
}  // namespace spgraph::test
