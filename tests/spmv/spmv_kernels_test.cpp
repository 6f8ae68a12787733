// Every SpMV kernel x semiring x {float, double} x {valued, pattern} x {mxv, vxm} on the
// shape zoo (spmv_test_support.hpp), against the graphblas backend; any.secondi for validity.
#include "spmv_test_support.hpp"
#include "gpu/spmv/spmv_formats.hpp"

namespace spgraph::test::spmv {
namespace {

template <class SR, class V>
void check_semiring_on_zoo() {
  std::mt19937_64 rng(7);
  for (const NamedMatrix& m : shape_zoo()) {
    for (bool pattern : {false, true}) {
      const Csr<double> a = pattern ? drop_values(m.matrix) : m.matrix;
      const Csr<double> at = transpose(a);
      const auto ga = gpu::Matrix<V>::from_host(convert_values<V>(a));
      const std::string what = m.name + (pattern ? " (pattern)" : " (valued)");
      for (Op op : {Op::Mxv, Op::Vxm}) check_kernels<SR, V>(op, a, at, ga, nullptr, Descriptor{}, rng, what);
    }
  }
}

template <class V>
class SpmvKernels : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SpmvKernels, ValueTypes);

TYPED_TEST(SpmvKernels, PlusTimes) {
  SPGRAPH_REQUIRE_GPU();
  check_semiring_on_zoo<PlusTimes, TypeParam>();
}
TYPED_TEST(SpmvKernels, PlusSecond) {
  SPGRAPH_REQUIRE_GPU();
  check_semiring_on_zoo<PlusSecond, TypeParam>();
}
TYPED_TEST(SpmvKernels, PlusFirst) {
  SPGRAPH_REQUIRE_GPU();
  check_semiring_on_zoo<PlusFirst, TypeParam>();
}
TYPED_TEST(SpmvKernels, MinPlus) {
  SPGRAPH_REQUIRE_GPU();
  check_semiring_on_zoo<MinPlus, TypeParam>();
}
TYPED_TEST(SpmvKernels, MaxTimes) {
  SPGRAPH_REQUIRE_GPU();
  check_semiring_on_zoo<MaxTimes, TypeParam>();
}
TYPED_TEST(SpmvKernels, OrAnd) {
  SPGRAPH_REQUIRE_GPU();
  check_semiring_on_zoo<OrAnd, TypeParam>();
}
TYPED_TEST(SpmvKernels, PlusPair) {
  SPGRAPH_REQUIRE_GPU();
  check_semiring_on_zoo<PlusPair, TypeParam>();
}
TYPED_TEST(SpmvKernels, AnySecondI) {
  SPGRAPH_REQUIRE_GPU();
  check_semiring_on_zoo<AnySecondI, TypeParam>();
}

// CSR stream stages more entries a thread when x exceeds half the L2 (gpu/spmv.hpp); the zoo's
// x vectors are far smaller, so this matrix is as wide as it takes. Its rows: short ones, empty
// ones, and one longer than a tile, which the whole block sums from global memory.
TEST(SpmvKernelsWideX, CsrStreamTakesTheWideStage) {
  SPGRAPH_REQUIRE_GPU();
  const std::size_t l2 = device::l2_cache_bytes();
  const vid_t ncols = vid_t(l2 / 2 / sizeof(float) + 4099);
  ASSERT_EQ((gpu::detail::stream_items_per_thread<float, true>(ncols)),
            gpu::detail::kStreamItemsPerThreadWide);
  std::mt19937_64 rng(11);
  std::vector<eid_t> lengths(30000);
  for (auto& l : lengths) {
    l = std::uniform_int_distribution<int>(0, 15)(rng);
    if (l > 12) l = 0;  // about a fifth of the rows empty
  }
  lengths[17777] = 5000;
  const Csr<double> valued = random_csr(ncols, lengths, rng);
  for (bool pattern : {false, true}) {
    const Csr<double> a = pattern ? drop_values(valued) : valued;
    const auto ga = gpu::Matrix<float>::from_host(convert_values<float>(a));
    const std::string what = std::string("30000x") + std::to_string(ncols) + (pattern ? " (pattern)" : " (valued)");
    check_kernels<PlusTimes, float>(Op::Mxv, a, Csr<double>{}, ga, nullptr, Descriptor{}, rng, what);
    check_kernels<MinPlus, float>(Op::Mxv, a, Csr<double>{}, ga, nullptr, Descriptor{}, rng, what);
  }
}

}  // namespace
}  // namespace spgraph::test::spmv
