// C<M> = A*B against GraphBLAS for every descriptor combination: structural or valued mask,
// complemented or not, with or without replace, over an empty or a populated C.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "spgemm_test_support.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"

namespace spgraph::test {
namespace {

struct MaskCase {
  bool structural, complement, replace, old_c;
  std::string name() const {
    return std::string(structural ? "structural" : "valued") + (complement ? ", complemented" : "") +
           (replace ? ", replace" : "") + (old_c ? ", over an existing C" : ", into an empty C");
  }
};

std::vector<MaskCase> all_cases() {
  std::vector<MaskCase> cases;
  for (int bits = 0; bits < 16; ++bits) cases.push_back({bool(bits & 1), bool(bits & 2), bool(bits & 4), bool(bits & 8)});
  return cases;
}

void check_all_descriptors(MxmAlgorithm algorithm, const char* expected_uncomplemented) {
  const auto a = random_csr<std::int64_t>({.nrows = 150, .ncols = 120, .density = 0.06, .seed = 201,
                                           .empty_row_every = 10, .dense_row = 7});
  const auto b = random_csr<std::int64_t>({.nrows = 120, .ncols = 130, .density = 0.06, .seed = 202,
                                           .empty_col_every = 9});
  // Values in {-1, 0, 1}: a valued mask drops a third of its entries.
  const auto mask = random_csr<std::int64_t>({.nrows = 150, .ncols = 130, .density = 0.2, .seed = 203,
                                              .empty_row_every = 6, .dense_row = 7, .min_value = -1, .max_value = 1});
  const auto old_c = random_csr<std::int64_t>({.nrows = 150, .ncols = 130, .density = 0.1, .seed = 204});
  for (const MaskCase& mc : all_cases()) {
    SCOPED_TRACE(mc.name());
    Descriptor d;
    d.mask_structural = mc.structural;
    d.mask_complement = mc.complement;
    d.replace = mc.replace;
    const auto info = expect_matches_oracle<PlusTimes>(a, b, with_algorithm(algorithm), {}, d, &mask,
                                                       mc.old_c ? &old_c : nullptr);
    EXPECT_EQ(info.algorithm, mc.complement ? std::string(algorithm == MxmAlgorithm::Esc ? "esc" : "hash")
                                            : std::string(expected_uncomplemented));
  }
}

TEST(SpgemmMasked, EveryDescriptorHash) {
  SPGRAPH_REQUIRE_GPU();
  check_all_descriptors(MxmAlgorithm::Hash, "masked-hash");
}

TEST(SpgemmMasked, EveryDescriptorAuto) {
  SPGRAPH_REQUIRE_GPU();
  check_all_descriptors(MxmAlgorithm::Auto, "masked-hash");
}

TEST(SpgemmMasked, EveryDescriptorEsc) {
  SPGRAPH_REQUIRE_GPU();
  check_all_descriptors(MxmAlgorithm::Esc, "esc");
}

// Triangle counting's product: C<L> = L * L' with the plus-pair semiring, structural mask.
TEST(SpgemmMasked, TriangleCountingProduct) {
  SPGRAPH_REQUIRE_GPU();
  auto g = random_csr<std::int64_t>({.nrows = 400, .ncols = 400, .density = 0.05, .seed = 211, .pattern = true});
  g = lower_triangle(symmetrize(g), true);
  Descriptor d;
  d.mask_structural = true;
  d.transpose_b = true;
  const auto info = expect_matches_oracle<PlusPair>(g, g, {}, {}, d, &g);
  EXPECT_EQ(info.algorithm, "masked-hash");
}

// A budget holding a fraction of the mask's accumulators: the masked product runs in panels.
TEST(SpgemmMasked, PanelsToFitTheBudget) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<double>({.nrows = 600, .ncols = 300, .density = 0.05, .seed = 221, .dense_row = 5});
  const auto b = random_csr<double>({.nrows = 300, .ncols = 500, .density = 0.05, .seed = 222});
  const auto mask = random_csr<double>({.nrows = 600, .ncols = 500, .density = 0.1, .seed = 223});
  // 28 bytes per mask entry (accumulator, position, output entry): a fifth of the mask per panel.
  const std::size_t budget = (a.nnz() + 2) * sizeof(eid_t) + std::size_t(mask.nnz()) * 28 / 5;
  Descriptor d;
  const auto info =
      expect_matches_oracle<PlusTimes>(a, b, with_algorithm(MxmAlgorithm::Hash, budget), {}, d, &mask);
  EXPECT_EQ(info.algorithm, "masked-hash");
  EXPECT_GE(info.panels, 5);
}

TEST(SpgemmMasked, MaskOfTheWrongShapeThrows) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<double>({.nrows = 20, .ncols = 10, .seed = 231});
  const auto mask = random_csr<double>({.nrows = 20, .ncols = 11, .seed = 232});
  EXPECT_THROW(gpu_mxm<PlusTimes>(a, random_csr<double>({.nrows = 10, .ncols = 12, .seed = 233}), {}, {}, {}, &mask),
               Error);
}

}  // namespace
}  // namespace spgraph::test
