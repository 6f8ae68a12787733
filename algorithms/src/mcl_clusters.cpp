// Reading clusters from MCL's limit as mcl 22-282 does (interpret.c: mclDag, mclInterpret;
// proc.c's normalisation in between; clew/cat.c's clmEnstrict with -overlap cut; alg.c's
// ordering, largest first). Rows of the limit are mcl's columns.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "mcl_support.hpp"

namespace spgraph::algorithms {
namespace {

// mclDag and the cut that follows it: per row, the entries >= a bar near the loop's value (or
// near the largest, if the loop is not the largest), normalised, then those >= 1/(k+1) kept.
Csr<float> attractor_dag(const Csr<double>& L) {
  Csr<float> dag;
  dag.nrows = dag.ncols = L.nrows;
  dag.rowptr.assign(std::size_t(L.nrows) + 1, 0);
  std::vector<eid_t> picked;
  std::vector<float> values;
  for (vid_t i = 0; i < L.nrows; ++i) {
    const eid_t p0 = L.rowptr[i], p1 = L.rowptr[i + 1];
    const auto value = [&](eid_t p) { return double(float(L.val[p])); };
    double self = 0, peak = 0;
    for (eid_t p = p0; p < p1; ++p) {
      if (L.col[p] == i) self = value(p);
      peak = std::max(peak, value(p));
    }
    const double bar = self < peak ? 0.999 * self + 0.001 * peak : self / 1.01;
    picked.clear();
    double sum = 0;
    for (eid_t p = p0; p < p1; ++p)
      if (value(p) >= bar) picked.push_back(p), sum += value(p);
    const double cut = 1.0 / double(picked.size() + 1);
    for (eid_t p : picked) {
      const float v = float(sum != 0 ? value(p) / sum : value(p));
      if (double(v) < cut) continue;
      dag.col.push_back(L.col[p]);
      values.push_back(v);
    }
    dag.rowptr[std::size_t(i) + 1] = eid_t(dag.col.size());
  }
  dag.val = std::move(values);
  return dag;
}

vid_t find_root(std::vector<vid_t>& parent, vid_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

std::vector<std::vector<vid_t>> clusters_from_limit(const Csr<double>& limit) {
  const Csr<float> dag = attractor_dag(limit);
  const vid_t n = dag.nrows;
  std::vector<char> attractor(n, 0);
  for (vid_t i = 0; i < n; ++i)
    for (eid_t p = dag.rowptr[i]; p < dag.rowptr[i + 1]; ++p) attractor[i] |= dag.col[p] == i;

  // Attractors linked either way form one cluster, numbered by their smallest attractor.
  std::vector<vid_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (vid_t i = 0; i < n; ++i)
    if (attractor[i])
      for (eid_t p = dag.rowptr[i]; p < dag.rowptr[i + 1]; ++p)
        if (attractor[dag.col[p]]) parent[find_root(parent, i)] = find_root(parent, dag.col[p]);
  constexpr std::int64_t kNone = -1;
  std::vector<std::int64_t> cluster(n, kNone), cluster_of_root(n, kNone);
  std::vector<std::vector<vid_t>> attractors_of;  // per cluster
  for (vid_t i = 0; i < n; ++i) {
    if (!attractor[i]) continue;
    std::int64_t& c = cluster_of_root[find_root(parent, i)];
    if (c == kNone) c = std::int64_t(attractors_of.size()), attractors_of.emplace_back();
    cluster[i] = c;
    attractors_of[c].push_back(i);
  }

  // Every other vertex joins the first cluster whose attractors it flows to (mcl keeps the
  // lowest-numbered of its clusters under -overlap cut): walking the dag backwards from each
  // cluster in turn, a vertex is claimed by the first walk that reaches it.
  std::vector<eid_t> in_ptr(std::size_t(n) + 1, 0);
  for (vid_t j : dag.col) ++in_ptr[std::size_t(j) + 1];
  std::partial_sum(in_ptr.begin(), in_ptr.end(), in_ptr.begin());
  std::vector<vid_t> in_from(dag.col.size());
  {
    std::vector<eid_t> at(in_ptr.begin(), in_ptr.end() - 1);
    for (vid_t i = 0; i < n; ++i)
      for (eid_t p = dag.rowptr[i]; p < dag.rowptr[i + 1]; ++p) in_from[at[dag.col[p]]++] = i;
  }
  std::vector<char> walked(n, 0);
  std::vector<vid_t> queue;
  for (std::int64_t c = 0; c < std::int64_t(attractors_of.size()); ++c) {
    queue.clear();
    for (vid_t a : attractors_of[c])
      if (!walked[a]) walked[a] = 1, queue.push_back(a);
    for (std::size_t q = 0; q < queue.size(); ++q)
      for (eid_t p = in_ptr[queue[q]]; p < in_ptr[queue[q] + 1]; ++p) {
        const vid_t from = in_from[p];
        if (walked[from]) continue;
        walked[from] = 1;
        if (!attractor[from]) cluster[from] = c;
        queue.push_back(from);
      }
  }

  // Vertices that reach no attractor form one more cluster, as mcl adds them.
  std::vector<std::vector<vid_t>> clusters(attractors_of.size() + 1);
  for (vid_t i = 0; i < n; ++i) clusters[cluster[i] == kNone ? attractors_of.size() : cluster[i]].push_back(i);
  std::erase_if(clusters, [](const std::vector<vid_t>& c) { return c.empty(); });
  std::sort(clusters.begin(), clusters.end(), [](const std::vector<vid_t>& a, const std::vector<vid_t>& b) {
    return a.size() != b.size() ? a.size() > b.size() : a < b;
  });
  return clusters;
}

}  // namespace spgraph::algorithms
