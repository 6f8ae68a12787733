// The automatic kernel choice: the rule on given statistics (host only), the HYB split
// quantile, and the statistics the device analysis computes for a matrix with known rows.
#include "spmv_test_support.hpp"

namespace spgraph::test::spmv {
namespace {

gpu::SpmvRowStats stats(vid_t nrows, eid_t nnz, vid_t max_row, eid_t sellp_slots, vid_t ell_width, eid_t coo_nnz) {
  gpu::SpmvRowStats s;
  s.nrows = nrows;
  s.nnz = nnz;
  s.mean_row_length = nrows ? double(nnz) / nrows : 0.0;
  s.max_row_length = max_row;
  s.sellp_slots = sellp_slots;
  s.hyb_ell_width = ell_width;
  s.hyb_coo_nnz = coo_nnz;
  return s;
}

TEST(SpmvSelection, RuleFollowsTheRowLengthDistribution) {
  using K = SpmvKernel;
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(0, 0, 0, 0, 0, 0)), K::CsrVector);
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(10, 0, 0, 0, 0, 0)), K::CsrVector);
  // Small with bounded rows: classical CSR.
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(1000, 20000, 64, 25000, 18, 500)), K::CsrVector);
  // Large with bounded rows: SELL-P while its padding stays within 25%, else CSR stream.
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(1'000'000, 7'000'000, 7, 7'000'000, 7, 0)), K::SellP);
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(1'000'000, 7'000'000, 40, 9'000'000, 5, 2'000'000)), K::CsrStream);
  // Long rows: COO when small; else CSR stream while one block can walk the longest row
  // (wb-edu-like, cnr-2000, cit-Patents-like) ...
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(100'000, 600'000, 3000, 3'000'000, 5, 20'000)), K::CooLoadBalanced);
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(9'845'725, 57'156'537, 3841, 463'000'000, 2, 37'465'087)), K::CsrStream);
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(325'557, 3'216'152, 2716, 10'260'000, 1, 2'968'509)), K::CsrStream);
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(3'774'768, 16'518'948, 770, 83'600'000, 0, 16'518'948)), K::CsrStream);
  // ... else COO: more than 16384 entries in a row, and more than nnz / 2048.
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(1'000'000, 6'000'000, 16385, 30'000'000, 5, 20'000)), K::CooLoadBalanced);
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(10'000'000, 100'000'000, 48'828, 1'000'000'000, 5, 0)), K::CsrStream);
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(10'000'000, 100'000'000, 48'829, 1'000'000'000, 5, 0)), K::CooLoadBalanced);
  // Tunable thresholds.
  gpu::SpmvSelection strict;
  strict.balanced_max_row = 2;
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(1000, 20000, 64, 25000, 18, 500), strict), K::CooLoadBalanced);
  strict.small_nnz = 0;
  strict.stream_max_row = 10;
  strict.stream_max_row_share = 0;
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(1000, 20000, 64, 25000, 18, 500), strict), K::CooLoadBalanced);
  strict.stream_max_row = 64;
  EXPECT_EQ(gpu::choose_spmv_kernel(stats(1000, 20000, 64, 25000, 18, 500), strict), K::CsrStream);
}

