// coo_to_csr: a counting sort by row (one pass to count, one stable scatter), then a sort of
// the columns within each row. Rows are short on graphs, so this is O(nnz) work with one random
// write per entry, several times faster than sorting (row, col) tuples globally. The scatter
// keeps input order within a row and the per-row sort is stable, so among duplicates the
// earlier Coo entry comes first: that is what First keeps and the order Sum adds in.
//
// On every core: the counts by atomic increments; the scatter by threads that each own a range
// of rows holding about nnz/threads entries and scan the whole input for them, which keeps the
// input order within a row (a scan of 4 bytes an entry per thread, cheap next to the random
// writes); the per-row sort and merging of duplicates by rows, compacted afterwards only where
// duplicates were merged. The readers parse on every core, and a serial build became most of a
// load.
#include <omp.h>

#include <algorithm>
#include <atomic>
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

// Row ranges [bound[t], bound[t+1]) holding about as many entries each, one a thread.
std::vector<vid_t> balanced_row_ranges(const std::vector<eid_t>& rowptr, vid_t nrows, int threads) {
  std::vector<vid_t> bound(static_cast<std::size_t>(threads) + 1, nrows);
  bound[0] = 0;
  const eid_t nnz = rowptr[nrows];
  for (int t = 1; t < threads; ++t) {
    const eid_t target = nnz / threads * t;
    bound[t] = static_cast<vid_t>(std::lower_bound(rowptr.begin(), rowptr.begin() + nrows + 1, target) -
                                  rowptr.begin());
    bound[t] = std::clamp(bound[t], bound[t - 1], nrows);
  }
  return bound;
}

}  // namespace

template <class V>
Csr<V> coo_to_csr(Coo<V> coo, Duplicates policy) {
  coo.validate();
  const bool valued = !coo.val.empty();
  const eid_t nnz = coo.nnz();
  const vid_t n = coo.nrows;
  // Below a few hundred thousand entries the threads cost more than they save.
  const int threads = nnz < (eid_t{1} << 18) ? 1 : std::max(1, omp_get_max_threads());

  Csr<V> a;
  a.nrows = n;
  a.ncols = coo.ncols;
  a.rowptr.assign(static_cast<std::size_t>(n) + 1, 0);
#pragma omp parallel for num_threads(threads)
  for (eid_t k = 0; k < nnz; ++k) std::atomic_ref<eid_t>(a.rowptr[coo.row[k] + 1]).fetch_add(1, std::memory_order_relaxed);
  for (vid_t i = 0; i < n; ++i) a.rowptr[i + 1] += a.rowptr[i];

  a.col.resize(nnz);
  if (valued) a.val.resize(nnz);
  const std::vector<vid_t> bound = balanced_row_ranges(a.rowptr, n, threads);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const vid_t lo = bound[t], hi = bound[t + 1];
    std::vector<eid_t> cursor(a.rowptr.begin() + lo, a.rowptr.begin() + hi);
    if (lo < hi) {
      for (eid_t k = 0; k < nnz; ++k) {
        const vid_t r = coo.row[k];
        if (r < lo || r >= hi) continue;
        const eid_t p = cursor[r - lo]++;
        a.col[p] = coo.col[k];
        if (valued) a.val[p] = coo.val[k];
      }
    }
  }
  std::vector<V>().swap(coo.val);
  if (policy != Duplicates::Error) {  // only the error path needs the input order again
    std::vector<vid_t>().swap(coo.row);
    std::vector<vid_t>().swap(coo.col);
  }

  // Each row sorted and its duplicates merged in place; kept[i] is row i's length after.
  std::vector<eid_t> kept(static_cast<std::size_t>(n) + 1, 0);
  std::vector<std::vector<std::pair<vid_t, vid_t>>> duplicate_keys(static_cast<std::size_t>(threads));
#pragma omp parallel num_threads(threads)
  {
    std::vector<std::pair<vid_t, V>> scratch;
    auto& keys = duplicate_keys[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 4096)
    for (vid_t i = 0; i < n; ++i) {
      const eid_t begin = a.rowptr[i], end = a.rowptr[i + 1];
      sort_row(a, begin, end, scratch);
      eid_t w = begin;
      for (eid_t p = begin; p < end; ++p) {
        if (w > begin && a.col[w - 1] == a.col[p]) {
          if (policy == Duplicates::Error) {
            if (keys.empty() || keys.back() != std::make_pair(i, a.col[p])) keys.emplace_back(i, a.col[p]);
          } else if (valued) {
            a.val[w - 1] = combine<V>(policy, a.val[w - 1], a.val[p]);
          }
          continue;
        }
        a.col[w] = a.col[p];
        if (valued) a.val[w] = a.val[p];
        ++w;
      }
      kept[i + 1] = w - begin;
    }
  }
  std::vector<std::pair<vid_t, vid_t>> all_keys;
  for (auto& keys : duplicate_keys) all_keys.insert(all_keys.end(), keys.begin(), keys.end());
  if (!all_keys.empty()) {
    std::sort(all_keys.begin(), all_keys.end());
    throw_earliest_duplicate(coo.row, coo.col, all_keys);
  }
  for (vid_t i = 0; i < n; ++i) kept[i + 1] += kept[i];
  if (kept[n] < nnz) {  // rows shortened by merged duplicates: moved together
    std::vector<vid_t> col(static_cast<std::size_t>(kept[n]));
    std::vector<V> val(valued ? col.size() : 0);
#pragma omp parallel for schedule(dynamic, 4096) num_threads(threads)
    for (vid_t i = 0; i < n; ++i) {
      std::copy_n(a.col.begin() + a.rowptr[i], kept[i + 1] - kept[i], col.begin() + kept[i]);
      if (valued) std::copy_n(a.val.begin() + a.rowptr[i], kept[i + 1] - kept[i], val.begin() + kept[i]);
    }
    a.col = std::move(col);
    a.val = std::move(val);
  }
  a.rowptr = std::move(kept);
  return a;
}

#define SPGRAPH_INSTANTIATE(V) template Csr<V> coo_to_csr<V>(Coo<V>, Duplicates);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph
