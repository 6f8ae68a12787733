// mxv and vxm on int32, int64, bool and 64-bit words (gpu/spmv.hpp's instantiations beyond
// float and double), every kernel against the graphblas backend over the same value type:
// random shapes and real graphs, with masks and descriptors. Integer and bitwise results are
// exact, so they must be equal; any.secondi is checked for validity (any parent will do).
// Also: the bit-parallel BFS step (64 frontiers as the bits of a word) and the no-parent marker.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "spgraph/graph_ops.hpp"
#include "spgraph/io/load_graph.hpp"
#include "spmv_test_support.hpp"

namespace spgraph::test::spmv {
namespace {

template <class V>
std::vector<V> random_values(std::size_t n, std::mt19937_64& rng) {
  std::vector<V> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<V, bool>) v[i] = rng() % 2 == 0;
    else if constexpr (std::is_unsigned_v<V>) v[i] = V(rng());  // every bit random
    else v[i] = V(std::int64_t(rng() % 7) - 3);
  }
  return v;
}

template <class V>
Csr<V> with_random_values(Csr<V> a, std::mt19937_64& rng) {
  a.val = random_values<V>(a.col.size(), rng);
  return a;
}

// y<mask> = A x (or x' A) by GraphBLAS over V.
template <class SR, class V>
std::vector<V> oracle(Op op, const Csr<V>& a, const std::vector<V>& x, const std::vector<V>* mask,
                      const std::vector<V>& y_old, const Descriptor& d) {
  gb::Vector<V> y = gb::from_host(y_old);
  const gb::Matrix<V> ga = gb::from_host(a);
  const gb::Vector<V> gx = gb::from_host(x);
  gb::Vector<V> gm;
  if (mask) gm = gb::from_host(*mask);
  if (op == Op::Mxv) gb::mxv(y, mask ? &gm : nullptr, ga, gx, SR{}, d);
  else gb::vxm(y, mask ? &gm : nullptr, gx, ga, SR{}, d);
  return gb::to_host(y);
}

template <class SR, class V>
std::vector<V> gpu_run(Op op, const gpu::Matrix<V>& a, const std::vector<V>& x, const std::vector<V>* mask,
                       const std::vector<V>& y_old, const Descriptor& d, SpmvKernel kernel) {
  gpu::Vector<V> dx, dm, dy;
  dx.upload(x);
  dy.upload(y_old);
  if (mask) dm.upload(*mask);
  SpmvOptions options;
  options.kernel = kernel;
  if (op == Op::Mxv) gpu::mxv(dy, mask ? &dm : nullptr, a, dx, SR{}, d, options);
  else gpu::vxm(dy, mask ? &dm : nullptr, dx, a, SR{}, d, options);
  return dy.download();
}

// any.secondi: y[i] is the column of an entry of the operand's row i, the no-parent marker
// where that row is empty, y_old or the marker where the mask does not allow i.
template <class V>
void expect_valid_parents(const std::vector<V>& got, const Csr<V>& rows, const std::vector<V>* mask,
                          const std::vector<V>& y_old, const Descriptor& d, const std::string& what) {
  constexpr V none = AnySecondI::identity<V>();
  ASSERT_EQ(got.size(), std::size_t(rows.nrows)) << what;
  for (vid_t i = 0; i < rows.nrows; ++i) {
    const bool allowed = !mask ? !d.mask_complement : ((d.mask_structural || (*mask)[i] != V(0)) != d.mask_complement);
    const auto begin = rows.col.begin() + rows.rowptr[i], end = rows.col.begin() + rows.rowptr[i + 1];
    if (!allowed) ASSERT_EQ(got[i], d.replace ? none : y_old[i]) << what << ": y[" << i << "] masked out";
    else if (begin == end) ASSERT_EQ(got[i], none) << what << ": y[" << i << "] has no parent";
    else ASSERT_TRUE(got[i] >= 0 && std::binary_search(begin, end, vid_t(got[i])))
        << what << ": y[" << i << "] = " << got[i] << " is not a parent";
  }
}

