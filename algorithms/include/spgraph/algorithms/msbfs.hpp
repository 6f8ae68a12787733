#pragma once
// Multi-source breadth-first search: for each of k sources, the level of every vertex (the
// source 0, its out-neighbours 1, ..., unreached -1) and, when asked, a parent of every reached
// vertex: any vertex one level up with a link to it; the source and unreached vertices have
// kNoParent, which is never a vertex id. Row i of the graph lists vertex i's out-links; the
// search follows them (BfsDirection::Out) or the links into a vertex (In). An undirected graph
// is a symmetric one, where the two agree.
//
// The sources run in batches of `batch` at once, as a k-row frontier matrix F advanced a level
// at a time on the operations contract (push):
//
//   T<!V, replace> = F any.secondi A     T(s, v) = a frontier vertex u with a link u -> v
//   V<T> = depth                          the levels found so far (V's pattern: visited)
//   P<T> = T                              parents, when asked
//   F = T
//
// until no frontier is left. Sources may repeat and may have no links.
//
// Where the backend has it (WordBfs: the gpu's, and the distributed backend's across the grid,
// dist/word_bfs.hpp), the search runs in the bit-parallel form instead
// (MS-BFS, Then et al., PVLDB 2014): one bit per source in a 64-bit word per vertex, each level
// pushed over the frontier's out-links or pulled over in-links (Beamer's rule, per level), so 64
// sources cost about what one does. It holds 64 sources: a larger batch runs 64 at a time.
#include <cstdint>
#include <functional>
#include <vector>

#include "spgraph/algorithms/backend.hpp"
#include "spgraph/config.hpp"
#include "spgraph/csr.hpp"
#include "spgraph/graph.hpp"
#include "spgraph/graphblas/backend.hpp"
#if SPGRAPH_HAVE_MPI
#include "spgraph/dist/cpu_backend.hpp"
#if SPGRAPH_HAVE_GPU
#include "spgraph/dist/gpu_backend.hpp"
#endif
#endif
#if SPGRAPH_HAVE_GPU
#include "spgraph/gpu/backend.hpp"
#endif

namespace spgraph::algorithms {

inline constexpr vid_t kNoParent = -1;
inline constexpr std::int32_t kUnreached = -1;

enum class BfsDirection { Out, In };

enum class MsbfsForm {
  Auto,    // bit-parallel words where the backend has them
  Matrix,  // the frontier matrix, on every backend
};

struct MsbfsOptions {
  bool parents = false;
  BfsDirection direction = BfsDirection::Out;
  int batch = 64;  // sources searched at once, >= 1
  MsbfsForm form = MsbfsForm::Auto;
};

// The answers for the sources [first, first + count) of the list given, vertex-major per source:
// level[s * n + v] for the batch's source s (0-based within the batch) and vertex v.
struct MsbfsBatch {
  std::size_t first = 0;
  std::size_t count = 0;
  std::vector<std::int32_t> level;  // kUnreached where v is not reached
  std::vector<vid_t> parent;        // kNoParent for the source and unreached vertices; empty
                                    // unless asked for
};

struct MsbfsSummary {
  std::vector<std::int64_t> reached;  // per source: vertices reached, the source included
  std::vector<std::int32_t> depth;    // per source: the largest level
  std::int64_t edges_traversed = 0;   // links examined: the out-degree sum of every vertex reached,
                                      // over all sources (Graph500's count)
  double seconds = 0;                 // the searches, by the backend's clock
};

// Searches from every source, handing each batch's answers to `sink` as soon as it is done (the
// levels of k sources take k * n * 4 bytes: a caller writes them out batch by batch); with an
// empty sink only the summary is made. Throws spgraph::Error for a source outside 0..n-1
// (naming it) or a batch < 1.
using MsbfsSink = std::function<void(const MsbfsBatch&)>;
#if SPGRAPH_HAVE_GPU
MsbfsSummary msbfs(Graph<gpu::GpuBackend>& graph, const std::vector<vid_t>& sources, const MsbfsSink& sink,
                   const MsbfsOptions& options = {});
#endif
MsbfsSummary msbfs(Graph<graphblas::GraphBlasBackend>& graph, const std::vector<vid_t>& sources,
                   const MsbfsSink& sink, const MsbfsOptions& options = {});
#if SPGRAPH_HAVE_MPI
// Across the ranks of an MPI job (dist/backend.hpp): collective; the sink is called on every rank.
MsbfsSummary msbfs(Graph<dist::CpuBackend>& graph, const std::vector<vid_t>& sources, const MsbfsSink& sink,
                   const MsbfsOptions& options = {});
#if SPGRAPH_HAVE_GPU
MsbfsSummary msbfs(Graph<dist::GpuBackend>& graph, const std::vector<vid_t>& sources, const MsbfsSink& sink,
                   const MsbfsOptions& options = {});
#endif
#endif
MsbfsSummary msbfs(Backend backend, const Csr<double>& graph, const std::vector<vid_t>& sources,
                   const MsbfsSink& sink, const MsbfsOptions& options = {});

}  // namespace spgraph::algorithms
