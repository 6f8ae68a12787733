#pragma once
// Assigning and restructuring on the GPU (compiled once per value type in
// lib/src/gpu/ops/assign_<type>.cu):
//   assign(w, mask, s, desc)   w<mask> = s on a dense vector (BFS levels); positions the mask
//                              does not allow keep their value, or become 0 with replace. The
//                              length is w's; an empty w takes the mask's
//   assign(C, mask, s, desc)   C<M> = s: every position M allows gets s; the rest follows
//                              replace (operations.hpp). M must be given and not complemented
//                              (that result would be dense): Error otherwise.
//   extract_rows(C, A, rows)   C = A(rows, :); rows may repeat; an id outside A throws Error
//   permute(C, A, p)           C = P A P', C(i,j) = A(p[i], p[j]) (LAGraph's A(p,p)), for
//                              degree-ordered relabeling; p must be a permutation of 0..n-1,
//                              on the host or on the device (checked there)
//   extract(w, x, ids)         w(k) = x(ids[k]); an id outside x throws Error
//   diag(C, v)                 C = diag(v), n x n with v(i) at (i, i) for every i
//   sort_order(p, keys, asc)   p = 0..n-1 ordered by keys, ascending or descending, ties in
//                              ascending position (a stable radix sort): the vertices by degree
#include <vector>

#include "spgraph/descriptor.hpp"
#include "spgraph/gpu/matrix.hpp"

namespace spgraph::gpu {

template <class V>
void assign(Vector<V>& w, const std::type_identity_t<Vector<V>>* mask, std::type_identity_t<V> s, const Descriptor& desc = {});
template <class V>
void assign(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, std::type_identity_t<V> s, const Descriptor& desc = {});
template <class V>
void extract_rows(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& rows);
template <class V>
void permute(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& p);
template <class V>
void permute(Matrix<V>& C, const Matrix<V>& A, const Vector<vid_t>& p);
template <class V>
void extract(Vector<V>& w, const Vector<V>& x, const std::vector<vid_t>& ids);
template <class V>
void diag(Matrix<V>& C, const Vector<V>& v);
void sort_order(Vector<vid_t>& p, const Vector<vid_t>& keys, bool ascending);

}  // namespace spgraph::gpu