// Every kernel, mxv and vxm, without a mask and with valued, structural and complemented masks,
// with and without replace.
template <class SR, class V>
void check_all(const Csr<V>& a, std::mt19937_64& rng, const std::string& name) {
  constexpr bool parents = std::is_same_v<SR, AnySecondI>;
  const auto ga = gpu::Matrix<V>::from_host(a);
  Csr<V> at;
  if constexpr (parents) at = transpose(a);
  for (Op op : {Op::Mxv, Op::Vxm}) {
    const std::size_t n_in = op == Op::Mxv ? a.ncols : a.nrows, n_out = op == Op::Mxv ? a.nrows : a.ncols;
    const std::vector<V> x = random_values<V>(n_in, rng);
    const std::vector<V> y_old = random_values<V>(n_out, rng);
    const std::vector<V> mask = random_values<V>(n_out, rng);
    for (int m = 0; m < 8; ++m) {
      Descriptor d;
      const bool masked = m & 1;
      d.mask_structural = m & 2;
      d.replace = m & 4;
      d.mask_complement = masked && !d.mask_structural;  // a complemented structural mask allows nothing
      const std::vector<V>* mk = masked ? &mask : nullptr;
      const std::string what = name + ", " + op_name(op) + ", descriptor " + std::to_string(m);
      std::vector<V> want;
      if constexpr (!parents) want = oracle<SR, V>(op, a, x, mk, y_old, d);
      for (SpmvKernel k : kKernels) {
        const std::vector<V> got = gpu_run<SR, V>(op, ga, x, mk, y_old, d, k);
        const std::string label = what + ", kernel " + gpu::spmv_kernel_name(k);
        if constexpr (parents) expect_valid_parents(got, op == Op::Mxv ? a : at, mk, y_old, d, label);
        else EXPECT_EQ(got, want) << label;
      }
    }
  }
}

template <class SR, class V>
void check_random_shapes() {
  std::mt19937_64 rng(31);
  const RandomSpec specs[] = {
      {.nrows = 300, .ncols = 300, .density = 0.03, .seed = 1, .empty_row_every = 7, .dense_row = 5},
      {.nrows = 120, .ncols = 900, .density = 0.05, .seed = 2, .empty_col_every = 4},
      {.nrows = 2000, .ncols = 40, .density = 0.1, .seed = 3, .empty_row_every = 3, .dense_row = 11},
  };
  for (const RandomSpec& s : specs)
    for (bool pattern : {false, true}) {
      RandomSpec spec = s;
      spec.pattern = pattern;
      Csr<V> a = test::random_csr<V>(spec);
      if (!pattern) a = with_random_values(std::move(a), rng);
      check_all<SR, V>(a, rng, std::to_string(s.nrows) + "x" + std::to_string(s.ncols) + (pattern ? " pattern" : ""));
    }
}

TEST(SpmvTypes, Int32) {
  SPGRAPH_REQUIRE_GPU();
  check_random_shapes<PlusTimes, std::int32_t>();
  check_random_shapes<AnySecondI, std::int32_t>();
}
TEST(SpmvTypes, Int64) {
  SPGRAPH_REQUIRE_GPU();
  check_random_shapes<PlusTimes, std::int64_t>();
  check_random_shapes<PlusPair, std::int64_t>();
  check_random_shapes<MinPlus, std::int64_t>();
  check_random_shapes<AnySecondI, std::int64_t>();
}
TEST(SpmvTypes, Bool) {
  SPGRAPH_REQUIRE_GPU();
  check_random_shapes<OrAnd, bool>();
}
TEST(SpmvTypes, Words) {
  SPGRAPH_REQUIRE_GPU();
  check_random_shapes<BorBand, std::uint64_t>();
  check_random_shapes<BorSecond, std::uint64_t>();
}

TEST(SpmvTypes, RealGraphs) {
  SPGRAPH_REQUIRE_GPU();
  for (const std::string file : {"cnr-2000.mtx.gz", "web-NotreDame.txt.gz"}) {
    const std::string path = shared_dataset("real/" + file);
    SPGRAPH_REQUIRE_SHARED_DATASET(path);
    const Csr<double> g = drop_values(io::load_graph(path).matrix);
    std::mt19937_64 rng(41);
    check_all<PlusPair, std::int64_t>(convert_values<std::int64_t>(g), rng, file);
    check_all<AnySecondI, std::int32_t>(convert_values<std::int32_t>(g), rng, file);
    check_all<OrAnd, bool>(convert_values<bool>(g), rng, file);
    Csr<std::uint64_t> w;
    w.nrows = g.nrows;
    w.ncols = g.ncols;
    w.rowptr = g.rowptr;
    w.col = g.col;  // a pattern: entries read as 1
    check_all<BorSecond, std::uint64_t>(w, rng, file);
  }
}

