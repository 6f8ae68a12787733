#pragma once
// The operations contract: every operation an algorithm may call, with GraphBLAS's semantics,
// as the C++20 concept spgraph::Backend. Both backends satisfy it (each static_asserts it):
//
//   spgraph::gpu::GpuBackend              this project's CUDA kernels   (gpu/backend.hpp)
//   spgraph::graphblas::GraphBlasBackend  SuiteSparse:GraphBLAS, CPU    (graphblas/backend.hpp)
//
// An algorithm is a template over B with `requires Backend<B>`, calling B::op(...). Inside a
// template, names of member templates need `B::template`. Capabilities that only one backend
// has are smaller concepts (FusedMxvReduce, DeviceLoop) that an algorithm tests with
// `if constexpr (DeviceLoop<B>)`.
//
// Containers: B::Matrix<V> is a sparse matrix (CSR on the GPU), B::Vector<V> a dense vector
// in which an absent entry is the add monoid's identity (descriptor.hpp). Value types: float,
// double, int32_t, int64_t, bool; std::uint64_t words for mxv/vxm with bitwise semirings.
//
// Masks and descriptors (descriptor.hpp): every operation with a `mask` parameter writes
//   C<M> = T   where T is the operation's result:
//   allowed(i,j) = M(i,j) exists (structural) or exists and != 0 (valued), inverted by
//   mask_complement; a null mask allows everything (with complement: nothing).
//   C(i,j) = T(i,j) where allowed (absent if T has no entry there); elsewhere the old C(i,j)
//   without replace, absent with replace. A C whose dimensions differ from T's has no old
//   entries to keep (it is replaced). Vector masks are dense: structural allows every position.
// There is no accumulator: GraphBLAS's C += T is written as ewise_add(C, nullptr, C, T).
//
// The operations (M: matrix, v: vector; `mask` may be nullptr):
//   mxm(C, mask, A, B, SR, desc, MxmOptions)   C<M> = A (+.*) B; transpose_a/b; a complemented
//                                              mask is applied inside the product
//   mxm_reduce_rows(y, M, A, B, SR, desc)      y(i) = sum over row i of C<M> = A (+.*) B: SR's add
//                                              monoid is plus, M is required and not complemented,
//                                              y is a Vector<sum_type_t<V>> (int64_t counts for
//                                              integer V); the GPU never forms C
//   mxm_prune_rows(C, peak, squares, A, B, SR, PruneSpec, MxmOptions)
//                                              C = A (+.*) B with each row pruned as PruneSpec
//                                              says (MCL's expansion), computed in row panels
//                                              that fit the budget (0: half of what is free),
//                                              each pruned as it is produced; peak(i) and
//                                              squares(i): the largest value and the sum of
//                                              squares of row i before pruning (float, double)
//   inflate_rows(C, A, InflateSpec)            C = A with each row raised to a power and scaled to
//                                              sum 1, in one pass (MCL's inflation; float, double;
//                                              in place where C is A)
//   mxv(y, mask, A, x, SR, desc, SpmvOptions)  y<m> = A x;   vxm(y, mask, x, A, ...) y<m> = x' A
//   ewise_add<Op>(C, mask, A, B, desc)         union of patterns: Op(a,b) where both, else the one
//   ewise_mult<Op>(C, mask, A, B, desc)        intersection of patterns: Op(a,b)
//       (matrices or vectors; Op: a monoid:: or mult:: operator of semiring.hpp)
//   apply(C, mask, A, UnaryOp, desc)           C<M> = op(A) on stored entries (unary_ops.hpp)
//   scale_rows(C, d, A)                        C = diag(d) A: row i times d(i) (d: A's rows)
//   scale_cols(C, A, d)                        C = A diag(d): column j times d(j) (MCL's
//                                              normalisation, with d = 1 / column sums)
//   select(C, mask, A, SelectSpec, desc)       C<M> = the entries of A that the spec keeps
//   reduce_rows<Monoid>(y, A), reduce_cols     y(i) = Monoid over row (column) i; identity if empty.
//                                              y may be Vector<int64_t> for an int32_t or bool A
//                                              (counts that can pass 2^31)
//   reduce_scalar<Monoid>(A | x) -> V,  reduce_scalar<Monoid, std::int64_t>(A | x) -> int64_t
//   assign(w, mask, s, desc)                   w<m> = s (every allowed position)
//   assign(C, mask, s, desc)                   C<M> = s at every position the mask allows; the
//                                              mask must not be complemented (that C is dense)
//   extract_rows(C, A, rows)                   C = A(rows, :), rows.size() x A.ncols()
//   permute(C, A, p)                           C = P A P': C(i,j) = A(p[i], p[j]), p a permutation
//                                              (a std::vector, or a Vector<vid_t> on the backend)
//   extract(w, x, ids)                         w(k) = x(ids[k])
//   sort_order(p, keys, ascending)             p = 0..n-1 ordered by the Vector<vid_t> keys, ties
//                                              in ascending position (relabeling by degree)
//   transpose(C, A)                            C = A'
//   diag(C, v)                                 C = diag(v): n x n, C(i,i) = v(i) for every i
//   row_degrees(d, A)                          d(i) = the entries stored in row i, a Vector<vid_t>
//   from_host / to_host                        Csr<V> and std::vector<V> to and from the backend
//   pattern_from_host<V>(Csr<W>)               a host matrix's structure alone, entries read as 1
//   zeros<V>(n)                                a dense vector of n zeros, made on the backend
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/descriptor.hpp"
#include "spgraph/operation_options.hpp"
#include "spgraph/semiring.hpp"
#include "spgraph/sum_type.hpp"
#include "spgraph/unary_ops.hpp"

