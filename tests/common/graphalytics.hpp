#pragma once
// Readers for the LDBC Graphalytics validation graphs and their expected outputs
// (datasets/graphalytics), shared by the PageRank and BFS tests.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "spgraph/coo.hpp"
#include "spgraph/csr.hpp"
#include "spgraph/graph_ops.hpp"

namespace spgraph::test {

// LDBC Graphalytics validation graphs: each line "vertex neighbour neighbour ...", a vertex
// with no out-links on a line of its own, undirected graphs listing each edge both ways. The
// ids are arbitrary integers; vertex v here is the v-th smallest of them.
struct GraphalyticsGraph {
  Csr<double> matrix;                       // pattern
  std::map<long long, vid_t> vertex_of_id;  // file id -> vertex
};

inline GraphalyticsGraph read_graphalytics_adjacency(const std::string& path) {
  std::ifstream in(path);
  if (!in) ADD_FAILURE() << "cannot open " << path;
  std::vector<std::pair<long long, long long>> edges;
  GraphalyticsGraph g;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    long long src = 0, dst = 0;
    if (!(fields >> src)) continue;
    g.vertex_of_id[src];
    while (fields >> dst) {
      g.vertex_of_id[dst];
      edges.emplace_back(src, dst);
    }
  }
  vid_t next = 0;
  for (auto& [id, v] : g.vertex_of_id) v = next++;
  Coo<double> coo;
  coo.nrows = coo.ncols = next;
  for (auto [s, d] : edges) {
    coo.row.push_back(g.vertex_of_id[s]);
    coo.col.push_back(g.vertex_of_id[d]);
  }
  g.matrix = coo_to_csr(std::move(coo));
  return g;
}

// Graphalytics outputs: "vertex value" per line, in any order.
inline std::vector<double> read_graphalytics_values(const std::string& path, const GraphalyticsGraph& g) {
  std::ifstream in(path);
  if (!in) ADD_FAILURE() << "cannot open " << path;
  std::vector<double> values(g.vertex_of_id.size(), std::nan(""));
  long long id = 0;
  double value = 0;
  std::size_t count = 0;
  while (in >> id >> value) {
    auto it = g.vertex_of_id.find(id);
    if (it == g.vertex_of_id.end()) {
      ADD_FAILURE() << path << ": vertex " << id << " is not in the graph";
      continue;
    }
    values[it->second] = value;
    ++count;
  }
  EXPECT_EQ(count, values.size()) << path << ": not one value per vertex";
  return values;
}

}  // namespace spgraph::test
