// spgraph::Graph on both backends: each part is what its definition says (the pattern with
// entries of 1, A' equal to the host transpose, out-degrees equal to the row lengths), is
// built once and kept, and a rectangular matrix is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "matrix_support.hpp"
#include "spgraph/gpu/backend.hpp"
#include "spgraph/graph.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/graphblas/backend.hpp"
#include "spgraph/io/load_graph.hpp"
#include "test_support.hpp"

namespace spgraph::test {
namespace {

// A pattern comes back without values (gpu) or with explicit ones (graphblas): either way its
// structure is want's and every value it has is 1.
template <class V>
::testing::AssertionResult same_pattern(const Csr<V>& got, const Csr<double>& want) {
  if (!got.is_pattern() && std::any_of(got.val.begin(), got.val.end(), [](V v) { return v != V(1); }))
    return ::testing::AssertionFailure() << "a pattern entry is not 1";
  return same_matrix(got, convert_values<V>(want), false);
}

template <class B>
void expect_graph_parts(const Csr<double>& host) {
  Graph<B> g(host);
  EXPECT_EQ(g.vertices(), host.nrows);
  EXPECT_EQ(g.edges(), host.nnz());
  EXPECT_TRUE(same_pattern(B::to_host(g.template pattern<float>()), host));
  const auto& at = g.template in_links<float>();
  EXPECT_EQ(&at, &g.template in_links<float>()) << "A' is built once and kept";
  EXPECT_TRUE(same_pattern(B::to_host(at), transpose(host)));
  std::vector<vid_t> degrees(static_cast<std::size_t>(host.nrows));
  for (vid_t i = 0; i < host.nrows; ++i) degrees[i] = static_cast<vid_t>(host.row_length(i));
  EXPECT_EQ(B::to_host(g.out_degree()), degrees);
  const Csr<double> weighted = B::to_host(g.weighted());
  if (host.is_pattern()) EXPECT_TRUE(same_pattern(weighted, host));
  else EXPECT_TRUE(same_matrix(weighted, host));
}

Csr<double> karate() { return io::load_graph(dataset("small/karate.mtx")).matrix; }
Csr<double> directed() { return io::load_graph(dataset("small/west0067.mtx")).matrix; }

TEST(GraphCpu, PartsMatchTheirDefinitions) {
  expect_graph_parts<graphblas::GraphBlasBackend>(karate());
  expect_graph_parts<graphblas::GraphBlasBackend>(directed());
}

TEST(GraphGpu, PartsMatchTheirDefinitions) {
  SPGRAPH_REQUIRE_GPU();
  expect_graph_parts<gpu::GpuBackend>(karate());
  expect_graph_parts<gpu::GpuBackend>(directed());
}

TEST(GraphCpu, RefusesARectangularMatrix) {
  RandomSpec spec;
  spec.nrows = 3;
  spec.ncols = 4;
  const Csr<double> rectangular = random_csr<double>(spec);
  EXPECT_THROW(Graph<graphblas::GraphBlasBackend>{rectangular}, Error);
}

}  // namespace
}  // namespace spgraph::test
