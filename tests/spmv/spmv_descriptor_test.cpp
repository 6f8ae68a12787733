// Masks (valued, structural, complemented, none with complement, each with and without
// replace) and the transposing descriptors, on every kernel, against the graphblas backend.
#include "spmv_test_support.hpp"

namespace spgraph::test::spmv {
namespace {

struct MaskCase {
  std::string name;
  bool has_mask;
  Descriptor desc;
};

std::vector<MaskCase> mask_cases() {
  std::vector<MaskCase> cases;
  for (bool replace : {false, true}) {
    const std::string suffix = replace ? ", replace" : "";
    auto add = [&](const std::string& name, bool has_mask, bool structural, bool complement) {
      Descriptor d;
      d.mask_structural = structural;
      d.mask_complement = complement;
      d.replace = replace;
      cases.push_back({name + suffix, has_mask, d});
    };
    add("valued mask", true, false, false);
    add("complemented valued mask", true, false, true);
    add("structural mask", true, true, false);
    add("complemented structural mask", true, true, true);
    add("no mask, complemented", false, false, true);
    add("no mask", false, false, false);
  }
  return cases;
}

// Matrices with empty rows, power-law rows and a rectangular shape.
std::vector<const NamedMatrix*> mask_matrices() {
  std::vector<const NamedMatrix*> out;
  for (const NamedMatrix& m : shape_zoo())
    if (m.name.find("empty rows") != std::string::npos || m.name.find("power-law") != std::string::npos ||
        m.name == "300x5000")
      out.push_back(&m);
  return out;
}

template <class SR, class V>
void check_masks(bool transposed) {
  std::mt19937_64 rng(11);
  const auto matrices = mask_matrices();
  ASSERT_EQ(matrices.size(), 3u);
  for (const NamedMatrix* m : matrices) {
    const Csr<double>& a = m->matrix;
    const Csr<double> at = transpose(a);
    const auto ga = gpu::Matrix<V>::from_host(convert_values<V>(a));
    for (Op op : {Op::Mxv, Op::Vxm}) {
      for (MaskCase c : mask_cases()) {
        (op == Op::Mxv ? c.desc.transpose_a : c.desc.transpose_b) = transposed;
        const vid_t out_len = operand_rows(op, c.desc, a, at).nrows;
        const std::vector<double> mask = random_mask(std::size_t(out_len), rng);
        check_kernels<SR, V>(op, a, at, ga, c.has_mask ? &mask : nullptr, c.desc, rng,
                             m->name + ", " + c.name + (transposed ? ", transposed" : ""));
      }
    }
  }
}

template <class V>
class SpmvMasks : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SpmvMasks, ValueTypes);

TYPED_TEST(SpmvMasks, PlusTimes) {
  SPGRAPH_REQUIRE_GPU();
  check_masks<PlusTimes, TypeParam>(false);
}
TYPED_TEST(SpmvMasks, MinPlus) {
  SPGRAPH_REQUIRE_GPU();
  check_masks<MinPlus, TypeParam>(false);
}
TYPED_TEST(SpmvMasks, OrAnd) {
  SPGRAPH_REQUIRE_GPU();
  check_masks<OrAnd, TypeParam>(false);
}
TYPED_TEST(SpmvMasks, AnySecondI) {
  SPGRAPH_REQUIRE_GPU();
  check_masks<AnySecondI, TypeParam>(false);
}
// mxv with transpose_a multiplies by A', vxm with transpose_b by A (GraphBLAS's numbering).
TYPED_TEST(SpmvMasks, TransposedMatrixPlusTimes) {
  SPGRAPH_REQUIRE_GPU();
  check_masks<PlusTimes, TypeParam>(true);
}
TYPED_TEST(SpmvMasks, TransposedMatrixPlusFirst) {
  SPGRAPH_REQUIRE_GPU();
  check_masks<PlusFirst, TypeParam>(true);
}

}  // namespace
}  // namespace spgraph::test::spmv
