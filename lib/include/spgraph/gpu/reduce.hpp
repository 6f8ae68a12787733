#pragma once
// Reductions on the GPU: each row or column of a matrix to a dense vector, a matrix or vector
// to a scalar, with the monoids plus, min, max, lor and any (run-time dispatch, compiled once
// per value type in lib/src/gpu/ops/reduce_<type>.cu). The result type T is V, or int64_t
// for an int32_t or bool input: counts that pass 2^31 (degrees, triangles) stay exact.
// An empty row, column or input gives the monoid's identity. The scalar forms synchronise the
// host with the device (they return the value).
#include <type_traits>

#include "spgraph/gpu/matrix.hpp"
#include "spgraph/operator_ids.hpp"

namespace spgraph::gpu {

namespace detail {
template <class T, class V>
void reduce_vector(Vector<T>& y, const Matrix<V>& A, bool rows, spgraph::detail::OpId monoid);
template <class T, class V> T reduce_scalar(const Matrix<V>& A, spgraph::detail::OpId monoid);
template <class T, class V> T reduce_scalar(const Vector<V>& x, spgraph::detail::OpId monoid);
}  // namespace detail

template <class Monoid, class T, class V>
void reduce_rows(Vector<T>& y, const Matrix<V>& A) { detail::reduce_vector(y, A, true, spgraph::detail::op_id<Monoid>()); }
template <class Monoid, class T, class V>
void reduce_cols(Vector<T>& y, const Matrix<V>& A) { detail::reduce_vector(y, A, false, spgraph::detail::op_id<Monoid>()); }

// reduce_scalar<monoid::Plus>(A) -> V;  reduce_scalar<monoid::Plus, std::int64_t>(A) -> int64_t
template <class Monoid, class T = void, class V>
std::conditional_t<std::is_void_v<T>, V, T> reduce_scalar(const Matrix<V>& A) {
  return detail::reduce_scalar<std::conditional_t<std::is_void_v<T>, V, T>>(A, spgraph::detail::op_id<Monoid>());
}
template <class Monoid, class T = void, class V>
std::conditional_t<std::is_void_v<T>, V, T> reduce_scalar(const Vector<V>& x) {
  return detail::reduce_scalar<std::conditional_t<std::is_void_v<T>, V, T>>(x, spgraph::detail::op_id<Monoid>());
}

}  // namespace spgraph::gpu
