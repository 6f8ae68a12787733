#pragma once
// C<M> = T for every GPU operation that computes an unmasked result T first (element-wise,
// apply, select, assign): one kernel applies the mask and replace semantics of
// operations.hpp, merging each row of the old C, T and M (sorted columns). Without a mask and
// without complement, C simply becomes T.
#include "spgraph/descriptor.hpp"
#include "spgraph/gpu/matrix.hpp"

namespace spgraph::gpu::detail {

template <class V>
void write_masked(Matrix<V>& C, const Matrix<V>* mask, Matrix<V>&& T, const Descriptor& desc);
// Dense vectors: w(i) = t(i) where allowed, else w(i) (or the identity given, with replace).
template <class V>
void write_masked(Vector<V>& w, const Vector<V>* mask, const Vector<V>& t, V identity, const Descriptor& desc);

}  // namespace spgraph::gpu::detail
