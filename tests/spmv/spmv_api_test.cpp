// Hand-computed products on every kernel, operand order in vxm, outputs that alias inputs,
// empty outputs, and the errors a caller can make.
#include <limits>
#include <set>

#include "spmv_test_support.hpp"

namespace spgraph::test::spmv {
namespace {

// A (3 x 4):  [ .  2  . -1 ]
//             [ .  .  .  . ]
//             [ 3  . 0.5 4 ]
Csr<double> small_a() {
  Csr<double> a;
  a.nrows = 3;
  a.ncols = 4;
  a.rowptr = {0, 2, 2, 5};
  a.col = {1, 3, 0, 2, 3};
  a.val = {2, -1, 3, 0.5, 4};
  return a;
}

template <class SR, class V>
std::vector<V> run(Op op, const gpu::Matrix<V>& a, const std::vector<double>& x, SpmvKernel k) {
  const std::size_t n = std::size_t(op == Op::Mxv ? a.nrows() : a.ncols());
  return gpu_product<SR, V>(op, a, x, nullptr, std::vector<double>(n, -9.0), Descriptor{}, k);
}

template <class V>
std::vector<V> values(std::initializer_list<double> v) {
  return std::vector<V>(v.begin(), v.end());
}

template <class V>
class SpmvKnownAnswers : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SpmvKnownAnswers, ValueTypes);

TYPED_TEST(SpmvKnownAnswers, MxvOnEveryKernel) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const V inf = std::numeric_limits<V>::infinity();
  const auto a = gpu::Matrix<V>::from_host(convert_values<V>(small_a()));
  const std::vector<double> x{1, 2, 3, 4};
  for (SpmvKernel k : kKernels) {
    SCOPED_TRACE(gpu::spmv_kernel_name(k));
    EXPECT_EQ((run<PlusTimes, V>(Op::Mxv, a, x, k)), values<V>({0, 0, 20.5}));
    EXPECT_EQ((run<MinPlus, V>(Op::Mxv, a, x, k)), (std::vector<V>{3, inf, 3.5}));
    EXPECT_EQ((run<MaxTimes, V>(Op::Mxv, a, x, k)), (std::vector<V>{4, -inf, 16}));
    EXPECT_EQ((run<PlusFirst, V>(Op::Mxv, a, x, k)), values<V>({1, 0, 7.5}));  // row sums of A
    EXPECT_EQ((run<PlusSecond, V>(Op::Mxv, a, x, k)), values<V>({6, 0, 8}));  // x summed over each row's columns
    EXPECT_EQ((run<PlusPair, V>(Op::Mxv, a, x, k)), values<V>({2, 0, 3}));
    EXPECT_EQ((run<OrAnd, V>(Op::Mxv, a, x, k)), values<V>({1, 0, 1}));
    const std::vector<V> parents = run<AnySecondI, V>(Op::Mxv, a, x, k);
    ASSERT_EQ(parents.size(), 3u);
    EXPECT_TRUE((std::set<V>{1, 3}).count(parents[0])) << parents[0];
    EXPECT_EQ(parents[1], V(-1)) << "an empty row holds any's no-value marker, never a vertex";
    EXPECT_TRUE((std::set<V>{0, 2, 3}).count(parents[2])) << parents[2];
  }
}

// In vxm the vector is the multiply's first operand: first(x, a) reads x, second reads A.
TYPED_TEST(SpmvKnownAnswers, VxmKeepsTheOperandOrder) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const auto a = gpu::Matrix<V>::from_host(convert_values<V>(small_a()));
  const std::vector<double> x{1, 2, 3};
  for (SpmvKernel k : kKernels) {
    SCOPED_TRACE(gpu::spmv_kernel_name(k));
    EXPECT_EQ((run<PlusTimes, V>(Op::Vxm, a, x, k)), values<V>({9, 2, 1.5, 11}));
    EXPECT_EQ((run<PlusFirst, V>(Op::Vxm, a, x, k)), values<V>({3, 1, 3, 4}));
    EXPECT_EQ((run<PlusSecond, V>(Op::Vxm, a, x, k)), values<V>({3, 2, 0.5, 3}));
    const std::vector<V> parents = run<AnySecondI, V>(Op::Vxm, a, x, k);  // k is A's row
    EXPECT_EQ(parents, values<V>({2, 0, 2, parents[3]}));
    EXPECT_TRUE(parents[3] == V(0) || parents[3] == V(2)) << parents[3];
  }
}

// A pattern matrix reads every entry as 1 and has no value array to read.
TYPED_TEST(SpmvKnownAnswers, PatternEntriesAreOne) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  const auto a = gpu::Matrix<V>::from_host(convert_values<V>(drop_values(small_a())));
  ASSERT_TRUE(a.is_pattern());
  for (SpmvKernel k : kKernels) {
    SCOPED_TRACE(gpu::spmv_kernel_name(k));
    EXPECT_EQ((run<PlusTimes, V>(Op::Mxv, a, {1, 2, 3, 4}, k)), values<V>({6, 0, 8}));
    EXPECT_EQ((run<MinPlus, V>(Op::Mxv, a, {1, 2, 3, 4}, k)),
              (std::vector<V>{3, std::numeric_limits<V>::infinity(), 2}));
    EXPECT_EQ((run<PlusFirst, V>(Op::Vxm, a, {1, 2, 3}, k)), values<V>({3, 1, 3, 4}));
  }
}