TEST(SpmvSelection, AmbReplacesCsrStreamWhereItMovesFewerBytes) {
  using K = SpmvKernel;
  gpu::SpmvRowStats s = stats(9'845'725, 57'156'537, 3841, 463'000'000, 2, 37'465'087);
  s.amb_byte_ratio = 0.6;
  s.value_size = 8;
  EXPECT_EQ(gpu::choose_spmv_kernel(s), K::CsrStream) << "columns not counted yet";
  s.columns_counted = true;
  EXPECT_EQ(gpu::choose_spmv_kernel(s), K::Amb);
  s.value_size = 4;  // float: CSR stream (AMB measured slower there)
  EXPECT_EQ(gpu::choose_spmv_kernel(s), K::CsrStream);
  s.value_size = 8;
  s.amb_byte_ratio = 0.95;
  EXPECT_EQ(gpu::choose_spmv_kernel(s), K::CsrStream);
  gpu::SpmvSelection lenient;
  lenient.amb_max_byte_ratio = 1.0;
  EXPECT_EQ(gpu::choose_spmv_kernel(s, lenient), K::Amb);
  // Only in CSR stream's place: SELL-P and COO picks stay.
  gpu::SpmvRowStats sellp = stats(1'000'000, 7'000'000, 7, 7'000'000, 7, 0);
  sellp.amb_byte_ratio = 0.5;
  sellp.columns_counted = true;
  sellp.value_size = 8;
  EXPECT_EQ(gpu::choose_spmv_kernel(sellp), K::SellP);
  gpu::SpmvRowStats coo = stats(100'000, 600'000, 3000, 3'000'000, 5, 20'000);
  coo.amb_byte_ratio = 0.5;
  coo.columns_counted = true;
  coo.value_size = 8;
  EXPECT_EQ(gpu::choose_spmv_kernel(coo), K::CooLoadBalanced);
}

TEST(SpmvSelection, HybSplitIsTheMemoryOptimalQuantile) {
  EXPECT_DOUBLE_EQ(gpu::hyb_split_quantile(8), 0.25);       // double: 4 / (8 + 8)
  EXPECT_DOUBLE_EQ(gpu::hyb_split_quantile(4), 1.0 / 3.0);  // float:  4 / (4 + 8)
  EXPECT_DOUBLE_EQ(gpu::hyb_split_quantile(0), 0.5);        // pattern: the median
  EXPECT_DOUBLE_EQ(gpu::hyb_split_quantile(8, 8), 1.0 / 3.0);
}

TEST(SpmvSelection, KernelNames) {
  EXPECT_STREQ(gpu::spmv_kernel_name(SpmvKernel::CsrVector), "csr-vector");
  EXPECT_STREQ(gpu::spmv_kernel_name(SpmvKernel::CsrMergePath), "csr-merge-path");
  EXPECT_STREQ(gpu::spmv_kernel_name(SpmvKernel::CsrStream), "csr-stream");
  EXPECT_STREQ(gpu::spmv_kernel_name(SpmvKernel::CooLoadBalanced), "coo-load-balanced");
  EXPECT_STREQ(gpu::spmv_kernel_name(SpmvKernel::SellP), "sell-p");
  EXPECT_STREQ(gpu::spmv_kernel_name(SpmvKernel::Hyb), "hyb");
  EXPECT_STREQ(gpu::spmv_kernel_name(SpmvKernel::Amb), "amb");
}

// Rows of lengths 9, 0, 1, ..., 8 (10 x 10): one SELL-P slice 9 wide; sorted lengths 0..9.
Csr<double> rows_zero_to_nine() {
  std::vector<eid_t> lengths{9, 0, 1, 2, 3, 4, 5, 6, 7, 8};
  std::mt19937_64 rng(5);
  return random_csr(10, lengths, rng);
}

template <class V>
void expect_stats(const Csr<double>& host, vid_t ell_width, eid_t coo_nnz) {
  const auto a = gpu::Matrix<V>::from_host(convert_values<V>(host));
  const gpu::SpmvRowStats& s = gpu::spmv_row_stats(a);
  EXPECT_EQ(s.nrows, 10);
  EXPECT_EQ(s.nnz, 45);
  EXPECT_DOUBLE_EQ(s.mean_row_length, 4.5);
  EXPECT_EQ(s.max_row_length, 9);
  EXPECT_EQ(s.sellp_slots, 32 * 9);
  EXPECT_EQ(s.hyb_ell_width, ell_width);
  EXPECT_EQ(s.hyb_coo_nnz, coo_nnz);
  EXPECT_TRUE(s.columns_counted);
  EXPECT_EQ(s.amb_segments, 9);  // one column tile: a segment per non-empty row
  EXPECT_EQ(gpu::choose_spmv_kernel(a), gpu::choose_spmv_kernel(s));
}

// Q_R(q) is the sorted length at floor(10 q); COO keeps sum(max(0, r - t)).
TEST(SpmvSelection, DeviceStatisticsOfKnownRows) {
  SPGRAPH_REQUIRE_GPU();
  const Csr<double> a = rows_zero_to_nine();
  expect_stats<double>(a, 2, 28);               // q = 1/4: t = 2, COO 1 + 2 + ... + 7
  expect_stats<float>(a, 3, 21);                // q = 1/3: t = 3, COO 1 + ... + 6
  expect_stats<double>(drop_values(a), 5, 10);  // q = 1/2: t = 5, COO 1 + 2 + 3 + 4
}

TEST(SpmvSelection, AutomaticChoiceOnTheZooAndPrepare) {
  SPGRAPH_REQUIRE_GPU();
  std::mt19937_64 rng(9);
  for (const NamedMatrix& m : shape_zoo()) {
    const auto a = gpu::Matrix<double>::from_host(m.matrix);
    const SpmvKernel chosen = gpu::choose_spmv_kernel(a);
    if (m.name.find("200k") != std::string::npos) {
      EXPECT_EQ(chosen, SpmvKernel::CooLoadBalanced) << m.name;
    }
    if (m.name.find("20 rows of 3000") != std::string::npos) {
      EXPECT_EQ(chosen, SpmvKernel::CooLoadBalanced) << m.name;  // small, long rows
    }
    if (m.name.find("60% empty") != std::string::npos) {
      EXPECT_EQ(chosen, SpmvKernel::CsrVector) << m.name;
    }
    // Auto after prepare runs the chosen kernel (every kernel's result is the same on these
    // dyadic values, so the kernel that ran is what shows the dispatch) and gives its result.
    gpu::prepare_spmv(a, SpmvKernel::Auto);
    const std::vector<double> x = random_vector(std::size_t(m.matrix.ncols), rng);
    const std::vector<double> y_old(std::size_t(m.matrix.nrows), 0.0);
    const auto automatic = gpu_product<PlusTimes, double>(Op::Mxv, a, x, nullptr, y_old, {}, SpmvKernel::Auto);
    if (m.matrix.nrows > 0) EXPECT_EQ(gpu::last_spmv_kernel(), chosen) << m.name;
    const auto explicit_choice = gpu_product<PlusTimes, double>(Op::Mxv, a, x, nullptr, y_old, {}, chosen);
    EXPECT_EQ(automatic, explicit_choice) << m.name << " (dyadic values: exact in any order)";
    // An explicit kernel runs as asked, and vxm's Auto picks for A'.
    for (const SpmvKernel k : kKernels) {
      gpu_product<PlusTimes, double>(Op::Mxv, a, x, nullptr, y_old, {}, k);
      if (m.matrix.nrows > 0) EXPECT_EQ(gpu::last_spmv_kernel(), k) << m.name;
    }
    const std::vector<double> xt = random_vector(std::size_t(m.matrix.nrows), rng);
    gpu_product<PlusTimes, double>(Op::Vxm, a, xt, nullptr, std::vector<double>(std::size_t(m.matrix.ncols), 0.0), {},
                                   SpmvKernel::Auto);
    if (m.matrix.ncols > 0) EXPECT_EQ(gpu::last_spmv_kernel(), gpu::choose_spmv_kernel(gpu::spmv_transpose(a))) << m.name;
  }
}

}  // namespace
}  // namespace spgraph::test::spmv
