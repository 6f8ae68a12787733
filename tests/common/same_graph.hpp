#pragma once
// Whether two loaded graphs are the same graph: the same edges between the same-named vertices
// (LoadedGraph::vertex_name), whatever order the vertices are numbered in, or, where the
// numbering must also be kept, the same matrix and labels. Used by the writers' and
// spgraph-convert's round-trip tests, the cache's and the cuSPARSE baselines'.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "spgraph/io/load_graph.hpp"
#include "spgraph/io/save_graph.hpp"

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

inline void expect_same_matrix(const Csr<double>& expected, const Csr<double>& actual) {
  EXPECT_EQ(actual.nrows, expected.nrows);
  EXPECT_EQ(actual.ncols, expected.ncols);
  EXPECT_EQ(actual.rowptr, expected.rowptr);
  EXPECT_EQ(actual.col, expected.col);
  EXPECT_EQ(actual.val, expected.val);  // bit-exact: the writers keep every digit
}

inline void expect_same_numbered_graph(const io::LoadedGraph& expected, const io::LoadedGraph& actual) {
  expect_same_matrix(expected.matrix, actual.matrix);
  EXPECT_EQ(actual.labels, expected.labels);
}

// The format a file name stands for, ".gz" aside: "g.mtx.gz" -> ".mtx", "g.tsv" -> ".tsv".
inline std::string format_of(const std::string& name) {
  std::filesystem::path p(name);
  if (p.extension() == ".gz") p = p.stem();
  return p.extension().string();
}

// What a round trip X -> Y -> X keeps (io/save_graph.hpp), `start` read from a file named like
// `from`, `back` after the way through a file named like `via`: the numbering, the labels and
// the id base, except where .abc, which numbers vertices by first appearance, is on the way:
// then the names. Two things no format can do: Matrix Market has no vertex 0, so .abc labels
// from 0 come back one up; and an edge list or Matrix Market on the way gives a cache its own
// first id.
inline void expect_round_trip_kept(const io::LoadedGraph& start, const io::LoadedGraph& back, const std::string& from,
                                   const std::string& via) {
  const std::string x = format_of(from), y = format_of(via);
  if (x == ".abc" && y == ".mtx" && !io::label_ids(start.labels).empty() &&
      std::count(start.labels.begin(), start.labels.end(), "0") == 1) {
    io::LoadedGraph one_up = start;
    for (std::string& label : one_up.labels) label = std::to_string(std::stoll(label) + 1);
    expect_same_named_graph(one_up, back);
  } else if (x == ".abc" || y == ".abc") {
    expect_same_named_graph(start, back);
  } else {
    expect_same_numbered_graph(start, back);
    if (x != ".spgcsr" || y == ".spgcsr") EXPECT_EQ(back.id_base, start.id_base);
  }
}

}  // namespace spgraph::test
