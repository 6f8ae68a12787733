#pragma once
// Shared by the select, reduce and assign tests: the inputs both backends get, every mask
// descriptor, and the GPU result in the form the GraphBLAS one has (explicit values).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "../graphblas/small_matrices.hpp"
#include "matrix_support.hpp"
#include "spgraph/gpu/backend.hpp"
#include "spgraph/graphblas/backend.hpp"
#include "spgraph/instantiations.hpp"
#include "test_support.hpp"

namespace spgraph::test {

namespace gb = spgraph::graphblas;
using ValueTypes = value_types<::testing::Types>;  // instantiations.hpp's list

// A pattern matrix's entries as explicit 1s (how graphblas::to_host returns them).
template <class V>
Csr<V> with_values(Csr<V> a) {
  if (a.is_pattern()) a.val.assign(a.col.size(), V(1));
  return a;
}

template <class V>
Csr<V> gpu_result(const gpu::Matrix<V>& m) {
  return with_values(m.to_host());
}

// Random inputs with what breaks sparse kernels (matrix_support.hpp): a square one with
// empty rows and a dense row, a rectangular one with empty columns, a wide pattern one.
template <class V>
std::vector<Csr<V>> random_inputs(unsigned seed) {
  return {random_csr<V>({.nrows = 120, .ncols = 120, .density = 0.06, .seed = seed, .empty_row_every = 7,
                         .dense_row = 5}),
          random_csr<V>({.nrows = 90, .ncols = 150, .density = 0.08, .seed = seed + 1, .empty_col_every = 6,
                         .dense_row = 80}),
          random_csr<V>({.nrows = 40, .ncols = 300, .density = 0.05, .seed = seed + 2, .pattern = true})};
}

// Every combination of mask_structural, mask_complement and replace.
inline std::vector<Descriptor> mask_descriptors() {
  std::vector<Descriptor> out;
  for (int bits = 0; bits < 8; ++bits) {
    Descriptor d;
    d.mask_structural = bits & 1;
    d.mask_complement = bits & 2;
    d.replace = bits & 4;
    out.push_back(d);
  }
  return out;
}

// Known-answer tests run on both backends; the gpu one skips without a device.
template <class B>
class OnBothBackends : public ::testing::Test {
 protected:
  void SetUp() override {
    if constexpr (std::is_same_v<B, gpu::GpuBackend>) SPGRAPH_REQUIRE_GPU();
  }
};
using Backends = ::testing::Types<graphblas::GraphBlasBackend, gpu::GpuBackend>;

template <class B, class V>
typename B::template Matrix<V> on(vid_t nrows, vid_t ncols, std::vector<Entry<V>> entries) {
  return B::from_host(csr(nrows, ncols, std::move(entries)));
}

// B's matrix equals the listed entries exactly (explicit values, sorted).
template <class B, class V>
::testing::AssertionResult holds(const typename B::template Matrix<V>& m, vid_t nrows, vid_t ncols,
                                 std::vector<Entry<V>> expected) {
  return same_matrix(with_values(B::to_host(m)), csr(nrows, ncols, std::move(expected)));
}

inline std::string describe(const Descriptor& d) {
  return std::string(d.mask_structural ? "structural" : "valued") + (d.mask_complement ? ", complemented" : "") +
         (d.replace ? ", replace" : "") + (d.transpose_a ? ", transpose_a" : "");
}

}  // namespace spgraph::test
