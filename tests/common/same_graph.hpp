#pragma once
// Whether two loaded graphs are the same graph: the same edges between the same-named vertices
// (LoadedGraph::vertex_name), whatever order the vertices are numbered in, or, where the
// numbering must also be kept, the same matrix and labels. Used by the writers' and
// spgraph-convert's round-trip tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "spgraph/io/load_graph.hpp"

namespace spgraph::test {

// Every edge as (source name, target name, weight; 1 for a pattern), sorted.
inline std::vector<std::tuple<std::string, std::string, double>> named_edges(const io::LoadedGraph& g) {
  std::vector<std::tuple<std::string, std::string, double>> edges;
  const Csr<double>& a = g.matrix;
  for (vid_t i = 0; i < a.nrows; ++i)
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      edges.emplace_back(g.vertex_name(i), g.vertex_name(a.col[p]), a.is_pattern() ? 1.0 : a.val[p]);
  std::sort(edges.begin(), edges.end());
  return edges;
}

inline void expect_same_named_graph(const io::LoadedGraph& expected, const io::LoadedGraph& actual) {
  EXPECT_EQ(actual.matrix.is_pattern(), expected.matrix.is_pattern());
  EXPECT_EQ(named_edges(actual), named_edges(expected));
}

inline void expect_same_numbered_graph(const io::LoadedGraph& expected, const io::LoadedGraph& actual) {
  EXPECT_EQ(actual.matrix.nrows, expected.matrix.nrows);
  EXPECT_EQ(actual.matrix.ncols, expected.matrix.ncols);
  EXPECT_EQ(actual.matrix.rowptr, expected.matrix.rowptr);
  EXPECT_EQ(actual.matrix.col, expected.matrix.col);
  EXPECT_EQ(actual.matrix.val, expected.matrix.val);  // bit-exact: the writers keep every digit
  EXPECT_EQ(actual.labels, expected.labels);
}

}  // namespace spgraph::test
