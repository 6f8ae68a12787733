#pragma once
// The row sums of a masked product, the product never formed:
//
//   y(i) = sum over j of C(i,j),   C<M> = A (+.*) B   (M's structure, or its nonzero values)
//
// equal to mxm followed by reduce_rows<monoid::Plus>, for semirings whose add monoid is plus
// (instantiated: PlusPair and PlusTimes over int32_t, int64_t, float and double; y holds
// sum_type_t<V>, int64_t for the integer types). Triangle counting is its main user:
// sum((L * U') .* L) is the sum of y for M = L, A = L, B = U with transpose_b.
//
// Each allowed C(i,j) is the dot product of A's row i with B's column j, computed as the
// intersection of two sorted rows: with transpose_b those are rows of B as given; without, B is
// transposed first. The mask is required and must not be complemented (Error otherwise);
// transpose_a transposes A first; replace has no meaning here (y is written whole).
#include "spgraph/descriptor.hpp"
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/semiring.hpp"
#include "spgraph/sum_type.hpp"

namespace spgraph::gpu {

template <class SR, class V>
void mxm_reduce_rows(Vector<sum_type_t<V>>& y, const Matrix<V>& mask, const Matrix<V>& A, const Matrix<V>& B,
                     SR sr = {}, const Descriptor& desc = {});

}  // namespace spgraph::gpu
