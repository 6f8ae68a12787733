#pragma once
// The reference clusterings of datasets/mcl/ (what the mcl program gives; see its README):
// reading mcl's label output and naming its labels as the graph's vertex ids.
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "spgraph/error.hpp"
#include "spgraph/io/load_graph.hpp"
#include "spgraph/types.hpp"
#include "test_support.hpp"

namespace spgraph::test {

// datasets/mcl/<stem>.clusters, or <stem>.clusters.gz where that is the one stored
// (stem as "karate.I20"); the plain name when neither exists, so the reader names it.
inline std::string mcl_reference_path(const std::string& stem) {
  const std::string plain = dataset("mcl/" + stem + ".clusters");
  if (!std::filesystem::exists(plain) && std::filesystem::exists(plain + ".gz")) return plain + ".gz";
  return plain;
}

// mcl's label output (`mcl --abc -o`), plain or gzip-compressed: one cluster per line, its
// labels separated by tabs. Throws Error for a missing file or an empty label ("FILE:LINE").
inline std::vector<std::vector<std::string>> read_cluster_file(const std::string& path) {
  gzFile in = gzopen(path.c_str(), "rb");  // reads uncompressed files as they are
  if (!in) throw Error(path + ": cannot open: " + std::strerror(errno));
  std::vector<std::vector<std::string>> clusters;
  std::string line;
  char buf[1 << 16];
  long long line_no = 0;
  bool eof = false;
  while (!eof) {
    line.clear();
    while (true) {  // one whole line, however long
      if (!gzgets(in, buf, sizeof buf)) {
        eof = true;
        break;
      }
      line += buf;
      if (!line.empty() && line.back() == '\n') break;
    }
    if (line.empty()) break;
    ++line_no;
    if (line.back() == '\n') line.pop_back();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> cluster;
    std::size_t start = 0;
    while (true) {
      const std::size_t tab = line.find('\t', start);
      const std::string label = line.substr(start, tab == std::string::npos ? std::string::npos : tab - start);
      if (label.empty()) {
        gzclose(in);
        throw ParseError(path, line_no, "empty label (a cluster line is labels separated by single tabs)");
      }
      cluster.push_back(label);
      if (tab == std::string::npos) break;
      start = tab + 1;
    }
    clusters.push_back(std::move(cluster));
  }
  int err = Z_OK;
  const char* message = gzerror(in, &err);
  const std::string why = err == Z_OK || err == Z_STREAM_END ? "" : message;
  gzclose(in);
  if (!why.empty()) throw Error(path + ": read error: " + why);
  return clusters;
}

// The clusters in vertex ids: `id_of(label)` names each label's vertex; a label it does not
// know (nullopt) throws Error naming the label and its cluster.
inline std::vector<std::vector<vid_t>> clusters_as_ids(const std::vector<std::vector<std::string>>& clusters,
                                                       const std::function<std::optional<vid_t>(const std::string&)>& id_of) {
  std::vector<std::vector<vid_t>> ids(clusters.size());
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    ids[c].reserve(clusters[c].size());
    for (const std::string& label : clusters[c]) {
      const std::optional<vid_t> v = id_of(label);
      if (!v) throw Error("unknown label '" + label + "' in cluster " + std::to_string(c) + " of the reference");
      ids[c].push_back(*v);
    }
  }
  return ids;
}

inline std::vector<std::vector<vid_t>> clusters_as_ids(const std::vector<std::vector<std::string>>& clusters,
                                                       const std::unordered_map<std::string, vid_t>& ids) {
  return clusters_as_ids(clusters, [&](const std::string& label) -> std::optional<vid_t> {
    const auto it = ids.find(label);
    return it == ids.end() ? std::nullopt : std::optional<vid_t>(it->second);
  });
}

// Each vertex's name as the loader gives it (label, or id + id base) -> its vertex id: the
// label map for a reference clustering of that graph.
inline std::unordered_map<std::string, vid_t> vertex_ids_by_name(const io::LoadedGraph& graph) {
  std::unordered_map<std::string, vid_t> ids;
  ids.reserve(static_cast<std::size_t>(graph.matrix.nrows));
  for (vid_t v = 0; v < graph.matrix.nrows; ++v) ids.emplace(graph.vertex_name(v), v);
  return ids;
}

}  // namespace spgraph::test
