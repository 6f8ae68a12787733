// coo_to_csr: a counting sort by row (one pass to count, one stable scatter), then a sort of
// the columns within each row. Rows are short on graphs, so this is O(nnz) work with one random
// write per entry, several times faster than sorting (row, col) tuples globally (57M entries in
// a few seconds on one core). The scatter keeps input order within a row and the per-row sort is
// stable, so among duplicates the earlier Coo entry comes first: that is what First keeps and
// the order Sum adds in.
#include <algorithm>
#include <string>
#include <utility>

#include "spgraph/graph_ops.hpp"
#include "spgraph/instantiations.hpp"

namespace spgraph {

DuplicateEntryError::DuplicateEntryError(vid_t r, vid_t c, eid_t first, eid_t second)
    : Error("duplicate entry at row " + std::to_string(r) + ", column " + std::to_string(c) +
            " (0-based): entries " + std::to_string(first) + " and " + std::to_string(second) +
            " of the input (0-based)"),
      row(r),
      col(c),
      first_position(first),
      second_position(second) {}

namespace {

template <class V>
void sort_row(Csr<V>& a, eid_t begin, eid_t end, std::vector<std::pair<vid_t, V>>& scratch) {
  auto* c = a.col.data();
  if (std::is_sorted(c + begin, c + end)) return;
  if (a.is_pattern()) {
    std::sort(c + begin, c + end);
    return;
  }
  scratch.clear();
  for (eid_t p = begin; p < end; ++p) scratch.emplace_back(c[p], a.val[p]);
  std::stable_sort(scratch.begin(), scratch.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  for (eid_t p = begin; p < end; ++p) {
    c[p] = scratch[p - begin].first;
    a.val[p] = scratch[p - begin].second;
  }
}

template <class V>
V combine(Duplicates policy, V kept, V repeat) {
  switch (policy) {
    case Duplicates::Sum: return static_cast<V>(kept + repeat);
    case Duplicates::Max: return std::max(kept, repeat);
    default: return kept;  // First
  }
}

// The duplicates are known (sorted (row, col) keys); scan the input in order so the error names
// the earliest repeat in the input, i.e. the first bad line of the file a reader got it from.
[[noreturn]] void throw_earliest_duplicate(const std::vector<vid_t>& row, const std::vector<vid_t>& col,
                                           const std::vector<std::pair<vid_t, vid_t>>& keys) {
  std::vector<eid_t> first_seen(keys.size(), -1);
  for (std::size_t k = 0; k < row.size(); ++k) {
    auto key = std::make_pair(row[k], col[k]);
    auto it = std::lower_bound(keys.begin(), keys.end(), key);
    if (it == keys.end() || *it != key) continue;
    eid_t& first = first_seen[it - keys.begin()];
    if (first >= 0) throw DuplicateEntryError(key.first, key.second, first, static_cast<eid_t>(k));
    first = static_cast<eid_t>(k);
  }
  throw Error("coo_to_csr: internal error: duplicate entries found but not located in the input");
}

}  // namespace

template <class V>
Csr<V> coo_to_csr(Coo<V> coo, Duplicates policy) {
  coo.validate();
  const bool valued = !coo.val.empty();
  const eid_t nnz = coo.nnz();

  Csr<V> a;
  a.nrows = coo.nrows;
  a.ncols = coo.ncols;
  a.rowptr.assign(static_cast<std::size_t>(a.nrows) + 1, 0);
  for (vid_t r : coo.row) ++a.rowptr[r + 1];
  for (vid_t i = 0; i < a.nrows; ++i) a.rowptr[i + 1] += a.rowptr[i];

  // rowptr[r] serves as row r's write cursor; afterwards it holds row r+1's start.
  a.col.resize(nnz);
  if (valued) a.val.resize(nnz);
  for (eid_t k = 0; k < nnz; ++k) {
    eid_t p = a.rowptr[coo.row[k]]++;
    a.col[p] = coo.col[k];
    if (valued) a.val[p] = coo.val[k];
  }
  for (vid_t i = a.nrows; i > 0; --i) a.rowptr[i] = a.rowptr[i - 1];
  a.rowptr[0] = 0;
  std::vector<V>().swap(coo.val);
  if (policy != Duplicates::Error) {  // only the error path needs the input order again
    std::vector<vid_t>().swap(coo.row);
    std::vector<vid_t>().swap(coo.col);
  }

  std::vector<std::pair<vid_t, V>> scratch;
  std::vector<std::pair<vid_t, vid_t>> duplicate_keys;
  eid_t w = 0;
  for (vid_t i = 0; i < a.nrows; ++i) {
    const eid_t begin = a.rowptr[i], end = a.rowptr[i + 1];
    sort_row(a, begin, end, scratch);
    a.rowptr[i] = w;
    for (eid_t p = begin; p < end; ++p) {
      if (w > a.rowptr[i] && a.col[w - 1] == a.col[p]) {
        if (policy == Duplicates::Error) {
          if (duplicate_keys.empty() || duplicate_keys.back() != std::make_pair(i, a.col[p]))
            duplicate_keys.emplace_back(i, a.col[p]);
        } else if (valued) {
          a.val[w - 1] = combine<V>(policy, a.val[w - 1], a.val[p]);
        }
        continue;
      }
      a.col[w] = a.col[p];
      if (valued) a.val[w] = a.val[p];
      ++w;
    }
  }
  a.rowptr[a.nrows] = w;
  if (!duplicate_keys.empty()) throw_earliest_duplicate(coo.row, coo.col, duplicate_keys);
  if (w < nnz) {
    a.col.resize(w);
    a.col.shrink_to_fit();
    if (valued) {
      a.val.resize(w);
      a.val.shrink_to_fit();
    }
  }
  return a;
}

#define SPGRAPH_INSTANTIATE(V) template Csr<V> coo_to_csr<V>(Coo<V>, Duplicates);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph
