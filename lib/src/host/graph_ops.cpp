// Host graph transforms. Each keeps pattern-ness: a pattern input gives a pattern output.
#include <algorithm>
#include <string>

#include "spgraph/graph_ops.hpp"
#include "spgraph/instantiations.hpp"

namespace spgraph {
namespace {

template <class V>
Csr<V> empty_csr(vid_t nrows, vid_t ncols) {
  Csr<V> out;
  out.nrows = nrows;
  out.ncols = ncols;
  out.rowptr.assign(static_cast<std::size_t>(nrows) + 1, 0);
  return out;
}

// Keeps the entries (i, j) where keep(i, j), in their order.
template <class V, class Keep>
Csr<V> filter_entries(const Csr<V>& a, Keep keep) {
  Csr<V> out = empty_csr<V>(a.nrows, a.ncols);
  const bool valued = !a.is_pattern();
  for (vid_t i = 0; i < a.nrows; ++i) {
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      if (!keep(i, a.col[p])) continue;
      out.col.push_back(a.col[p]);
      if (valued) out.val.push_back(a.val[p]);
    }
    out.rowptr[i + 1] = static_cast<eid_t>(out.col.size());
  }
  return out;
}

template <class V>
V combine_mirrored(Duplicates policy, V own, V mirrored) {
  switch (policy) {
    case Duplicates::Sum: return static_cast<V>(own + mirrored);
    case Duplicates::Max: return std::max(own, mirrored);
    default: return own;  // First: the entry stored at (i, j) wins over (j, i)'s
  }
}

}  // namespace

template <class V>
Coo<V> csr_to_coo(const Csr<V>& a) {
  Coo<V> out;
  out.nrows = a.nrows;
  out.ncols = a.ncols;
  out.row.reserve(a.nnz());
  for (vid_t i = 0; i < a.nrows; ++i) out.row.insert(out.row.end(), a.row_length(i), i);
  out.col = a.col;
  out.val = a.val;
  return out;
}

// Counting sort by column; scanning rows in order leaves each output row sorted.
template <class V>
Csr<V> transpose(const Csr<V>& a) {
  Csr<V> t = empty_csr<V>(a.ncols, a.nrows);
  const bool valued = !a.is_pattern();
  for (vid_t j : a.col) ++t.rowptr[j + 1];
  for (vid_t j = 0; j < t.nrows; ++j) t.rowptr[j + 1] += t.rowptr[j];
  t.col.resize(a.col.size());
  if (valued) t.val.resize(a.val.size());
  std::vector<eid_t> cursor(t.rowptr.begin(), t.rowptr.end() - 1);
  for (vid_t i = 0; i < a.nrows; ++i) {
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) {
      eid_t q = cursor[a.col[p]]++;
      t.col[q] = i;
      if (valued) t.val[q] = a.val[p];
    }
  }
  return t;
}

// Merges row i of A with row i of A' (both sorted). The diagonal entry (i, i) is the same entry
// in both, so it is kept once, unchanged.
template <class V>
Csr<V> symmetrize(const Csr<V>& a, Duplicates combine) {
  if (combine == Duplicates::Error)
    throw Error("symmetrize: Duplicates::Error is not a way to combine a(i,j) with a(j,i); use Sum, Max or First");
  if (a.nrows != a.ncols)
    throw Error("symmetrize: the matrix must be square, it is " + std::to_string(a.nrows) + " x " +
                std::to_string(a.ncols));
  const Csr<V> t = transpose(a);
  const bool valued = !a.is_pattern();
  Csr<V> out = empty_csr<V>(a.nrows, a.ncols);
  out.col.reserve(2 * a.col.size());
  if (valued) out.val.reserve(2 * a.val.size());
  auto emit = [&](vid_t j, auto value_of) {
    out.col.push_back(j);
    if (valued) out.val.push_back(value_of());
  };
  for (vid_t i = 0; i < a.nrows; ++i) {
    eid_t p = a.rowptr[i], q = t.rowptr[i];
    const eid_t pe = a.rowptr[i + 1], qe = t.rowptr[i + 1];
    for (eid_t r = p + 1; r < pe; ++r)
      if (a.col[r] <= a.col[r - 1])
        throw Error("symmetrize: row " + std::to_string(i) +
                    " of the input has unsorted or duplicate columns; build it with coo_to_csr");
    while (p < pe || q < qe) {
      if (q == qe || (p < pe && a.col[p] < t.col[q])) {
        emit(a.col[p], [&] { return V(a.val[p]); });
        ++p;
      } else if (p == pe || t.col[q] < a.col[p]) {
        emit(t.col[q], [&] { return V(t.val[q]); });
        ++q;
      } else {
        const vid_t j = a.col[p];
        emit(j, [&] { return j == i ? V(a.val[p]) : combine_mirrored<V>(combine, a.val[p], t.val[q]); });
        ++p;
        ++q;
      }
    }
    out.rowptr[i + 1] = static_cast<eid_t>(out.col.size());
  }
  out.col.shrink_to_fit();
  out.val.shrink_to_fit();
  return out;
}

