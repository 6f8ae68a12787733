#include "spgraph/io/save_graph.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <limits>

#include "graph_write_checks.hpp"
#include "spgraph/error.hpp"
#include "spgraph/graph_ops.hpp"
#include "spgraph/io/abc.hpp"
#include "spgraph/io/edge_list.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "text_writer.hpp"
#include "vertex_count.hpp"

namespace spgraph::io {
namespace {

// ".csv" for "Graph.CSV.gz"
std::string lower_extension(const std::string& path) {
  std::filesystem::path name = std::filesystem::path(path).filename();
  std::string ext = name.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == ".gz") return lower_extension(name.stem().string());
  return ext;
}

// linked[v]: vertex v has an edge, in or out.
std::vector<char> linked_vertices(const Csr<double>& a) {
  std::vector<char> linked(static_cast<std::size_t>(std::max(a.nrows, a.ncols)), 0);
  for (vid_t v = 0; v < a.nrows; ++v)
    if (a.row_length(v) > 0) linked[v] = 1;
  for (const vid_t c : a.col) linked[c] = 1;
  return linked;
}

std::string vertices_text(vid_t k) { return std::to_string(k) + (k == 1 ? " vertex" : " vertices"); }

std::string labels_left_out(SaveFormat format) {
  return "the labels are left out (not all numbers): " + std::string(to_string(format)) +
         " numbers the vertices in the input's order; .abc and .spgcsr keep labels";
}

SaveResult save_abc(const std::string& path, const LoadedGraph& g) {
  const Csr<double>& a = g.matrix;
  std::vector<std::string> names = g.labels;
  if (names.empty())
    for (vid_t v = 0; v < a.nrows; ++v) names.push_back(g.vertex_name(v));
  write_abc(path, a, names);
  const std::vector<char> linked = linked_vertices(a);
  SaveResult r{static_cast<vid_t>(std::count(linked.begin(), linked.end(), 1)), a.nnz(), {}};
  if (const vid_t lost = a.nrows - r.vertices; lost > 0)
    r.notes.push_back(vertices_text(lost) + " without edges left out: .abc names vertices only through edges");
  return r;
}

SaveResult save_edge_list(const std::string& path, const LoadedGraph& g) {
  const Csr<double>& a = g.matrix;
  SaveResult r{0, a.nnz(), {}};
  std::vector<vid_t> ids = label_ids(g.labels);
  if (!g.labels.empty() && ids.empty()) r.notes.push_back(labels_left_out(SaveFormat::EdgeList));
  write_edge_list(path, a, ids, lower_extension(path) == ".csv" ? ',' : '\t');
  const std::vector<char> linked = linked_vertices(a);
  auto id = [&](vid_t v) { return ids.empty() ? v : ids[v]; };
  vid_t largest = -1;
  for (vid_t v = 0; v < a.nrows; ++v)
    if (linked[v]) largest = std::max(largest, id(v));
  r.vertices = largest + 1;
  vid_t lost = 0;
  for (vid_t v = 0; v < a.nrows; ++v) lost += !linked[v] && id(v) > largest;
  if (lost > 0)
    r.notes.push_back(vertices_text(lost) + " without edges left out: an edge list ends at its largest id");
  return r;
}

// Vertex v moved to row (and column) rows[v] of an n x n matrix.
Csr<double> place(const Csr<double>& a, const std::vector<vid_t>& rows, vid_t n) {
  Coo<double> coo = csr_to_coo(a);
  for (vid_t& i : coo.row) i = rows[i];
  for (vid_t& j : coo.col) j = rows[j];
  coo.nrows = coo.ncols = n;
  return coo_to_csr(std::move(coo));
}

SaveResult save_matrix_market(const std::string& path, const LoadedGraph& g) {
  const Csr<double>& a = g.matrix;
  SaveResult r{a.nrows, a.nnz(), {}};
  detail::require_finite_weights(path, a, [&](vid_t v) { return g.vertex_name(v); });
  std::vector<vid_t> rows = label_ids(g.labels);
  if (rows.empty()) {
    if (!g.labels.empty()) r.notes.push_back(labels_left_out(SaveFormat::MatrixMarket));
    write_matrix_market(path, a);
    return r;
  }
  const bool has_zero = std::find(rows.begin(), rows.end(), 0) != rows.end();
  if (has_zero)
    r.notes.push_back("the labels are ids from 0 and Matrix Market numbers from 1: vertex k is row k + 1");
  else
    for (vid_t& i : rows) --i;
  const std::int64_t n = std::int64_t{*std::max_element(rows.begin(), rows.end())} + 1;
  if (!detail::vertex_count_justified(n, a.nnz()))
    throw Error("cannot write " + path + ": the labels, as ids, make " + std::to_string(n) + " rows for " +
                std::to_string(a.nnz()) + " entries, which the Matrix Market reader refuses; renumber the " +
                "vertices (spgraph-convert --relabel compact) or keep them in .abc, .spgcsr or an edge list");
  const Csr<double> placed = place(a, rows, static_cast<vid_t>(n));
  write_matrix_market(path, placed);
  r.vertices = placed.nrows;
  return r;
}

}  // namespace

std::string_view to_string(SaveFormat format) {
  switch (format) {
    case SaveFormat::MatrixMarket: return "Matrix Market";
    case SaveFormat::EdgeList: return "edge list";
    case SaveFormat::Abc: return ".abc";
    case SaveFormat::Cache: return ".spgcsr";
  }
  return "";
}

std::optional<SaveFormat> save_format_by_name(const std::string& path) {
  const std::string ext = lower_extension(path);
  if (ext == ".mtx") return SaveFormat::MatrixMarket;
  if (ext == ".abc") return SaveFormat::Abc;
  if (ext == ".spgcsr") return SaveFormat::Cache;
  for (const char* e : {".txt", ".tsv", ".csv", ".el", ".edges", ".edgelist", ".snap"})
    if (ext == e) return SaveFormat::EdgeList;
  return std::nullopt;
}

std::vector<vid_t> label_ids(const std::vector<std::string>& labels) {
  std::vector<vid_t> ids;
  ids.reserve(labels.size());
  for (const std::string& s : labels) {
    vid_t id = 0;
    const char* end = s.data() + s.size();
    const auto [ptr, ec] = std::from_chars(s.data(), end, id);
    const bool canonical = !s.empty() && s[0] != '-' && s[0] != '+' && (s[0] != '0' || s.size() == 1);
    if (ec != std::errc() || ptr != end || !canonical || id == std::numeric_limits<vid_t>::max()) return {};
    ids.push_back(id);
  }
  std::vector<vid_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return {};
  return ids;
}

SaveResult save_graph(const std::string& path, const LoadedGraph& graph, SaveFormat format) {
  switch (format) {
    case SaveFormat::MatrixMarket: return save_matrix_market(path, graph);
    case SaveFormat::EdgeList: return save_edge_list(path, graph);
    case SaveFormat::Abc: return save_abc(path, graph);
    case SaveFormat::Cache:
      if (detail::ends_with_gz(path))
        throw Error("cannot write " + path + ": the .spgcsr cache is not compressed (it is read at the speed of "
                    "copying its arrays); drop the .gz");
      save_cache(path, graph);
      return {graph.matrix.nrows, graph.matrix.nnz(), {}};
  }
  return {};
}

}  // namespace spgraph::io
