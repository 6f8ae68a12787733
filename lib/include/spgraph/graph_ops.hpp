#pragma once
// Host-side transforms on Csr/Coo: what readers, generators and algorithms need to shape a
// graph before it goes to a backend. All preserve pattern-ness (no values in, none out).
#include <vector>

#include "spgraph/coo.hpp"
#include "spgraph/csr.hpp"
#include "spgraph/error.hpp"

namespace spgraph {

// What to do when the same (row, col) appears more than once.
enum class Duplicates { Error, Sum, Max, First };

// Sorts by (row, col) and combines duplicates per the policy. With Duplicates::Error a repeat
// throws DuplicateEntryError carrying both entries' positions in the input, so a reader can
// name the file lines.
template <class V>
Csr<V> coo_to_csr(Coo<V> coo, Duplicates policy = Duplicates::Error);

struct DuplicateEntryError : Error {
  DuplicateEntryError(vid_t r, vid_t c, eid_t first, eid_t second);
  vid_t row, col;         // 0-based
  eid_t first_position;   // index of the first occurrence in the Coo
  eid_t second_position;  // index of the repeat
};

template <class V> Coo<V> csr_to_coo(const Csr<V>& a);
template <class V> Csr<V> transpose(const Csr<V>& a);
// A + A' pattern-wise; where both (i,j) and (j,i) exist, values are combined by the policy
// (Error is not allowed here: it throws).
template <class V> Csr<V> symmetrize(const Csr<V>& a, Duplicates combine = Duplicates::Max);
template <class V> Csr<V> remove_self_loops(const Csr<V>& a);
template <class V> Csr<V> lower_triangle(const Csr<V>& a, bool strict = true);
template <class V> Csr<V> upper_triangle(const Csr<V>& a, bool strict = true);
template <class V> std::vector<eid_t> out_degrees(const Csr<V>& a);  // row lengths
template <class V> std::vector<eid_t> in_degrees(const Csr<V>& a);   // column counts
// Same pattern, values converted (or dropped when to_pattern).
template <class To, class From> Csr<To> convert_values(const Csr<From>& a);
template <class V> Csr<V> drop_values(Csr<V> a);

}  // namespace spgraph
