#pragma once
// The one entry point the apps and benchmarks use to read a graph, whatever its format.
//
// Dispatch on the file name (case-insensitive, after stripping ".gz"):
//   .mtx             Matrix Market (id_base 1: users see the file's 1-based ids)
//   .spgcsr          the binary CSR cache (save_cache writes it)
//   .abc             mcl's label format (labels kept)
//   anything else    an edge list (.txt, .tsv, .csv, .el, .edges, ...; id_base 0)
// unless LoadOptions::format names the reader.
// A missing or unreadable file is an spgraph::Error naming the path and the errno text;
// malformed content is a ParseError "FILE:LINE: reason". Every text format refuses a NaN or
// infinite weight that way (nan, inf, infinity in any case and sign), whatever the options.
// Matrix Market and edge-list text is parsed on OpenMP's threads (omp_get_max_threads(), so
// OMP_NUM_THREADS), with the same result and the same errors as on one.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/graph_ops.hpp"

namespace spgraph::io {

struct LoadedGraph {
  Csr<double> matrix;               // no values for unweighted graphs
  std::vector<std::string> labels;  // one per vertex (label files, compacted edge lists) or empty
  int id_base = 0;                  // how vertex 0 is called when there are no labels
  std::string format;               // "matrix-market", "edge-list", "abc" or "spgcsr"
  // An edge list whose header says "Undirected graph" (SNAP's, whose files store each pair
  // once): every link was added in both directions (edge_list.hpp), and apps say so.
  bool mirrored = false;
  // The file's entries where `matrix` holds only some of its rows (a rank's share of a .spgcsr
  // under mpirun, io::read_csr_cache_rows); -1 where it holds them all.
  eid_t file_links = -1;
  eid_t links() const { return file_links >= 0 ? file_links : matrix.nnz(); }

  // What users call vertex i: labels[i] if present, else i + id_base.
  std::string vertex_name(vid_t i) const;
};

// Which reader load_graph uses: by the file name (above), or the one named whatever the name
// (mcl's --abc reads any file as label pairs).
enum class GraphFormat { ByName, MatrixMarket, EdgeList, Abc, Cache };

// Told how far a text file's reading has come: the bytes of the file read so far (compressed
// bytes for a .gz) and its size (0 when unknown, as for a pipe). Called on the loading thread
// each time the reader reads more, every few MiB.
using ReadProgress = std::function<void(std::uint64_t bytes_read, std::uint64_t file_bytes)>;

struct LoadOptions {
  // Repeated entries. For .abc files, Error (the default) means mcl's rule, keep the largest
  // weight, since that format defines repeats as legal; Sum, Max and First apply as given.
  Duplicates duplicates = Duplicates::Error;
  bool compact_ids = false;  // edge lists: renumber ids 0..n-1 by first appearance, keep them as labels
  // Edge lists and Matrix Market: accept a vertex count (largest id + 1, or the size line's)
  // beyond 64 * (entries + 1) + 2^20, which is otherwise refused before allocating, with a
  // message naming --compact-ids (edge lists) and --trust-vertex-count.
  bool trust_vertex_count = false;
  // Edge lists: a header saying "Undirected graph" mirrors every link (LoadedGraph::mirrored);
  // false reads the links as stored (EdgeListOptions::mirror_undirected).
  bool mirror_undirected = true;
  // Refuse a negative weight (zero is allowed), as MCL needs: an Error "FILE:LINE: weight -1
  // is negative; ..." from the text readers, and for a .spgcsr cache, which has no lines and
  // may hold NaN or infinity written by a program, an Error naming the file and the link.
  bool require_nonnegative_weights = false;
  GraphFormat format = GraphFormat::ByName;
  ReadProgress progress;  // text formats only; none by default
};

LoadedGraph load_graph(const std::string& path, const LoadOptions& options = {});

// Writes the graph as a .spgcsr cache (matrix, labels, id base); load_graph reads it back.
void save_cache(const std::string& path, const LoadedGraph& graph);

}  // namespace spgraph::io
