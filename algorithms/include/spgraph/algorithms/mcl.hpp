#pragma once
// Markov clustering with the semantics of van Dongen's `mcl` program (release 22-282), so that
// the same graph and parameters give the same clusters. With S the input made symmetric (the
// larger weight of the two directions; repeated links keep their largest weight when loaded)
// and its self-loops replaced by each vertex's largest weight (1 for a vertex without links),
// mcl's column-stochastic matrix M is kept as its transpose T = M' = S normalised by rows, so
// that mcl's columns are T's rows. Then, until chaos < 1e-4:
//
//   expansion   T = prune(T * T)   per row as mcl prunes a column (PruneSpec): entries below
//                                  1/P dropped, at most S kept, up to R recovered while the
//                                  kept mass is below pct; computed in row panels that fit
//                                  the memory budget, each pruned as it is produced
//   chaos       max over rows of (max - sum of squares) of the row before pruning, times the
//               entries kept (mcl measures it on the expanded matrix)
//   inflation   T = T .^ I, rows normalised to sum 1 (from the 40th iteration on, I grows by
//               0.1% an iteration, as mcl does to settle rare periodic cases)
//
// Clusters come from the last matrix as mcl reads them: per row, the entries close to the
// largest or the loop kept (mclDag); attractors are the rows that keep their loop; attractors
// linked to each other form one cluster, and every other vertex joins the first cluster
// (numbered by smallest attractor) that it flows to (mcl's default, -overlap cut); vertices
// that reach no attractor form one cluster. Clusters are ordered by size, largest first,
// equal sizes by their smallest vertex; members in ascending vertex order.
//
// Arithmetic as mcl's: products summed in double, each iterate then rounded to float, which
// keeps tied flows exactly tied (float sums, or double without the rounding, change how many
// iterations settle them; docs/performance/mcl.md). Weights must be non-negative numbers (zero weights are no
// link); others are refused with an Error naming the link.
#include <cstddef>
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

struct MclOptions {
  double inflation = 2.0;         // mcl -I
  std::int64_t prune_number = 10000;   // mcl -P: entries below 1/P (as 0.99999/P) dropped
  std::int64_t select_number = 1100;   // mcl -S: at most S entries kept per column
  std::int64_t recover_number = 1400;  // mcl -R: recovered up to R entries ...
  int recover_percent = 90;            // mcl -pct: ... while the kept mass is below pct %
  std::int64_t max_iterations = 10000;  // mcl -L
  // Bytes one part of the expansion may use: on the GPU a row panel's device memory (0: half of
  // what is free, at most 8 GiB; the pruned rows are kept besides it); across the ranks of an MPI
  // job a phase's host memory on each rank (0: a quarter of the host's memory shared among its
  // ranks). The CPU backend prunes each row as it is produced and needs none.
  std::size_t memory_budget = 0;
};

// mcl's -scheme k (1..7): the preset P, S, R and pct it names; throws Error for another k.
MclOptions mcl_scheme(int k, MclOptions base = {});

// One line of progress, as mcl prints one per iteration (the caller may add device memory).
struct MclIteration {
  int iteration = 0;              // from 1
  double chaos = 0;
  double seconds = 0;             // this iteration, by the backend's clock
  std::int64_t entries = 0;       // entries of the iterate after pruning
};

struct MclResult {
  std::vector<std::vector<vid_t>> clusters;  // largest first; members ascending
  int iterations = 0;
  double final_chaos = 0;
  bool converged = false;           // chaos fell below 1e-4 within max_iterations
  double build_seconds = 0;         // symmetrising, loops, normalising
  double iterate_seconds = 0;       // the iterations
  double interpret_seconds = 0;     // reading clusters from the last matrix
};

using MclProgress = std::function<void(const MclIteration&)>;

// On a graph already on a backend (its weights used; a graph without weights reads as 1).
// Device failures throw spgraph::Error / ResourceError.
#if SPGRAPH_HAVE_GPU
MclResult mcl(Graph<gpu::GpuBackend>& graph, const MclOptions& options = {}, const MclProgress& progress = {});
#endif
MclResult mcl(Graph<graphblas::GraphBlasBackend>& graph, const MclOptions& options = {},
              const MclProgress& progress = {});
#if SPGRAPH_HAVE_MPI
// Across the ranks of an MPI job (dist/backend.hpp): collective, every rank gets the clusters.
MclResult mcl(Graph<dist::CpuBackend>& graph, const MclOptions& options = {}, const MclProgress& progress = {});
#if SPGRAPH_HAVE_GPU
MclResult mcl(Graph<dist::GpuBackend>& graph, const MclOptions& options = {}, const MclProgress& progress = {});
#endif
#endif
// The same from a host CSR (row i: vertex i's links with their weights).
MclResult mcl(Backend backend, const Csr<double>& graph, const MclOptions& options = {},
              const MclProgress& progress = {});

}  // namespace spgraph::algorithms
