#pragma once
// The operations API (spgraph/operations.hpp) on SuiteSparse:GraphBLAS. Same names, argument
// order and semantics as the gpu backend; masks and descriptors as in spgraph/descriptor.hpp.
//
// Every semiring, operator and monoid is mapped onto a GraphBLAS built-in for the value type;
// a combination without one (any.secondi over float, lor over double, a user-defined op)
// throws spgraph::Error naming it and the type. Nothing falls back to plus-times. Over bool,
// plus and max are lor and min and times are land, exactly as semiring.hpp computes them.
//
// Outputs: a matrix or vector output whose dimensions differ from the result's is replaced by
// a new one of the right dimensions, except where its old entries still matter (mxm with a
// mask and no replace: then a C holding entries must already match). mxv and vxm differ: y must
// already have the result's length or be empty, because positions the mask does not allow
// keep y's old values.
//
// The templates only translate compile-time types into run-time ids; the GraphBLAS calls live
// in lib/src/graphblas/*.cpp, instantiated for the five value types.
#include <type_traits>
#include <vector>

#include "spgraph/descriptor.hpp"
#include "spgraph/graphblas/matrix.hpp"
#include "spgraph/operation_options.hpp"
#include "spgraph/operator_ids.hpp"

namespace spgraph::graphblas {

namespace detail {

using spgraph::detail::Op;
using spgraph::detail::op_id;
using spgraph::detail::OpId;
using spgraph::detail::semiring_id;
using spgraph::detail::SemiringId;
using spgraph::detail::Unary;
using spgraph::detail::unary_id;
using spgraph::detail::UnaryId;

template <class V>
void mxm(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, const Matrix<V>& B, SemiringId sr,
         const Descriptor& desc);
// y<mask> = A x (matrix_first) or x' A; identity fills positions left without a value.
template <class V>
void spmv(Vector<V>& y, const Vector<V>* mask, const Matrix<V>& A, const Vector<V>& x, bool matrix_first,
          SemiringId sr, V identity, const Descriptor& desc);
// Matrix operations write C<mask> = T as operations.hpp defines (GraphBLAS does it natively).
template <class V>
void ewise(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, const Matrix<V>& B, OpId op, bool is_union,
           const Descriptor& desc);
template <class V>
void ewise(Vector<V>& z, const Vector<V>* mask, const Vector<V>& x, const Vector<V>& y, OpId op, bool is_union,
           const Descriptor& desc);
template <class V> void apply(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, UnaryId op, const Descriptor& desc);
template <class V> void apply(Vector<V>& z, const Vector<V>* mask, const Vector<V>& x, UnaryId op, const Descriptor& desc);
template <class V> void scale(Matrix<V>& C, const Matrix<V>& A, const Vector<V>& d, bool rows);
// T is V, or int64_t for an int32_t or bool input.
template <class T, class V> void reduce_vector(Vector<T>& y, const Matrix<V>& A, bool rows, OpId monoid);
template <class T, class V> T reduce_scalar(const Matrix<V>& A, OpId monoid);
template <class T, class V> T reduce_scalar(const Vector<V>& x, OpId monoid);

}  // namespace detail

// C<mask> = A (+.*) B, with A and/or B transposed per desc. MxmOptions is for the gpu
// backend; GraphBLAS picks its own algorithm.
template <class SR, class V>
void mxm(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const Matrix<V>& B, SR,
         const Descriptor& desc = {}, const MxmOptions& = {}) {
  detail::mxm(C, mask, A, B, detail::semiring_id<SR>(), desc);
}

namespace detail {
template <class V>
void mxm_prune_rows(Matrix<V>& C, Vector<V>& peak, Vector<V>& squares, const Matrix<V>& A, const Matrix<V>& B,
                    SemiringId sr, const PruneSpec& spec, std::size_t memory_budget);
}  // namespace detail

// C = A (+.*) B, rows pruned as spec says (operations.hpp's mxm_prune_rows), for the plus-times
// semiring (anything else is an Error): each row produced by one thread and pruned at once with
// the rule the GPU shares, as the mcl program expands, so no unpruned row is ever stored; A and
// B are read in place. GraphBLAS's own sums, term for term (lib/src/graphblas/prune.cpp).
// MxmOptions::memory_budget is not used: there are no panels on the CPU.
template <class SR, class V>
void mxm_prune_rows(Matrix<V>& C, Vector<V>& peak, Vector<V>& squares, const Matrix<V>& A, const Matrix<V>& B, SR,
                    const PruneSpec& spec, const MxmOptions& options = {}) {
  detail::mxm_prune_rows(C, peak, squares, A, B, detail::semiring_id<SR>(), spec, options.memory_budget);
}

// y<mask> = A x, dense: allowed positions without a product, and (with replace) positions the
// mask does not allow, get SR's identity; without replace the latter keep y's old values.
// y must have the result's length, or be empty (size 0 or default-constructed): then it is
// created with that length, all identity ("absent"). A vector mask is dense too, so a
// structural one allows every position: use a valued mask. desc.transpose_a transposes A
// (GraphBLAS's first input); transpose_b, which would transpose x, throws.
// SpmvOptions is for the gpu backend.
template <class SR, class V>
void mxv(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Matrix<V>& A, const Vector<V>& x, SR,
         const Descriptor& desc = {}, const SpmvOptions& = {}) {
  detail::spmv(y, mask, A, x, true, detail::semiring_id<SR>(), SR::template identity<V>(), desc);
}

// y<mask> = x' A; as mxv, except that A is GraphBLAS's second input here: desc.transpose_b
// transposes A and transpose_a throws.
template <class SR, class V>
void vxm(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, const Matrix<V>& A, SR,
         const Descriptor& desc = {}, const SpmvOptions& = {}) {
  detail::spmv(y, mask, A, x, false, detail::semiring_id<SR>(), SR::template identity<V>(), desc);
}

// C<mask> = A (+) B: union of patterns; Op(a, b) where both exist, the one value where only
// one does. Masks and replace as operations.hpp defines them.
template <class Op, class V>
void ewise_add(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const Matrix<V>& B,
               const Descriptor& desc = {}) {
  detail::ewise(C, mask, A, B, detail::op_id<Op>(), true, desc);
}
template <class Op, class V>
void ewise_add(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, const Vector<V>& y,
               const Descriptor& desc = {}) {
  detail::ewise(z, mask, x, y, detail::op_id<Op>(), true, desc);
}
// C<mask> = A (.*) B: intersection of patterns, Op(a, b).
template <class Op, class V>
void ewise_mult(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const Matrix<V>& B,
                const Descriptor& desc = {}) {
  detail::ewise(C, mask, A, B, detail::op_id<Op>(), false, desc);
}
template <class Op, class V>
void ewise_mult(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, const Vector<V>& y,
                const Descriptor& desc = {}) {
  detail::ewise(z, mask, x, y, detail::op_id<Op>(), false, desc);
}
// Without a mask.
template <class Op, class V>
void ewise_add(Matrix<V>& C, const Matrix<V>& A, const Matrix<V>& B) { ewise_add<Op, V>(C, nullptr, A, B); }
template <class Op, class V>
void ewise_add(Vector<V>& z, const Vector<V>& x, const Vector<V>& y) { ewise_add<Op, V>(z, nullptr, x, y); }
template <class Op, class V>
void ewise_mult(Matrix<V>& C, const Matrix<V>& A, const Matrix<V>& B) { ewise_mult<Op, V>(C, nullptr, A, B); }
template <class Op, class V>
void ewise_mult(Vector<V>& z, const Vector<V>& x, const Vector<V>& y) { ewise_mult<Op, V>(z, nullptr, x, y); }

// C<mask> = op(A) on every stored entry. Scale, AddScalar and Pow compute in double and
// convert to V, as unary_ops.hpp defines them.
template <class UnaryOp, class V>
void apply(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, UnaryOp op = {},
           const Descriptor& desc = {}) {
  detail::apply(C, mask, A, detail::unary_id(op), desc);
}
template <class UnaryOp, class V>
void apply(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, UnaryOp op = {},
           const Descriptor& desc = {}) {
  detail::apply(z, mask, x, detail::unary_id(op), desc);
}
template <class UnaryOp, class V>
void apply(Matrix<V>& C, const Matrix<V>& A, UnaryOp op = {}) { detail::apply<V>(C, nullptr, A, detail::unary_id(op), {}); }
template <class UnaryOp, class V>
void apply(Vector<V>& z, const Vector<V>& x, UnaryOp op = {}) { detail::apply<V>(z, nullptr, x, detail::unary_id(op), {}); }

// C = diag(d) A and C = A diag(d), A's pattern kept.
template <class V>
void scale_rows(Matrix<V>& C, const Vector<V>& d, const Matrix<V>& A) { detail::scale(C, A, d, true); }
template <class V>
void scale_cols(Matrix<V>& C, const Matrix<V>& A, const Vector<V>& d) { detail::scale(C, A, d, false); }

// C<mask> = the entries of A that spec keeps (operations.hpp).
template <class V>
void select(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const SelectSpec& spec,
            const Descriptor& desc = {});
template <class V>
void select(Matrix<V>& C, const Matrix<V>& A, const SelectSpec& spec) { select<V>(C, nullptr, A, spec); }

// y(i) = Monoid over row i (reduce_rows) or column i (reduce_cols); identity when empty. y may
// be a Vector<int64_t> for an int32_t or bool A.
template <class Monoid, class T, class V>
void reduce_rows(Vector<T>& y, const Matrix<V>& A) { detail::reduce_vector(y, A, true, detail::op_id<Monoid>()); }
template <class Monoid, class T, class V>
void reduce_cols(Vector<T>& y, const Matrix<V>& A) { detail::reduce_vector(y, A, false, detail::op_id<Monoid>()); }
// Monoid over all stored entries, as V or as T (int64_t counts); the identity when there are none.
template <class Monoid, class T = void, class V>
std::conditional_t<std::is_void_v<T>, V, T> reduce_scalar(const Matrix<V>& A) {
  return detail::reduce_scalar<std::conditional_t<std::is_void_v<T>, V, T>>(A, detail::op_id<Monoid>());
}
template <class Monoid, class T = void, class V>
std::conditional_t<std::is_void_v<T>, V, T> reduce_scalar(const Vector<V>& x) {
  return detail::reduce_scalar<std::conditional_t<std::is_void_v<T>, V, T>>(x, detail::op_id<Monoid>());
}

// w<mask> = s; C<M> = s (M given, not complemented), as gpu/assign.hpp.
template <class V>
void assign(Vector<V>& w, const std::type_identity_t<Vector<V>>* mask, std::type_identity_t<V> s,
            const Descriptor& desc = {});
template <class V>
void assign(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, std::type_identity_t<V> s,
            const Descriptor& desc = {});
// C = A(rows, :);  C = P A P' with C(i,j) = A(p[i], p[j]).
template <class V>
void extract_rows(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& rows);
template <class V>
void permute(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& p);
template <class V>
void permute(Matrix<V>& C, const Matrix<V>& A, const Vector<vid_t>& p);
// w(k) = x(ids[k]);  p = 0..n-1 ordered by keys (stable), as gpu/assign.hpp.
template <class V>
void extract(Vector<V>& w, const Vector<V>& x, const std::vector<vid_t>& ids);
void sort_order(Vector<vid_t>& p, const Vector<vid_t>& keys, bool ascending);

template <class V>
void transpose(Matrix<V>& C, const Matrix<V>& A);
// C = diag(v): n x n with v(i) at (i, i).
template <class V>
void diag(Matrix<V>& C, const Vector<V>& v);

// d(i) = the entries stored in row i of A (out-degrees of a graph), a Vector<int32>.
template <class V>
void row_degrees(Vector<vid_t>& d, const Matrix<V>& A);

}  // namespace spgraph::graphblas
