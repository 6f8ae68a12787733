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

#include "spgraph/graphblas/matrix.hpp"
#include "spgraph/operations.hpp"
#include "spgraph/unary_ops.hpp"

namespace spgraph::graphblas {

namespace detail {

enum class Op : unsigned char { Unknown, Plus, Min, Max, Lor, Any, Times, First, Second, Pair, Land, SecondI };

struct OpId {
  Op op;
  const char* name;  // for messages
};

// monoid:: and mult:: types (mult::Plus and monoid::Plus are the same operator).
template <class T>
constexpr OpId op_id() {
  const char* name = "user-defined";
  if constexpr (requires { T::name; }) name = T::name;
  Op op = Op::Unknown;
  if constexpr (std::is_same_v<T, monoid::Plus> || std::is_same_v<T, mult::Plus>) op = Op::Plus;
  else if constexpr (std::is_same_v<T, monoid::Min>) op = Op::Min;
  else if constexpr (std::is_same_v<T, monoid::Max>) op = Op::Max;
  else if constexpr (std::is_same_v<T, monoid::Lor>) op = Op::Lor;
  else if constexpr (std::is_same_v<T, monoid::Any>) op = Op::Any;
  else if constexpr (std::is_same_v<T, mult::Times>) op = Op::Times;
  else if constexpr (std::is_same_v<T, mult::First>) op = Op::First;
  else if constexpr (std::is_same_v<T, mult::Second>) op = Op::Second;
  else if constexpr (std::is_same_v<T, mult::Pair>) op = Op::Pair;
  else if constexpr (std::is_same_v<T, mult::Land>) op = Op::Land;
  else if constexpr (std::is_same_v<T, mult::SecondI>) op = Op::SecondI;
  return {op, name};
}

struct SemiringId {
  OpId add, mul;
};

template <class SR>
constexpr SemiringId semiring_id() {
  return {op_id<typename SR::add_monoid>(), op_id<typename SR::multiply_op>()};
}

enum class Unary : unsigned char { Unknown, Identity, Abs, Negate, One, Scale, AddScalar, Pow };

struct UnaryId {
  Unary kind;
  double scalar;  // s of Scale and AddScalar, e of Pow
};

template <class U>
constexpr UnaryId unary_id(const U& u) {
  if constexpr (std::is_same_v<U, unary::Identity>) return {Unary::Identity, 0};
  else if constexpr (std::is_same_v<U, unary::Abs>) return {Unary::Abs, 0};
  else if constexpr (std::is_same_v<U, unary::Negate>) return {Unary::Negate, 0};
  else if constexpr (std::is_same_v<U, unary::One>) return {Unary::One, 0};
  else if constexpr (std::is_same_v<U, unary::Scale>) return {Unary::Scale, u.s};
  else if constexpr (std::is_same_v<U, unary::AddScalar>) return {Unary::AddScalar, u.s};
  else if constexpr (std::is_same_v<U, unary::Pow>) return {Unary::Pow, u.e};
  else return {Unary::Unknown, 0};
}

template <class V>
void mxm(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, const Matrix<V>& B, SemiringId sr,
         const Descriptor& desc);
// y<mask> = A x (matrix_first) or x' A; identity fills positions left without a value.
template <class V>
void spmv(Vector<V>& y, const Vector<V>* mask, const Matrix<V>& A, const Vector<V>& x, bool matrix_first,
          SemiringId sr, V identity, const Descriptor& desc);
template <class V> void ewise_add(Matrix<V>& C, const Matrix<V>& A, const Matrix<V>& B, OpId op);
template <class V> void ewise_mult(Matrix<V>& C, const Matrix<V>& A, const Matrix<V>& B, OpId op);
template <class V> void ewise_add(Vector<V>& z, const Vector<V>& x, const Vector<V>& y, OpId op);
template <class V> void ewise_mult(Vector<V>& z, const Vector<V>& x, const Vector<V>& y, OpId op);
template <class V> void apply(Matrix<V>& C, const Matrix<V>& A, UnaryId op);
template <class V> void apply(Vector<V>& z, const Vector<V>& x, UnaryId op);
template <class V> void reduce_vector(Vector<V>& y, const Matrix<V>& A, bool rows, OpId monoid, V identity);
template <class V> V reduce_scalar(const Matrix<V>& A, OpId monoid, V identity);
template <class V> V reduce_scalar(const Vector<V>& x, OpId monoid, V identity);

}  // namespace detail

// C<mask> = A (+.*) B, with A and/or B transposed per desc. MxmOptions is for the gpu
// backend; GraphBLAS picks its own algorithm.
template <class SR, class V>
void mxm(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const Matrix<V>& B, SR,
         const Descriptor& desc = {}, const MxmOptions& = {}) {
  detail::mxm(C, mask, A, B, detail::semiring_id<SR>(), desc);
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

// Union of patterns; Op(a, b) where both exist, the one value where only one does.
template <class Op, class V>
void ewise_add(Matrix<V>& C, const Matrix<V>& A, const Matrix<V>& B) {
  detail::ewise_add(C, A, B, detail::op_id<Op>());
}
template <class Op, class V>
void ewise_add(Vector<V>& z, const Vector<V>& x, const Vector<V>& y) {
  detail::ewise_add(z, x, y, detail::op_id<Op>());
}
// Intersection of patterns, Op(a, b).
template <class Op, class V>
void ewise_mult(Matrix<V>& C, const Matrix<V>& A, const Matrix<V>& B) {
  detail::ewise_mult(C, A, B, detail::op_id<Op>());
}
template <class Op, class V>
void ewise_mult(Vector<V>& z, const Vector<V>& x, const Vector<V>& y) {
  detail::ewise_mult(z, x, y, detail::op_id<Op>());
}

// C = op(A) on every stored entry. Scale, AddScalar and Pow compute in double and convert
// to V, as unary_ops.hpp defines them.
template <class UnaryOp, class V>
void apply(Matrix<V>& C, const Matrix<V>& A, UnaryOp op = {}) {
  detail::apply(C, A, detail::unary_id(op));
}
template <class UnaryOp, class V>
void apply(Vector<V>& z, const Vector<V>& x, UnaryOp op = {}) {
  detail::apply(z, x, detail::unary_id(op));
}

// Threshold kinds compare double(value) with spec.threshold. TopKPerRow keeps the spec.k
// largest values of each row (ties: smaller column first) and ignores the threshold.
template <class V>
void select(Matrix<V>& C, const Matrix<V>& A, const SelectSpec& spec);

// y(i) = Monoid over row i (reduce_rows) or column i (reduce_cols); identity when empty.
template <class Monoid, class V>
void reduce_rows(Vector<V>& y, const Matrix<V>& A) {
  detail::reduce_vector(y, A, true, detail::op_id<Monoid>(), Monoid::template identity<V>());
}
template <class Monoid, class V>
void reduce_cols(Vector<V>& y, const Matrix<V>& A) {
  detail::reduce_vector(y, A, false, detail::op_id<Monoid>(), Monoid::template identity<V>());
}
// Monoid over all stored entries; the identity when there are none.
template <class Monoid, class V>
V reduce_scalar(const Matrix<V>& A) {
  return detail::reduce_scalar(A, detail::op_id<Monoid>(), Monoid::template identity<V>());
}
template <class Monoid, class V>
V reduce_scalar(const Vector<V>& x) {
  return detail::reduce_scalar(x, detail::op_id<Monoid>(), Monoid::template identity<V>());
}

template <class V>
void transpose(Matrix<V>& C, const Matrix<V>& A);

}  // namespace spgraph::graphblas