TEST(SpmvOutputs, EmptyOutputIsSizedAndStartsAbsent) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = gpu::Matrix<double>::from_host(small_a());
  const gpu::Vector<double> x = to_device<double>({1, 2, 3, 4});
  const gpu::Vector<double> mask = to_device<double>({0, 1, 1});
  for (SpmvKernel k : kKernels) {
    SCOPED_TRACE(gpu::spmv_kernel_name(k));
    SpmvOptions options;
    options.kernel = k;
    gpu::Vector<double> y;
    gpu::mxv(y, &mask, a, x, MinPlus{}, Descriptor{}, options);
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(y.download(), (std::vector<double>{inf, inf, 3.5})) << "row 0 is masked out and stays absent";
  }
}

// The product is computed from the old values when y is also x or the mask.
TEST(SpmvOutputs, OutputMayAliasTheInputOrTheMask) {
  SPGRAPH_REQUIRE_GPU();
  std::mt19937_64 rng(3);
  const Csr<double>& host = shape_zoo()[6].matrix;  // square, power-law rows
  ASSERT_EQ(host.nrows, host.ncols);
  const auto a = gpu::Matrix<double>::from_host(host);
  const std::vector<double> v = random_vector(std::size_t(host.nrows), rng);
  const std::vector<double> m = random_mask(std::size_t(host.nrows), rng);
  const std::vector<double> x = random_vector(std::size_t(host.nrows), rng);
  const std::vector<double> scale = term_magnitudes<PlusTimes>(Op::Mxv, host, v);
  const std::vector<double> y_is_x = graphblas_product<PlusTimes>(Op::Mxv, host, v, nullptr, v, Descriptor{});
  const std::vector<double> y_is_mask = graphblas_product<PlusTimes>(Op::Mxv, host, x, &m, m, Descriptor{});
  const std::vector<double> mask_scale = term_magnitudes<PlusTimes>(Op::Mxv, host, x);
  for (SpmvKernel k : kKernels) {
    SpmvOptions options;
    options.kernel = k;
    gpu::Vector<double> y = to_device<double>(v);
    gpu::mxv(y, nullptr, a, y, PlusTimes{}, Descriptor{}, options);
    expect_close<PlusTimes>(y.download(), y_is_x, scale, std::string("y is x, ") + gpu::spmv_kernel_name(k));
    gpu::Vector<double> ym = to_device<double>(m);
    gpu::mxv(ym, &ym, a, to_device<double>(x), PlusTimes{}, Descriptor{}, options);
    expect_close<PlusTimes>(ym.download(), y_is_mask, mask_scale,
                            std::string("y is the mask, ") + gpu::spmv_kernel_name(k));
  }
}

TEST(SpmvErrors, MismatchedLengthsAndVectorTransposesThrow) {
  SPGRAPH_REQUIRE_GPU();
  const auto a = gpu::Matrix<double>::from_host(small_a());  // 3 x 4
  const gpu::Vector<double> x4 = to_device<double>({1, 2, 3, 4}), x3 = to_device<double>({1, 2, 3});
  gpu::Vector<double> y3 = to_device<double>({0, 0, 0}), y4 = to_device<double>({0, 0, 0, 0});
  const gpu::Vector<double> mask4 = to_device<double>({1, 1, 1, 1});
  EXPECT_THROW(gpu::mxv(y3, nullptr, a, x3, PlusTimes{}), Error);     // x needs A's 4 columns
  EXPECT_THROW(gpu::mxv(y4, nullptr, a, x4, PlusTimes{}), Error);     // y has 4 entries, A 3 rows
  EXPECT_THROW(gpu::mxv(y3, &mask4, a, x4, PlusTimes{}), Error);      // mask longer than y
  EXPECT_THROW(gpu::vxm(y4, nullptr, x4, a, PlusTimes{}), Error);     // x' A needs x of length 3
  Descriptor ta, tb;
  ta.transpose_a = true;
  tb.transpose_b = true;
  EXPECT_THROW(gpu::mxv(y3, nullptr, a, x4, PlusTimes{}, tb), Error);  // x has no transpose
  EXPECT_THROW(gpu::vxm(y4, nullptr, x3, a, PlusTimes{}, ta), Error);
  EXPECT_NO_THROW(gpu::mxv(y4, nullptr, a, x3, PlusTimes{}, ta));      // A' is 4 x 3
  EXPECT_NO_THROW(gpu::vxm(y3, nullptr, x4, a, PlusTimes{}, tb));      // x' A' = (A x)'
  EXPECT_EQ(y3.download(), (std::vector<double>{0, 0, 20.5}));
}

}  // namespace
}  // namespace spgraph::test::spmv