template <class V>
Csr<V> remove_self_loops(const Csr<V>& a) {
  return filter_entries(a, [](vid_t i, vid_t j) { return i != j; });
}

template <class V>
Csr<V> lower_triangle(const Csr<V>& a, bool strict) {
  return filter_entries(a, [strict](vid_t i, vid_t j) { return strict ? j < i : j <= i; });
}

template <class V>
Csr<V> upper_triangle(const Csr<V>& a, bool strict) {
  return filter_entries(a, [strict](vid_t i, vid_t j) { return strict ? j > i : j >= i; });
}

template <class V>
std::vector<eid_t> out_degrees(const Csr<V>& a) {
  std::vector<eid_t> d(a.nrows);
  for (vid_t i = 0; i < a.nrows; ++i) d[i] = a.row_length(i);
  return d;
}

template <class V>
std::vector<eid_t> in_degrees(const Csr<V>& a) {
  std::vector<eid_t> d(a.ncols, 0);
  for (vid_t j : a.col) ++d[j];
  return d;
}

template <class To, class From>
Csr<To> convert_values(const Csr<From>& a) {
  Csr<To> out;
  out.nrows = a.nrows;
  out.ncols = a.ncols;
  out.rowptr = a.rowptr;
  out.col = a.col;
  out.val.resize(a.val.size());
  for (std::size_t p = 0; p < a.val.size(); ++p) out.val[p] = static_cast<To>(a.val[p]);
  return out;
}

template <class V>
Csr<V> drop_values(Csr<V> a) {
  std::vector<V>().swap(a.val);
  return a;
}

#define SPGRAPH_INSTANTIATE(V)                                                  \
  template Coo<V> csr_to_coo<V>(const Csr<V>&);                                 \
  template Csr<V> transpose<V>(const Csr<V>&);                                  \
  template Csr<V> symmetrize<V>(const Csr<V>&, Duplicates);                     \
  template Csr<V> remove_self_loops<V>(const Csr<V>&);                          \
  template Csr<V> lower_triangle<V>(const Csr<V>&, bool);                       \
  template Csr<V> upper_triangle<V>(const Csr<V>&, bool);                       \
  template std::vector<eid_t> out_degrees<V>(const Csr<V>&);                    \
  template std::vector<eid_t> in_degrees<V>(const Csr<V>&);                     \
  template Csr<V> drop_values<V>(Csr<V>);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

// Every (To, From) pair of value types, bool included (nonzero converts to true).
#define SPGRAPH_INSTANTIATE_FROM(From)                        \
  template Csr<float> convert_values<float, From>(const Csr<From>&);   \
  template Csr<double> convert_values<double, From>(const Csr<From>&); \
  template Csr<std::int32_t> convert_values<std::int32_t, From>(const Csr<From>&); \
  template Csr<std::int64_t> convert_values<std::int64_t, From>(const Csr<From>&); \
  template Csr<bool> convert_values<bool, From>(const Csr<From>&);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE_FROM)
#undef SPGRAPH_INSTANTIATE_FROM

}  // namespace spgraph
