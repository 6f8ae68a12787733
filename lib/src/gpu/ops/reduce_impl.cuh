#pragma once
// Reductions on the GPU (spgraph/gpu/reduce.hpp), included by reduce_<type>.cu: rows by CUB's
// segmented reduce over the row offsets, columns the same over the transpose, a whole matrix
// or vector by CUB's device reduce. Values are read as T (a pattern entry as 1) and combined
// with the monoid's add from semiring.hpp; over bool, plus and max are lor and min is land.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <string>

#include "device/cub_call.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/reduce.hpp"
#include "spgraph/gpu/transpose.hpp"
#include "spgraph/semiring.hpp"

namespace spgraph::gpu {
namespace reduce_detail {

using spgraph::detail::Op;
using spgraph::detail::OpId;

// Entry p as T; val == nullptr is a pattern (every entry 1).
template <class T, class V>
struct LoadAs {
  const V* val;
  SPGRAPH_HD T operator()(eid_t p) const { return val ? T(val[p]) : T(1); }
};

template <class Monoid>
struct AddOp {
  template <class T>
  SPGRAPH_HD T operator()(T a, T b) const { return Monoid::add(a, b); }
};

template <class T, class V>
auto load_as(const V* val) {
  return thrust::make_transform_iterator(thrust::counting_iterator<eid_t>(0), LoadAs<T, V>{val});
}

// Calls f(Monoid{}) for the monoid op names; throws for any other operator.
template <class F>
void with_monoid(OpId op, const char* what, F&& f) {
  switch (op.op) {
    case Op::Plus: f(monoid::Plus{}); return;
    case Op::Min: f(monoid::Min{}); return;
    case Op::Max: f(monoid::Max{}); return;
    case Op::Lor: f(monoid::Lor{}); return;
    case Op::Any: f(monoid::Any{}); return;
    default:
      throw Error(std::string("gpu: ") + what + ": " + op.name +
                  " is not a monoid the gpu backend reduces with; use plus, min, max, lor or any");
  }
}

template <class T, class V>
void reduce_rows_of(Vector<T>& y, const device::DeviceCsr<V>& a, OpId op, const char* what) {
  if (y.size() != std::size_t(a.nrows)) y.reset(a.nrows);
  if (a.nrows == 0) return;
  with_monoid(op, what, [&](auto m) {
    using M = decltype(m);
    const auto in = load_as<T>(a.is_pattern() ? nullptr : a.val.data());
    T* out = y.data();
    const eid_t* rowptr = a.rowptr.data();
    device::run_cub(
        [&](void* temp, std::size_t& bytes) {
          return cub::DeviceSegmentedReduce::Reduce(temp, bytes, in, out, a.nrows, rowptr, rowptr + 1, AddOp<M>{},
                                                    M::template identity<T>(), 0);
        },
        0);
  });
}

// Monoid over the n values at val (nullptr: n ones), as T.
template <class T, class V>
T reduce_all(const V* val, eid_t n, OpId op) {
  T result{};
  with_monoid(op, "reduce_scalar", [&](auto m) {
    using M = decltype(m);
    result = M::template identity<T>();
    if (n == 0) return;
    device::Buffer<T> out(1);
    const auto in = load_as<T>(val);
    device::run_cub(
        [&](void* temp, std::size_t& bytes) {
          return cub::DeviceReduce::Reduce(temp, bytes, in, out.data(), n, AddOp<M>{}, M::template identity<T>(), 0);
        },
        0);
    result = device::read_value(out.data());
  });
  return result;
}

}  // namespace reduce_detail

namespace detail {

template <class T, class V>
void reduce_vector(Vector<T>& y, const Matrix<V>& A, bool rows, spgraph::detail::OpId monoid) {
  if (rows) reduce_detail::reduce_rows_of(y, A.csr(), monoid, "reduce_rows");
  else reduce_detail::reduce_rows_of(y, transpose(A).csr(), monoid, "reduce_cols");
}

template <class T, class V>
T reduce_scalar(const Matrix<V>& A, spgraph::detail::OpId monoid) {
  return reduce_detail::reduce_all<T>(A.is_pattern() ? nullptr : A.csr().val.data(), A.nnz(), monoid);
}

template <class T, class V>
T reduce_scalar(const Vector<V>& x, spgraph::detail::OpId monoid) {
  return reduce_detail::reduce_all<T>(x.data(), eid_t(x.size()), monoid);
}

}  // namespace detail
}  // namespace spgraph::gpu

// Reductions of V-valued inputs to T (T = V, or std::int64_t counts).
#define SPGRAPH_INSTANTIATE_REDUCE(T, V)                                                                     \
  template void spgraph::gpu::detail::reduce_vector<T, V>(spgraph::gpu::Vector<T>&,                        \
                                                          const spgraph::gpu::Matrix<V>&, bool,            \
                                                          spgraph::detail::OpId);                          \
  template T spgraph::gpu::detail::reduce_scalar<T, V>(const spgraph::gpu::Matrix<V>&, spgraph::detail::OpId); \
  template T spgraph::gpu::detail::reduce_scalar<T, V>(const spgraph::gpu::Vector<V>&, spgraph::detail::OpId);
