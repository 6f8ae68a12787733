#pragma once
// The operations API both backends implement with the same names and argument order, so an
// algorithm is written once as a template over a backend:
//
//   namespace spgraph::gpu        (lib/include/spgraph/gpu/backend.hpp)        struct GpuBackend
//   namespace spgraph::graphblas  (lib/include/spgraph/graphblas/backend.hpp)  struct GraphBlasBackend
//
// Each backend struct provides
//   template <class V> using Matrix;   // gpu: gpu::Matrix<V> (device CSR + cached formats)
//                                     // graphblas: graphblas::Matrix<V> (RAII GrB_Matrix)
//   template <class V> using Vector;   // dense vector of length n (absent = monoid identity)
//   static Matrix<V> from_host(const Csr<V>&);   static Csr<V> to_host(const Matrix<V>&);
//   static Vector<V> from_host(const std::vector<V>&); static std::vector<V> to_host(const Vector<V>&);
//   mxm<SR>(C, mask*, A, B, SR{}, Descriptor, MxmOptions)      C<M> = A (+.*) B
//   mxv<SR>(y, mask*, A, x, SR{}, Descriptor, SpmvOptions)     y<m> = A x
//   vxm<SR>(y, mask*, x, A, SR{}, Descriptor, SpmvOptions)     y<m> = x' A
//   ewise_add<Op>, ewise_mult<Op>   union / intersection of patterns
//   apply<UnaryOp>, select(SelectSpec), reduce_rows<Monoid>, reduce_cols<Monoid>,
//   reduce_scalar<Monoid>, transpose
// where SR is a Semiring from semiring.hpp and a mask pointer may be null (no mask).
#include <cstddef>
#include <cstdint>

#include "spgraph/descriptor.hpp"
#include "spgraph/semiring.hpp"

namespace spgraph {

enum class MxmAlgorithm { Auto, Hash, Esc };

struct MxmOptions {
  MxmAlgorithm algorithm = MxmAlgorithm::Auto;
  // Device bytes C's computation may use; 0 means what is free on the device. When C does
  // not fit, it is computed in row panels (see gpu/spgemm.hpp).
  std::size_t memory_budget = 0;
};

enum class SpmvKernel { Auto, CsrVector, CsrMergePath, CsrStream, CooLoadBalanced, SellP, Hyb };

struct SpmvOptions {
  SpmvKernel kernel = SpmvKernel::Auto;  // the caller may override the automatic choice
};

// select: keep entries by value, then at most k per row (largest values first).
struct SelectSpec {
  enum class Kind { GreaterEqual, Greater, LessEqual, NotEqualZero, TopKPerRow } kind = Kind::GreaterEqual;
  double threshold = 0;
  std::int64_t k = 0;  // for TopKPerRow
};

}  // namespace spgraph
