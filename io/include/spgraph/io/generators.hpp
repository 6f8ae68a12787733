#pragma once
// Synthetic graphs for tests and benchmarks, and the statistics that say what an SpGEMM on them
// costs.
//
// Every generator is deterministic: the same parameters give a bitwise identical Csr on every
// run, machine, compiler and thread count. They use their own PRNG (xoshiro256** seeded through
// splitmix64, one stream per row or per block of edges) and integer-only arithmetic for every
// decision (no std::*_distribution, whose output is implementation-defined, and no libm calls,
// whose last bit may differ between platforms).
//
// Output: a square n x n directed graph as Csr<double>, pattern (no values) unless
// random_values is set, columns sorted, no self-loops, no duplicate edges. `threads`: 0 means
// all hardware threads.
#include <cstdint>

#include "spgraph/csr.hpp"

namespace spgraph::io {

// R-MAT (Chakrabarti, Zhan, Faloutsos), the recursive-quadrant Kronecker generator of Graph500:
// each edge descends log2(n) levels, picking quadrant a (top left), b (top right), c or d.
struct RmatParams {
  int scale = 0;    // n = 2^scale when n is 0
  vid_t n = 0;      // vertex count; when not a power of two, draws outside [0, n) are redrawn
  eid_t edges = 0;  // edges drawn; self-loops and duplicates are then removed, so nnz <= edges
  double a = 0.57, b = 0.19, c = 0.19, d = 0.05;  // Graph500's; must sum to 1
  std::uint64_t seed = 1;
  bool random_values = false;  // values uniform in (0, 1] instead of a pattern
};
Csr<double> rmat(const RmatParams& p, int threads = 1);

// A power-law graph shaped to match a real graph's SpGEMM behaviour, not only its size.
// Plain R-MAT is far more skewed than web or citation graphs (at these sizes 670 to 1,150
// products per edge in A*A, where wb-edu has 27 and cit-Patents 5), so this generator controls
// what sets A*A's cost:
//  - the out-degree sequence: exactly `edges` edges, the longest row exactly max_out_degree
//    (one row), a power law in between: #rows longer than d ~ d^-out_exponent, fitted to the
//    edge count, over n - empty_rows rows; the others get none (dangling vertices; more may
//    stay empty if the power law runs out of edges first);
//  - locality: vertices form consecutive sites of site_size ids (web sites, technology classes).
//    A share local_fraction of each row's targets lies in its own site, the rest anywhere.
//    Within a site the vertex of rank r (r = id - site start) is drawn with weight
//    (r+1)^-site_exponent, for local and global targets alike: every site has a few pages
//    (home, index pages) that most of its pages, and many outside, link to. A target drawn twice
//    moves on to the next free id, so long rows fill their site's top ranks nearly in order:
//    rows near each other share targets, which is what makes the rows of B that one row of A
//    gathers in A*A overlap (wb-edu has 2.5 products per nonzero of A*A, cit-Patents 1.2);
//  - products = sum_k indeg(k) * outdeg(k): a share hub_fraction of the sites are hub sites,
//    whose first hub_group ids (their most linked ranks) get the largest out-degrees of the
//    graph, hub_group consecutive ones per site (a site's index pages have similar lengths,
//    which sets how much their rows overlap). All other out-degrees are in random order.
// Rows longer than a quarter of their site reach into the neighbouring sites.
struct PowerLawParams {
  vid_t n = 0;
  eid_t edges = 0;
  vid_t max_out_degree = 0;
  double out_exponent = 1.5;  // in (0, 3]
  vid_t empty_rows = 0;
  vid_t site_size = 1;
  double site_exponent = 1;  // in [0, 3]; 0 = uniform within a site
  double local_fraction = 0;
  double hub_fraction = 0;
  vid_t hub_group = 1;
  std::uint64_t seed = 1;
  bool random_values = false;  // values uniform in (0, 1] instead of a pattern
};
Csr<double> power_law_graph(const PowerLawParams& p, int threads = 1);

// Presets shaped after the two target graphs of the seed paper (Table II): size, longest row,
// products of A*A and nnz of A*A each within a few percent of the real graph's (GraphShape
// below; tests/generators check them, bench_generators prints them).
PowerLawParams wb_edu_like(std::uint64_t seed = 1);
PowerLawParams cit_patents_like(std::uint64_t seed = 1);
// The same shape at 1/k of the vertices and edges, for tests: sites and the longest row are kept,
// so products per edge and nnz(A*A) per product stay within 25% of the full size's up to k = 50
// for wb_edu_like (+23% products per edge there) and k = 100 for cit_patents_like; beyond, the
// longest rows weigh more and more.
PowerLawParams scaled(const PowerLawParams& p, int k);
// The same shape at k times the vertices and edges, for scaling benchmarks (bench_scaling's
// wb-edu-like x4): more sites of the same size, the longest row kept, so products per edge stay
// about the same.
PowerLawParams enlarged(const PowerLawParams& p, int k);

// What A*A costs on a graph: the figures the seed paper's Table II lists.
struct GraphShape {
  vid_t n = 0;
  eid_t nnz = 0;
  eid_t max_row = 0;
  double products = 0;  // intermediate products of A*A: sum over entries (i,k) of rowlen(k)
  double nnz_aa = 0;    // nonzeros of A*A
};
// The real graphs (SuiteSparse Gleich/wb-edu; SNAP cit-Patents), as the presets' targets.
inline constexpr GraphShape kWbEduShape{9'845'725, 57'156'537, 3'841, 1.56e9, 6.3e8};
inline constexpr GraphShape kCitPatentsShape{3'774'768, 16'518'948, 770, 8.2e7, 6.9e7};

// The cost of one sparse product C = A*B on a graph.
struct ProductStats {
  eid_t products = 0;     // intermediate products (multiply-adds an SpGEMM performs)
  double nnz = 0;         // nonzeros of C: exact, or estimated from sampled rows
  double nnz_stderr = 0;  // standard error of the estimate (0 when exact)
  bool exact = false;
};

struct GraphStats {
  vid_t nrows = 0, ncols = 0;
  eid_t nnz = 0;
  eid_t max_row = 0;      // longest row (out-degree)
  eid_t max_column = 0;   // longest column (in-degree)
  eid_t empty_rows = 0;
  ProductStats aa;   // A * A (zero when A is not square)
  ProductStats aat;  // A * A'
};

// How to count nnz(C) for one product C: every row with a marker array (O(products) time), an
// estimate from rows sampled with probability proportional to their products (rows with many
// products are always counted) so that about sample_work of the products are evaluated (the
// estimate is unbiased and its standard error is reported), or not at all. Products are always
// counted exactly, in O(nnz).
enum class NnzCount { Exact, Sampled, Skip };

struct StatsOptions {
  NnzCount aa = NnzCount::Exact;     // A*A (square matrices only)
  NnzCount aat = NnzCount::Sampled;  // A*A': counting its nnz builds A' (a second copy of A's structure)
  double sample_work = 0.02;
  std::uint64_t seed = 1;
  int threads = 1;  // 0: all hardware threads; results do not depend on it
};

template <class V>
GraphStats graph_stats(const Csr<V>& a, const StatsOptions& options = {});

}  // namespace spgraph::io
