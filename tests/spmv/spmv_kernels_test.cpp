// Every SpMV kernel x semiring x {float, double} x {valued, pattern} x {mxv, vxm} on the
// shape zoo (spmv_test_support.hpp), against the graphblas backend; any.secondi for validity.
#include "spmv_test_support.hpp"

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

}  // namespace
}  // namespace spgraph::test::spmv
