#pragma once
// Element-wise operations on the GPU: ewise_add, ewise_mult, apply, scale_rows, scale_cols,
// with the mask and descriptor semantics of operations.hpp. Matrix results are CSR with
// sorted columns, exactly sized. Operators are dispatched at run time from their ids
// (operator_ids.hpp), so each function is compiled once per value type
// (lib/src/gpu/ops/elementwise_<type>.cu); an operator without an id throws Error.
// Matrix masks and replace are applied by one kernel shared by every matrix operation
// (lib/src/gpu/ops/mask_write.cuh). Everything runs on the default stream.
#include "spgraph/descriptor.hpp"
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/operator_ids.hpp"

namespace spgraph::gpu {

namespace detail {
template <class V>
void ewise(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, const Matrix<V>& B, spgraph::detail::OpId op,
           bool is_union, const Descriptor& desc);
template <class V>
void ewise(Vector<V>& z, const Vector<V>* mask, const Vector<V>& x, const Vector<V>& y, spgraph::detail::OpId op,
           const Descriptor& desc);
template <class V>
void apply(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, spgraph::detail::UnaryId op, const Descriptor& desc);
template <class V>
void apply(Vector<V>& z, const Vector<V>* mask, const Vector<V>& x, spgraph::detail::UnaryId op, const Descriptor& desc);
template <class V> void scale(Matrix<V>& C, const Matrix<V>& A, const Vector<V>& d, bool rows);
}  // namespace detail

// C<mask> = A (+) B: the union of the patterns, Op(a, b) where both have an entry, the one
// value where one has. Dimensions must match (Error otherwise).
template <class Op, class V>
void ewise_add(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const Matrix<V>& B,
               const Descriptor& desc = {}) {
  detail::ewise(C, mask, A, B, spgraph::detail::op_id<Op>(), true, desc);
}
// C<mask> = A (.*) B: the intersection of the patterns, Op(a, b).
template <class Op, class V>
void ewise_mult(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const Matrix<V>& B,
                const Descriptor& desc = {}) {
  detail::ewise(C, mask, A, B, spgraph::detail::op_id<Op>(), false, desc);
}
// Dense vectors: union and intersection are both every position, so add and mult agree.
template <class Op, class V>
void ewise_add(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, const Vector<V>& y,
               const Descriptor& desc = {}) {
  detail::ewise(z, mask, x, y, spgraph::detail::op_id<Op>(), desc);
}
template <class Op, class V>
void ewise_mult(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, const Vector<V>& y,
                const Descriptor& desc = {}) {
  detail::ewise(z, mask, x, y, spgraph::detail::op_id<Op>(), desc);
}

// C<mask> = op(A) on A's stored entries (unary_ops.hpp; Scale, AddScalar and Pow compute in
// double and convert to V).
template <class UnaryOp, class V>
void apply(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, UnaryOp op = {},
           const Descriptor& desc = {}) {
  detail::apply(C, mask, A, spgraph::detail::unary_id(op), desc);
}
template <class UnaryOp, class V>
void apply(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, UnaryOp op = {},
           const Descriptor& desc = {}) {
  detail::apply(z, mask, x, spgraph::detail::unary_id(op), desc);
}

// C = diag(d) A (row i scaled by d[i]) and C = A diag(d) (column j scaled by d[j]); A's
// pattern is kept, also where the product is 0.
template <class V>
void scale_rows(Matrix<V>& C, const Vector<V>& d, const Matrix<V>& A) { detail::scale(C, A, d, true); }
template <class V>
void scale_cols(Matrix<V>& C, const Matrix<V>& A, const Vector<V>& d) { detail::scale(C, A, d, false); }

}  // namespace spgraph::gpu
