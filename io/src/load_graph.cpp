#include "spgraph/io/load_graph.hpp"

#include <algorithm>
#include <cctype>

#include "spgraph/io/abc.hpp"
#include "spgraph/io/csr_cache.hpp"
#include "spgraph/io/edge_list.hpp"
#include "spgraph/io/matrix_market.hpp"
#include "graph_format.hpp"
#include "read_progress.hpp"
#include "weight_check.hpp"

namespace spgraph::io {
namespace {

// The file's extension in lower case, looking through a trailing ".gz".
std::string extension(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name.size() > 3 && name.ends_with(".gz")) name.resize(name.size() - 3);
  const auto dot = name.find_last_of('.');
  return dot == std::string::npos ? std::string() : name.substr(dot);
}

}  // namespace

std::string detail::reader_extension(const std::string& path, GraphFormat format) {
  switch (format) {
    case GraphFormat::ByName: break;
    case GraphFormat::MatrixMarket: return ".mtx";
    case GraphFormat::EdgeList: return "";
    case GraphFormat::Abc: return ".abc";
    case GraphFormat::Cache: return ".spgcsr";
  }
  return extension(path);
}

namespace {

// A cache has no lines: a refused weight is named by its link, as the graph names vertices.
void check_cached_weights(const std::string& path, const LoadedGraph& g) {
  const Csr<double>& a = g.matrix;
  if (a.is_pattern()) return;
  for (vid_t i = 0; i < a.nrows; ++i)
    for (eid_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p)
      if (!detail::acceptable_weight(a.val[p]))
        throw Error(path + ": " +
                    detail::weight_refusal(a.val[p], " of the link " + g.vertex_name(i) + " -> " +
                                                         g.vertex_name(a.col[p])));
}

}  // namespace

std::string LoadedGraph::vertex_name(vid_t i) const {
  return labels.empty() ? std::to_string(static_cast<long long>(i) + id_base) : labels[i];
}

LoadedGraph load_graph(const std::string& path, const LoadOptions& options) {
  const detail::ProgressScope progress(options.progress);
  LoadedGraph g;
  const std::string ext = detail::reader_extension(path, options.format);
  if (ext == ".mtx") {
    g.matrix = read_matrix_market(path, {.duplicates = options.duplicates,
                                         .require_nonnegative_weights = options.require_nonnegative_weights,
                                         .trust_vertex_count = options.trust_vertex_count})
                   .matrix;
    g.id_base = 1;
    g.format = "matrix-market";
  } else if (ext == ".spgcsr") {
    CsrCache c = read_csr_cache(path);
    g.matrix = std::move(c.matrix);
    g.labels = std::move(c.labels);
    g.id_base = c.id_base;
    g.format = "spgcsr";
    if (options.require_nonnegative_weights) check_cached_weights(path, g);
  } else if (ext == ".abc") {
    const Duplicates d = options.duplicates == Duplicates::Error ? Duplicates::Max : options.duplicates;
    LabeledGraph l =
        read_abc(path, {.duplicates = d, .require_nonnegative_weights = options.require_nonnegative_weights});
    g.matrix = std::move(l.matrix);
    g.labels = std::move(l.labels);
    g.format = "abc";
  } else {
    EdgeList e = read_edge_list(path, {.compact_ids = options.compact_ids,
                                       .duplicates = options.duplicates,
                                       .require_nonnegative_weights = options.require_nonnegative_weights,
                                       .trust_vertex_count = options.trust_vertex_count,
                                       .mirror_undirected = options.mirror_undirected});
    g.matrix = std::move(e.matrix);
    g.mirrored = e.mirrored;
    g.labels.reserve(e.original_ids.size());
    for (vid_t id : e.original_ids) g.labels.push_back(std::to_string(id));
    g.format = "edge-list";
  }
  return g;
}

void save_cache(const std::string& path, const LoadedGraph& graph) {
  write_csr_cache(path, graph.matrix, graph.labels, graph.id_base);
}

}  // namespace spgraph::io
