// gpu::transpose against the host transpose (graph_ops.hpp): identical row offsets, columns
// (sorted within each row) and values, for every value type and for pattern matrices.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/gpu/transpose.hpp"
#include "spgraph/instantiations.hpp"
#include "spmv_test_support.hpp"

namespace spgraph::test::spmv {
namespace {

template <class V>
void expect_same_csr(const Csr<V>& got, const Csr<V>& expected, const std::string& what) {
  EXPECT_EQ(got.nrows, expected.nrows) << what;
  EXPECT_EQ(got.ncols, expected.ncols) << what;
  EXPECT_EQ(got.rowptr, expected.rowptr) << what;
  EXPECT_EQ(got.col, expected.col) << what;
  EXPECT_EQ(got.val, expected.val) << what;
}

template <class V>
class GpuTranspose : public ::testing::Test {};
using TransposeTypes = value_types<::testing::Types>;  // instantiations.hpp's list
TYPED_TEST_SUITE(GpuTranspose, TransposeTypes);

TYPED_TEST(GpuTranspose, MatchesTheHostTransposeOnTheZoo) {
  SPGRAPH_REQUIRE_GPU();
  using V = TypeParam;
  for (const NamedMatrix& m : shape_zoo()) {
    for (bool pattern : {false, true}) {
      const Csr<V> host = pattern ? drop_values(convert_values<V>(m.matrix)) : convert_values<V>(m.matrix);
      const Csr<V> got = gpu::transpose(gpu::Matrix<V>::from_host(host)).to_host();
      expect_same_csr(got, transpose(host), m.name + (pattern ? " (pattern)" : ""));
      EXPECT_NO_THROW(got.validate(true)) << m.name;
    }
  }
}

TEST(GpuTransposeStream, RunsOnTheGivenStream) {
  SPGRAPH_REQUIRE_GPU();
  const Csr<double>& host = shape_zoo()[6].matrix;
  device::Stream stream;
  const auto a = gpu::Matrix<double>::from_host(host);
  SPGRAPH_CUDA(cudaStreamSynchronize(0));  // the upload ran on the default stream
  const gpu::Matrix<double> t = gpu::transpose(a, stream.get());
  stream.synchronize();
  expect_same_csr(t.to_host(), transpose(host), "power-law rows on a side stream");
}

}  // namespace
}  // namespace spgraph::test::spmv
