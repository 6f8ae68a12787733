#pragma once
// inflate_rows (operations.hpp) as the contract's own steps: for backends without a pass of
// their own (graphblas, whose apply and scale_rows rewrite E in place; dist, whose row sums
// cross the grid row). The gpu backend fuses the same arithmetic into one kernel.
#include "spgraph/operation_options.hpp"
#include "spgraph/semiring.hpp"
#include "spgraph/unary_ops.hpp"

namespace spgraph::detail {

template <class B, class V>
void inflate_rows_in_steps(typename B::template Matrix<V>& C, const typename B::template Matrix<V>& A,
                           const InflateSpec& spec) {
  typename B::template Vector<V> sums;
  B::apply(C, nullptr, A, unary::Pow{spec.power});
  B::template reduce_rows<monoid::Plus>(sums, C);
  B::apply(sums, nullptr, sums, unary::Inverse{});
  B::scale_rows(C, sums, C);
  if (spec.float_values) B::apply(C, nullptr, C, unary::ToFloat{});
}

}  // namespace spgraph::detail