// Bit-parallel BFS: 64 frontiers as the bits of one word per vertex. One step y = A x with
// bor.second on a pattern matrix equals, bit by bit, 64 separate boolean steps y_s = A x_s
// (or.and), on every kernel.
TEST(SpmvTypes, BitParallelStepIs64BooleanSteps) {
  SPGRAPH_REQUIRE_GPU();
  std::mt19937_64 rng(51);
  const auto a = test::random_csr<std::uint64_t>(
      {.nrows = 700, .ncols = 700, .density = 0.01, .seed = 52, .empty_row_every = 9, .dense_row = 3, .pattern = true});
  Csr<bool> b;
  b.nrows = a.nrows;
  b.ncols = a.ncols;
  b.rowptr = a.rowptr;
  b.col = a.col;
  std::vector<std::uint64_t> words(a.ncols);
  for (auto& w : words) w = rng() & rng();  // sparse-ish frontiers
  const auto ga = gpu::Matrix<std::uint64_t>::from_host(a);
  const auto gb_bool = gpu::Matrix<bool>::from_host(b);
  const std::vector<std::uint64_t> zero(a.nrows, 0);
  for (SpmvKernel k : kKernels) {
    const auto y = gpu_run<BorSecond, std::uint64_t>(Op::Mxv, ga, words, nullptr, zero, {}, k);
    for (int s = 0; s < 64; ++s) {
      std::vector<bool> xs(a.ncols);
      for (vid_t j = 0; j < a.ncols; ++j) xs[j] = (words[j] >> s) & 1;
      const std::vector<bool> ys =
          gpu_run<OrAnd, bool>(Op::Mxv, gb_bool, xs, nullptr, std::vector<bool>(a.nrows, false), {}, k);
      for (vid_t i = 0; i < a.nrows; ++i)
        ASSERT_EQ(bool((y[i] >> s) & 1), bool(ys[i])) << "kernel " << gpu::spmv_kernel_name(k) << ", bit " << s
                                                      << ", vertex " << i;
    }
  }
}

// Vertex 0 is a real parent and must read as 0; a vertex without a parent must read as the
// marker -1, on both backends.
template <class V>
void check_parent_zero_is_real(bool use_gpu) {
  // Edges 0 -> 1, 2 -> 3: vertex 1's parent is 0, vertex 3's is 2; 0 and 2 have none.
  Csr<V> a;
  a.nrows = a.ncols = 4;
  a.rowptr = {0, 1, 1, 2, 2};
  a.col = {1, 3};
  const std::vector<V> frontier = {1, 0, 1, 0};
  std::vector<V> parents;
  if (use_gpu) {
    parents = gpu_run<AnySecondI, V>(Op::Vxm, gpu::Matrix<V>::from_host(a), frontier, nullptr, {}, {},
                                     SpmvKernel::Auto);
  } else {
    gb::Vector<V> y;
    gb::vxm(y, nullptr, gb::from_host(frontier), gb::from_host(a), AnySecondI{});
    parents = gb::to_host(y);
  }
  EXPECT_EQ(parents, (std::vector<V>{-1, 0, -1, 2})) << (use_gpu ? "gpu" : "graphblas");
}

// GraphBLAS's any.secondi is built in for integer types only.
TEST(SpmvTypes, ParentZeroIsRealAndNoParentIsMinusOneOnGraphblas) {
  check_parent_zero_is_real<std::int32_t>(false);
  check_parent_zero_is_real<std::int64_t>(false);
}

TEST(SpmvTypes, ParentZeroIsRealAndNoParentIsMinusOneOnGpu) {
  SPGRAPH_REQUIRE_GPU();
  check_parent_zero_is_real<std::int32_t>(true);
  check_parent_zero_is_real<std::int64_t>(true);
  check_parent_zero_is_real<double>(true);
}

}  // namespace
}  // namespace spgraph::test::spmv
