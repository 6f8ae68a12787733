// Every instantiated (semiring, value type), gpu::MxmPairs, through every path against GraphBLAS. any.secondi
// may return any valid parent, so it is checked by validity: same pattern as GraphBLAS, and
// every value k a real inner index (A(i,k) and B(k,j) exist).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <type_traits>

#include "spgemm_test_support.hpp"

namespace spgraph::test {
namespace {

template <class T>
class SpgemmSemirings : public ::testing::Test {};

template <class Tuple>
struct AsTestTypes;
template <class... Pair>
struct AsTestTypes<std::tuple<Pair...>> {
  using type = ::testing::Types<Pair...>;
};
using Combos = AsTestTypes<gpu::MxmPairs>::type;
TYPED_TEST_SUITE(SpgemmSemirings, Combos);

template <class V>
bool has_entry(const Csr<V>& m, vid_t i, vid_t j) {
  const auto first = m.col.begin() + m.rowptr[i], last = m.col.begin() + m.rowptr[i + 1];
  return std::binary_search(first, last, j);
}

template <class SR, class V>
void check(const Csr<V>& a, const Csr<V>& b, const MxmOptions& options, const gpu::SpgemmTuning& tuning = {},
           const Descriptor& desc = {}, const Csr<V>* mask = nullptr) {
  if constexpr (std::is_same_v<SR, AnySecondI>) {
    const auto got = gpu_mxm<SR>(a, b, options, tuning, desc, mask);
    const auto want = oracle_mxm<SR>(a, b, desc, mask);
    ASSERT_TRUE(same_matrix(got.c, want, false));
    for (vid_t i = 0; i < got.c.nrows; ++i)
      for (eid_t p = got.c.rowptr[i]; p < got.c.rowptr[i + 1]; ++p) {
        const auto k = static_cast<vid_t>(got.c.val[p]);
        ASSERT_TRUE(k >= 0 && k < a.ncols && has_entry(a, i, k) && has_entry(b, k, got.c.col[p]))
            << "C(" << i << ", " << got.c.col[p] << ") = " << k << " is not a parent";
      }
  } else {
    expect_matches_oracle<SR>(a, b, options, tuning, desc, mask);
  }
}

TYPED_TEST(SpgemmSemirings, EveryPathMatchesGraphBlas) {
  SPGRAPH_REQUIRE_GPU();
  using SR = typename TypeParam::SR;
  using V = typename TypeParam::V;
  const auto a = random_csr<V>({.nrows = 260, .ncols = 180, .density = 0.05, .seed = 401, .empty_row_every = 8,
                                .empty_col_every = 7, .dense_row = 9});
  const auto b = random_csr<V>({.nrows = 180, .ncols = 220, .density = 0.05, .seed = 402, .empty_row_every = 5,
                                .dense_row = 2});
  const auto mask = random_csr<V>({.nrows = 260, .ncols = 220, .density = 0.15, .seed = 403, .min_value = -1,
                                   .max_value = 1});
  {
    SCOPED_TRACE("hash");
    check<SR>(a, b, with_algorithm(MxmAlgorithm::Hash));
  }
  {
    SCOPED_TRACE("esc");
    check<SR>(a, b, with_algorithm(MxmAlgorithm::Esc));
  }
  {
    SCOPED_TRACE("global tables");
    gpu::SpgemmTuning forced;
    forced.force_global_tables = true;
    check<SR>(a, b, with_algorithm(MxmAlgorithm::Hash), forced);
  }
  {
    SCOPED_TRACE("valued mask");
    check<SR>(a, b, {}, {}, {}, &mask);
  }
  {
    SCOPED_TRACE("complemented structural mask");
    Descriptor d;
    d.mask_structural = true;
    d.mask_complement = true;
    check<SR>(a, b, {}, {}, d, &mask);
  }
  {
    SCOPED_TRACE("pattern inputs");
    Csr<V> pa = a, pb = b;
    pa.val.clear();
    pb.val.clear();
    check<SR>(pa, pb, with_algorithm(MxmAlgorithm::Hash));
  }
}

}  // namespace
}  // namespace spgraph::test
