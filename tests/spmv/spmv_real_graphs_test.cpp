// Every kernel on real web graphs (../shared/datasets/real; skipped when absent), pattern and
// with arbitrary weights, float and double, mxv and vxm, against the graphblas backend.
#include <filesystem>

#include "spgraph/io/load_graph.hpp"
#include "spmv_test_support.hpp"

namespace spgraph::test::spmv {
namespace {

// Non-dyadic values in (0, 1], so results are compared within the tolerance.
std::vector<double> uniform_values(std::size_t n, std::mt19937_64& rng) {
  std::vector<double> v(n);
  for (double& x : v) x = std::uniform_real_distribution<double>(1e-3, 1.0)(rng);
  return v;
}

template <class SR, class V>
void check_graph(const Csr<double>& pattern, const Csr<double>& pattern_t, std::mt19937_64& rng,
                 const std::string& name) {
  Csr<double> weighted = pattern;
  weighted.val = uniform_values(pattern.col.size(), rng);
  const Csr<double> weighted_t = transpose(weighted);
  for (bool use_pattern : {true, false}) {
    // Inputs rounded to V first, so the double oracle sees exactly what the kernels see.
    const Csr<double> a = convert_values<double>(convert_values<V>(use_pattern ? pattern : weighted));
    const Csr<double>& at = use_pattern ? pattern_t : weighted_t;
    const Csr<double> at_v = convert_values<double>(convert_values<V>(at));
    const auto ga = gpu::Matrix<V>::from_host(convert_values<V>(a));
    for (Op op : {Op::Mxv, Op::Vxm}) {
      const Csr<double>& rows = op == Op::Mxv ? a : at_v;
      const std::vector<double> x = convert<double>(convert<V>(uniform_values(std::size_t(rows.ncols), rng)));
      const std::vector<double> y_old(std::size_t(rows.nrows), 0.0);
      std::vector<double> expected, scale;
      if constexpr (!std::is_same_v<SR, AnySecondI>) {
        expected = graphblas_product<SR>(op, a, x, nullptr, y_old, Descriptor{});
        scale = term_magnitudes<SR>(op, rows, x);
      }
      for (SpmvKernel k : kKernels) {
        const std::string what = name + (use_pattern ? " (pattern)" : " (weighted)") + ", " + op_name(op) +
                                 ", kernel " + gpu::spmv_kernel_name(k);
        const std::vector<V> got = gpu_product<SR, V>(op, ga, x, nullptr, y_old, Descriptor{}, k);
        if constexpr (std::is_same_v<SR, AnySecondI>) expect_valid_any_secondi(got, rows, nullptr, y_old, {}, what);
        else expect_close<SR>(got, expected, scale, what);
      }
    }
  }
}

void check_real_graph(const std::string& file) {
  const std::string path = shared_dataset("real/" + file);
  SPGRAPH_REQUIRE_SHARED_DATASET(path);
  const Csr<double> pattern = drop_values(io::load_graph(path).matrix);
  const Csr<double> pattern_t = transpose(pattern);
  std::mt19937_64 rng(17);
  check_graph<PlusTimes, double>(pattern, pattern_t, rng, file);
  check_graph<PlusTimes, float>(pattern, pattern_t, rng, file);
  check_graph<PlusSecond, double>(pattern, pattern_t, rng, file);
  check_graph<PlusSecond, float>(pattern, pattern_t, rng, file);
  check_graph<MinPlus, float>(pattern, pattern_t, rng, file);
  check_graph<AnySecondI, double>(pattern, pattern_t, rng, file);
}

TEST(SpmvRealGraphs, Cnr2000) {
  SPGRAPH_REQUIRE_GPU();
  check_real_graph("cnr-2000.mtx.gz");
}

TEST(SpmvRealGraphs, WebNotreDame) {
  SPGRAPH_REQUIRE_GPU();
  check_real_graph("web-NotreDame.txt.gz");
}

}  // namespace
}  // namespace spgraph::test::spmv