namespace spgraph {

namespace detail {

// The operations of the contract over value type V; the requires-expression only checks
// that each call is declared with these argument types.
template <class B, class V>
concept OperationsOver = requires(typename B::template Matrix<V>& C, const typename B::template Matrix<V>& A,
                                  typename B::template Vector<V>& y, const typename B::template Vector<V>& x,
                                  typename B::template Vector<std::int64_t>& counts,
                                  typename B::template Vector<vid_t>& degrees, const Csr<V>& host_matrix,
                                  const std::vector<V>& host_vector, const Descriptor& desc,
                                  const SelectSpec& spec, const std::vector<vid_t>& ids,
                                  const typename B::template Vector<vid_t>& device_ids, V s) {
  { B::from_host(host_matrix) } -> std::same_as<typename B::template Matrix<V>>;
  { B::to_host(A) } -> std::same_as<Csr<V>>;
  { B::from_host(host_vector) } -> std::same_as<typename B::template Vector<V>>;
  { B::template pattern_from_host<V>(host_matrix) } -> std::same_as<typename B::template Matrix<V>>;
  { B::to_host(x) } -> std::same_as<std::vector<V>>;
  { B::template zeros<V>(std::size_t{1}) } -> std::same_as<typename B::template Vector<V>>;
  B::mxm(C, &A, A, A, PlusTimes{}, desc, MxmOptions{});
  B::mxv(y, &x, A, x, PlusTimes{}, desc, SpmvOptions{});
  B::vxm(y, &x, x, A, PlusTimes{}, desc, SpmvOptions{});
  B::template ewise_add<monoid::Plus>(C, &A, A, A, desc);
  B::template ewise_add<monoid::Plus>(y, &x, x, x, desc);
  B::template ewise_mult<mult::Times>(C, &A, A, A, desc);
  B::template ewise_mult<mult::Times>(y, &x, x, x, desc);
  B::apply(C, &A, A, unary::Pow{2}, desc);
  B::apply(y, &x, x, unary::Abs{}, desc);
  B::scale_rows(C, x, A);
  B::scale_cols(C, A, x);
  B::select(C, &A, A, spec, desc);
  B::template reduce_rows<monoid::Plus>(y, A);
  B::template reduce_cols<monoid::Max>(y, A);
  B::template reduce_rows<monoid::Plus>(counts, A);
  { B::template reduce_scalar<monoid::Plus>(A) } -> std::same_as<V>;
  { B::template reduce_scalar<monoid::Plus>(x) } -> std::same_as<V>;
  { B::template reduce_scalar<monoid::Plus, std::int64_t>(A) } -> std::same_as<std::int64_t>;
  B::assign(y, &x, s, desc);
  B::assign(C, &A, s, desc);
  B::extract_rows(C, A, ids);
  B::permute(C, A, ids);
  B::permute(C, A, device_ids);
  B::extract(y, x, ids);
  B::transpose(C, A);
  B::diag(C, x);
  B::row_degrees(degrees, A);
};

// The sums over value type V (int32_t, int64_t, float, double).
template <class B, class V>
concept SumsOver = requires(typename B::template Vector<sum_type_t<V>>& sums, const typename B::template Matrix<V>& A,
                            const Descriptor& desc) {
  B::mxm_reduce_rows(sums, A, A, A, PlusPair{}, desc);
  B::mxm_reduce_rows(sums, A, A, A, PlusTimes{}, desc);
};

// MCL's pruned expansion and its inflation over value type V (float, double).
template <class B, class V>
concept PrunedProductsOver = requires(typename B::template Matrix<V>& C, const typename B::template Matrix<V>& A,
                                      typename B::template Vector<V>& y, const PruneSpec& spec) {
  B::mxm_prune_rows(C, y, y, A, A, PlusTimes{}, spec, MxmOptions{});
  B::inflate_rows(C, A, InflateSpec{});
};

}  // namespace detail

template <class B>
concept Backend = requires {
  { B::name } -> std::convertible_to<const char*>;
  typename B::Stopwatch;
} && detail::OperationsOver<B, float> && detail::OperationsOver<B, double> &&
    detail::OperationsOver<B, std::int32_t> && detail::OperationsOver<B, std::int64_t> &&
    detail::OperationsOver<B, bool> && detail::SumsOver<B, std::int32_t> && detail::SumsOver<B, std::int64_t> &&
    detail::SumsOver<B, float> && detail::SumsOver<B, double> && detail::PrunedProductsOver<B, float> &&
    detail::PrunedProductsOver<B, double> &&
    requires(typename B::template Vector<vid_t>& p, const typename B::template Vector<vid_t>& keys) {
      B::sort_order(p, keys, true);
    };

// An SpMV fused with a pass over its rows (gpu/mxv_reduce.hpp, graphblas/mxv_reduce.hpp)
// and the dense-vector pass map_reduce. A vector the pass only reads is passed const (its
// functor then sees a const pointer); the others are written.
template <class B>
concept FusedMxvReduce = Backend<B> && requires {
  typename B::template MxvReducer<double, 1>;
  typename B::template MapReducer<1>;
};

// Many such iterations in one kernel, stopping on the device (gpu/mxv_loop.hpp): gpu only.
template <class B>
concept DeviceLoop = FusedMxvReduce<B> && requires { typename B::template MxvLoop<double, 1>; };

// Breadth-first search from up to 64 sources with one bit per source in a word per vertex
// (gpu/word_bfs.hpp): gpu only.
template <class B>
concept WordFrontierBfs = Backend<B> && requires { typename B::WordBfs; };

}  // namespace spgraph
