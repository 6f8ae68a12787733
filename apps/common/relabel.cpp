#include "relabel.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/save_graph.hpp"

namespace spgraph::apps {
namespace {

// order[k]: the old number of new vertex k.
std::vector<vid_t> new_order(const Csr<double>& a, Relabel how) {
  const std::vector<eid_t> out = out_degrees(a), in = in_degrees(a);
  std::vector<vid_t> order;
  if (how == Relabel::Compact) {
    for (vid_t v = 0; v < a.nrows; ++v)
      if (out[v] + in[v] > 0) order.push_back(v);
  } else {
    order.resize(static_cast<std::size_t>(a.nrows));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](vid_t x, vid_t y) { return out[x] + in[x] > out[y] + in[y]; });
  }
  return order;
}

}  // namespace

io::LoadedGraph relabel(io::LoadedGraph graph, Relabel how) {
  if (how == Relabel::None) return graph;
  const Csr<double>& a = graph.matrix;
  if (a.nrows != a.ncols)
    throw Error("--relabel: the matrix is " + std::to_string(a.nrows) + " x " + std::to_string(a.ncols) +
                "; renumbering vertices needs a square adjacency matrix");
  const std::vector<vid_t> order = new_order(a, how);
  std::vector<vid_t> number(static_cast<std::size_t>(a.nrows), -1);
  for (std::size_t k = 0; k < order.size(); ++k) number[order[k]] = static_cast<vid_t>(k);

  Coo<double> coo = csr_to_coo(a);
  for (vid_t& i : coo.row) i = number[i];
  for (vid_t& j : coo.col) j = number[j];
  coo.nrows = coo.ncols = static_cast<vid_t>(order.size());
  graph.matrix = coo_to_csr(std::move(coo));

  if (!io::label_ids(graph.labels).empty()) {
    graph.labels.clear();
  } else if (!graph.labels.empty()) {
    std::vector<std::string> moved;
    moved.reserve(order.size());
    for (const vid_t v : order) moved.push_back(std::move(graph.labels[v]));
    graph.labels = std::move(moved);
  }
  return graph;
}

}  // namespace spgraph::apps
