#pragma once
// PageRank by power iteration, as LAGraph, networkx and LDBC Graphalytics define it:
//
//   r_0 = 1/n;   r_{k+1}(i) = (1 - d)/n + d * dangling_k / n + d * sum_{j -> i} r_k(j) / outdeg(j)
//
// with d the damping factor and dangling_k the rank held by vertices without out-links, spread
// uniformly over all vertices, so the ranks always sum to 1. Edge weights are ignored: only the
// graph's pattern counts (LAGraph and Graphalytics do the same; networkx would weight links).
// Self-loops are links like any other. Row i of the graph lists the out-links of vertex i.
//
// Stopping: after iteration k the L1 change is sum_i |r_k(i) - r_{k-1}(i)|; the run has
// converged when it is below tolerance (ToleranceMode::L1) or below n * tolerance
// (ToleranceMode::NetworkX, networkx's rule), and stops unconverged after max_iterations.
// fixed_iterations > 0 instead runs exactly that many iterations with no tolerance test
// (Graphalytics' definition); such a run counts as converged.
// The change is taken against r_{k-1} as read back from the next iteration's input
// r_{k-1}/outdeg (pagerank_impl.hpp), so each term carries one extra rounding of V: in float
// the reported change is within about 1e-7 of the exact L1 change.
//
// Ranks are float or double (V); the sums behind the change and the dangling mass are
// accumulated in double either way.
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

enum class ToleranceMode {
  L1,        // stop when the L1 change < tolerance (LAGraph)
  NetworkX,  // stop when the L1 change < n * tolerance (networkx.pagerank)
};

// How the iterations run on the gpu backend; the cpu backend always iterates from the host.
enum class PageRankLoop {
  Auto,    // Device where gpu::MxvLoop suits the graph (about 2M links on an H200), Host otherwise
  Host,    // the host queues each iteration's kernels, one iteration ahead (gpu::MxvReducer)
  Device,  // every iteration in one kernel, the stopping test on the device (gpu::MxvLoop);
           // an error on the cpu backend, and on a graph too big for it (the message says so)
  Operations,  // the definition as unfused operations of the contract (operations.hpp), an
               // iteration at a time: slower; the reference the fused loops are tested against
};

struct PageRankOptions {
  double damping = 0.85;     // in [0, 1]
  double tolerance = 1e-6;   // > 0
  ToleranceMode tolerance_mode = ToleranceMode::L1;
  int max_iterations = 100;  // >= 1
  int fixed_iterations = 0;  // > 0: exactly this many iterations, tolerance not used
  PageRankLoop loop = PageRankLoop::Auto;
};

template <class V>
struct PageRankResult {
  std::vector<V> rank;     // one per vertex, summing to 1
  int iterations = 0;      // iterations run
  double change = 0;       // L1 change of the last iteration
  bool converged = false;  // the stopping rule was met (always, with fixed_iterations)
  double upload_seconds = 0;  // graph parts not yet built (A', degrees) and vectors onto the backend
  double solve_seconds = 0;   // the iterations and fetching the ranks back
  // The iterations alone, by the backend's clock: CUDA events on the gpu, so the device's time
  // including any wait for the host; the host's clock on the cpu.
  double iterate_seconds = 0;
  bool device_loop = false;  // the iterations ran as one kernel (PageRankLoop::Device)
};

// On a graph already on a backend (graph.hpp), which keeps A' and the degrees for later runs.
// Throws spgraph::Error for a graph without vertices and for options out of range, naming the
// value; device failures as spgraph::Error / ResourceError. V is float or double.
#if SPGRAPH_HAVE_GPU
template <class V>
PageRankResult<V> pagerank(Graph<gpu::GpuBackend>& graph, const PageRankOptions& options = {});
#endif
template <class V>
PageRankResult<V> pagerank(Graph<graphblas::GraphBlasBackend>& graph, const PageRankOptions& options = {});
#if SPGRAPH_HAVE_MPI
// Across the ranks of an MPI job (dist/backend.hpp): collective, every rank gets every rank.
template <class V>
PageRankResult<V> pagerank(Graph<dist::CpuBackend>& graph, const PageRankOptions& options = {});
#if SPGRAPH_HAVE_GPU
template <class V>
PageRankResult<V> pagerank(Graph<dist::GpuBackend>& graph, const PageRankOptions& options = {});
#endif
#endif
// The same from a host CSR, building the Graph for this one run on the chosen backend (also
// throws for a graph that is not square).
template <class V>
PageRankResult<V> pagerank(Backend backend, const Csr<double>& graph, const PageRankOptions& options = {});

}  // namespace spgraph::algorithms
