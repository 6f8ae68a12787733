#include "map_reduce_cases.hpp"
#include "spgraph/gpu/backend.hpp"
#include "spgraph/gpu/dense_map_reduce_impl.cuh"
#include "test_support.hpp"

namespace spgraph::test {
namespace {

using gpu::GpuBackend;

TEST(MapReduceGpu, UpdatesEveryElementAndSumsExactly) {
  SPGRAPH_REQUIRE_GPU();
  // 1 and 7: one partly idle block; 1'000'003: more indices than resident threads, so the
  // grid-stride loop and the per-block partials are all exercised.
  for (std::size_t n : {1u, 7u, 1'000'003u, 50'000'017u}) check_axpy_and_sums<GpuBackend>(n);
}

TEST(MapReduceGpu, EmptyVectorsSumToZero) {
  SPGRAPH_REQUIRE_GPU();
  gpu::Vector<double> x, y;
  const auto sums = GpuBackend::map_reduce<3>(AxpyAndSums{}, x, y);
  EXPECT_EQ(sums[0], 0);
  EXPECT_EQ(sums[2], 0);
}

TEST(MapReduceGpu, VectorsOfDifferentLengthsThrow) {
  SPGRAPH_REQUIRE_GPU();
  check_length_mismatch_throws<GpuBackend>();
}

}  // namespace
}  // namespace spgraph::test
