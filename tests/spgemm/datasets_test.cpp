// A*A on real graphs against GraphBLAS, and a product past 2^31 intermediate products.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "spgemm_test_support.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/load_graph.hpp"

namespace spgraph::test {
namespace {

class SpgemmSmallGraphs : public ::testing::TestWithParam<const char*> {};

TEST_P(SpgemmSmallGraphs, SquareMatchesGraphBlas) {
  SPGRAPH_REQUIRE_GPU();
  const Csr<double> a = io::load_graph(dataset(std::string("small/") + GetParam())).matrix;
  if (a.nrows != a.ncols) GTEST_SKIP() << "not square";
  expect_matches_oracle<PlusTimes>(a, a, with_algorithm(MxmAlgorithm::Hash));
  expect_matches_oracle<PlusTimes>(a, a, with_algorithm(MxmAlgorithm::Esc));
  const Csr<std::int64_t> p = drop_values(convert_values<std::int64_t>(a));
  expect_matches_oracle<PlusPair>(p, p, with_algorithm(MxmAlgorithm::Hash));
  Descriptor d;
  d.transpose_b = true;
  expect_matches_oracle<PlusTimes>(a, a, with_algorithm(MxmAlgorithm::Hash), {}, d);
}

INSTANTIATE_TEST_SUITE_P(Datasets, SpgemmSmallGraphs,
                         ::testing::Values("karate.mtx", "west0067.mtx", "jagmesh7.mtx", "bcsstk13.mtx",
                                           "dolphins.mtx", "polbooks.mtx", "netscience.mtx", "hep-th.mtx",
                                           "zenios.mtx", "LFAT5.mtx"),
                         GraphFileTestName{});

// cnr-2000 (325k vertices, 3.2M links, crawl order): rows of thousands of entries next to
// near-empty ones; hash, ESC and the forced global tables all against GraphBLAS.
TEST(SpgemmRealGraphs, Cnr2000Square) {
  SPGRAPH_REQUIRE_GPU();
  const std::string path = shared_dataset("real/cnr-2000.mtx.gz");
  SPGRAPH_REQUIRE_SHARED_DATASET(path);
  const Csr<double> a = io::load_graph(path).matrix;
  const Csr<double> want = oracle_mxm<PlusTimes>(a, a);
  const auto magnitudes = oracle_magnitudes<PlusTimes>(a, a);
  const auto hash = gpu_mxm<PlusTimes>(a, a, with_algorithm(MxmAlgorithm::Hash));
  EXPECT_TRUE(same_matrix(hash.c, want, true, magnitudes));
  EXPECT_EQ(hash.info.nnz, want.nnz());
  gpu::SpgemmTuning forced;
  forced.force_global_tables = true;
  EXPECT_TRUE(same_matrix(gpu_mxm<PlusTimes>(a, a, with_algorithm(MxmAlgorithm::Hash), forced).c, want, true,
                          magnitudes));
  EXPECT_TRUE(same_matrix(gpu_mxm<PlusTimes>(a, a, with_algorithm(MxmAlgorithm::Esc)).c, want, true, magnitudes));
}

// 600000 rows in dense 64 x 64 diagonal blocks: A*A has 600000 * 64 * 64 = 2.46e9 products,
// past 2^31, and equals A's pattern with every value 64 (plus-pair).
TEST(SpgemmRealGraphs, ProductsPast32Bits) {
  SPGRAPH_REQUIRE_GPU();
  const vid_t n = 600000, block = 64;
  Csr<std::int64_t> a;
  a.nrows = a.ncols = n;
  a.rowptr.resize(std::size_t(n) + 1);
  a.col.reserve(std::size_t(n) * block);
  for (vid_t i = 0; i < n; ++i) {
    const vid_t first = i / block * block;
    for (vid_t j = first; j < first + block; ++j) a.col.push_back(j);
    a.rowptr[i + 1] = static_cast<eid_t>(a.col.size());
  }
  const auto ga = gpu::Matrix<std::int64_t>::from_host(a);
  gpu::Matrix<std::int64_t> c;
  const auto info = gpu::mxm(c, nullptr, ga, ga, PlusPair{});
  EXPECT_EQ(info.products, eid_t(n) * block * block);
  EXPECT_GT(info.products, eid_t(1) << 31);
  const Csr<std::int64_t> got = c.to_host();
  ASSERT_EQ(got.rowptr, a.rowptr);
  ASSERT_EQ(got.col, a.col);
  for (std::size_t p = 0; p < got.val.size(); ++p) ASSERT_EQ(got.val[p], block) << "entry " << p;
}

}  // namespace
}  // namespace spgraph::test
