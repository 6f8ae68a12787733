#pragma once
// Triangle counting, as LAGraph's LAGr_TriangleCount defines it, on the undirected simple graph
// underlying the input: self-loops dropped, direction ignored, duplicate and reciprocal links
// merged (Graph::undirected()). With A that graph's symmetric pattern, L = tril(A, -1) and
// U = triu(A, 1), every method counts each triangle once with the plus-pair semiring:
//
//   Burkhardt   sum((A * A) .* A) / 6          Sandia      sum((L * L) .* L)
//   Cohen       sum((L * U) .* A) / 2          Sandia2     sum((U * U) .* U)
//   SandiaDot   sum((L * U') .* L)  (default)  SandiaDot2  sum((U * L') .* U)
//
// where (X * Y) .* M is the product masked by M's structure. Each masked product is reduced
// by the backend's mxm_reduce_rows, which on the GPU never forms the product; with
// `materialize` it is formed by mxm and then reduced (GraphBLAS's own way; slower, kept as the
// reference the fused form is tested against).
//
// Relabeling: the Sandia methods may first renumber the vertices by degree (ascending for
// Sandia and SandiaDot, descending for Sandia2 and SandiaDot2). Presort::Auto is LAGraph's
// rule: relabel when n > 1000, the average degree is at least 10 and the mean degree of 1000
// sampled vertices exceeds 4 times their median; never for Burkhardt and Cohen.
//
// Per-vertex counts, when asked: the triangles through each vertex, t = rowsum((A * A') .* A) / 2
// (each triangle at v is seen from both of its edges at v), in the input's vertex order.
// Counts are 64-bit throughout.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
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

enum class TriangleMethod { Burkhardt, Cohen, Sandia, Sandia2, SandiaDot, SandiaDot2 };
enum class TrianglePresort { Auto, None, Ascending, Descending };
inline constexpr std::array<TriangleMethod, 6> kTriangleMethods{TriangleMethod::Burkhardt, TriangleMethod::Cohen,
                                                                TriangleMethod::Sandia,    TriangleMethod::Sandia2,
                                                                TriangleMethod::SandiaDot, TriangleMethod::SandiaDot2};

// "burkhardt", "cohen", "sandia", "sandia2", "sandia-dot", "sandia-dot2"; and back (nullopt
// for an unknown name).
const char* to_string(TriangleMethod m);
std::optional<TriangleMethod> triangle_method_from_string(std::string_view name);
// "auto", "none", "ascending", "descending"
const char* to_string(TrianglePresort p);

struct TriangleCountOptions {
  TriangleMethod method = TriangleMethod::SandiaDot;
  TrianglePresort presort = TrianglePresort::Auto;  // Burkhardt and Cohen never relabel
  bool materialize = false;  // form each masked product before reducing it
  bool per_vertex = false;   // also count the triangles through each vertex
};

struct TriangleCountResult {
  std::int64_t triangles = 0;
  std::vector<std::int64_t> per_vertex;  // one per vertex when asked, else empty
  TriangleMethod method = TriangleMethod::SandiaDot;
  TrianglePresort presort = TrianglePresort::None;  // what was done: None, Ascending or Descending
  std::int64_t undirected_edges = 0;  // the edges of the undirected simple graph
  // By the backend's clock (CUDA events on the GPU): building the undirected graph (and the
  // pattern it comes from) where this call built it, 0 where the Graph already held it; the
  // relabeling, L and U, the products and reductions (the total); and the per-vertex counts
  // including fetching them to the host.
  double build_seconds = 0;
  double count_seconds = 0;
  double per_vertex_seconds = 0;
};

// On a graph already on a backend (graph.hpp); its undirected() structure is built on first use
// and kept. Device failures throw spgraph::Error / ResourceError.
#if SPGRAPH_HAVE_GPU
TriangleCountResult triangle_count(Graph<gpu::GpuBackend>& graph, const TriangleCountOptions& options = {});
#endif
TriangleCountResult triangle_count(Graph<graphblas::GraphBlasBackend>& graph, const TriangleCountOptions& options = {});
#if SPGRAPH_HAVE_MPI
// Across the ranks of an MPI job (dist/backend.hpp): collective, every rank gets the result.
TriangleCountResult triangle_count(Graph<dist::CpuBackend>& graph, const TriangleCountOptions& options = {});
#if SPGRAPH_HAVE_GPU
TriangleCountResult triangle_count(Graph<dist::GpuBackend>& graph, const TriangleCountOptions& options = {});
#endif
#endif
// The same from a host CSR (row i: vertex i's links; values ignored), building the Graph for
// this one run on the chosen backend.
TriangleCountResult triangle_count(Backend backend, const Csr<double>& graph, const TriangleCountOptions& options = {});

}  // namespace spgraph::algorithms
