// C<M> = A*B against GraphBLAS for every descriptor combination: structural or valued mask,
// complemented or not, with or without replace, over an empty or a populated C.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
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
    EXPECT_EQ(info.algorithm, mc.complement ? std::string(algorithm == MxmAlgorithm::Esc ? "esc" : "complement-masked")
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

// Products A(i,k)*B(k,j) whose column j the mask allows in row i (valued: a nonzero entry).
template <class V>
eid_t products_in_mask(const Csr<V>& a, const Csr<V>& b, const Csr<V>& mask, bool structural) {
  eid_t n = 0;
  for (vid_t i = 0; i < a.nrows; ++i) {
    std::set<vid_t> held;
    for (eid_t p = mask.rowptr[i]; p < mask.rowptr[i + 1]; ++p)
      if (structural || mask.val[p] != V(0)) held.insert(mask.col[p]);
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      for (eid_t q = b.rowptr[a.col[p]]; q < b.rowptr[a.col[p] + 1]; ++q) n += held.count(b.col[q]);
  }
  return n;
}

// BFS's step F<!V> = F * A: a k x n frontier times the n x n graph, the complement of the
// visited set as mask. The products into visited columns are never formed (info.skipped counts
// them), for a valued and a structural mask, with and without replace, over an old C.
TEST(SpgemmMasked, ComplementedFrontierTimesGraph) {
  SPGRAPH_REQUIRE_GPU();
  const vid_t n = 500, k = 24;
  const auto graph = symmetrize(random_csr<std::int64_t>({.nrows = n, .ncols = n, .density = 0.02, .seed = 241,
                                                          .empty_row_every = 13, .dense_row = 11, .pattern = true}));
  const auto frontier = random_csr<std::int64_t>({.nrows = k, .ncols = n, .density = 0.03, .seed = 242,
                                                  .empty_row_every = 5, .pattern = true});
  // Visited: most of the graph in some rows, little in others; values 0 and 1, so a valued
  // mask drops some entries a structural one keeps.
  const auto visited = random_csr<std::int64_t>({.nrows = k, .ncols = n, .density = 0.6, .seed = 243,
                                                 .empty_row_every = 7, .dense_row = 3, .min_value = 0, .max_value = 1});
  const auto old_c = random_csr<std::int64_t>({.nrows = k, .ncols = n, .density = 0.05, .seed = 244});
  const eid_t all_products = gpu::count_products(gpu::Matrix<std::int64_t>::from_host(frontier),
                                                 gpu::Matrix<std::int64_t>::from_host(graph));
  for (const bool structural : {false, true})
    for (const bool replace : {false, true})
      for (const bool keep : {false, true}) {
        SCOPED_TRACE(std::string(structural ? "structural" : "valued") + (replace ? ", replace" : "") +
                     (keep ? ", over an old C" : ""));
        Descriptor d;
        d.mask_structural = structural;
        d.mask_complement = true;
        d.replace = replace;
        const auto info = expect_matches_oracle<PlusPair>(frontier, graph, {}, {}, d, &visited, keep ? &old_c : nullptr);
        EXPECT_EQ(info.algorithm, "complement-masked");
        EXPECT_EQ(info.products, all_products);
        const eid_t inside = products_in_mask(frontier, graph, visited, structural);
        EXPECT_GT(inside, 0);
        EXPECT_EQ(info.skipped, inside);
      }
}

// Every product into the mask: nothing is formed and C is empty (or the old C, outside it).
TEST(SpgemmMasked, ComplementOfAFullMaskFormsNothing) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<double>({.nrows = 60, .ncols = 40, .density = 0.1, .seed = 251});
  const auto b = random_csr<double>({.nrows = 40, .ncols = 50, .density = 0.1, .seed = 252});
  Csr<double> full;  // every position, value 1 (random_csr's sampling need not reach them all)
  full.nrows = 60;
  full.ncols = 50;
  for (vid_t i = 0; i < full.nrows; ++i) {
    for (vid_t j = 0; j < full.ncols; ++j) full.col.push_back(j);
    full.rowptr.push_back(eid_t(full.col.size()));
  }
  full.val.assign(full.col.size(), 1.0);
  Descriptor d;
  d.mask_complement = true;
  const auto info = expect_matches_oracle<PlusTimes>(a, b, {}, {}, d, &full);
  EXPECT_EQ(info.skipped, info.products);
  EXPECT_EQ(info.nnz, 0);
}

// A budget holding a fraction of the survivors' working memory: the complemented product runs
// in panels, each sized by what survives, not by the full product.
TEST(SpgemmMasked, ComplementPanelsToFitTheBudget) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = random_csr<double>({.nrows = 600, .ncols = 300, .density = 0.05, .seed = 261, .dense_row = 5});
  const auto b = random_csr<double>({.nrows = 300, .ncols = 500, .density = 0.05, .seed = 262});
  const auto mask = random_csr<double>({.nrows = 600, .ncols = 500, .density = 0.3, .seed = 263});
  const auto full = gpu_mxm<PlusTimes>(a, b);
  Descriptor d;
  d.mask_complement = true;
  // 36 bytes per surviving product of double (key, value, their sort buffers, an entry of C).
  const std::size_t budget = (a.nnz() + 2 * 600 + 4) * sizeof(eid_t) + std::size_t(full.info.products) * 36 / 8;
  const auto info =
      expect_matches_oracle<PlusTimes>(a, b, with_algorithm(MxmAlgorithm::Hash, budget), {}, d, &mask);
  EXPECT_EQ(info.algorithm, "complement-masked");
  EXPECT_GE(info.panels, 4);
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
