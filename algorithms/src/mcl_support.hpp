#pragma once
// The host-side parts of MCL (spgraph/algorithms/mcl.hpp) that every backend shares: checking
// the options and weights, and reading clusters from the last iterate.
#include <vector>

#include "spgraph/algorithms/mcl.hpp"
#include "spgraph/csr.hpp"

namespace spgraph::algorithms {

inline constexpr double kMclChaosLimit = 1e-4;  // mcl's chaosLimit: below it the process stops

// Error naming the option that mcl would refuse too (inflation not positive, negative numbers,
// pct outside 0..100, no iterations).
void check_mcl_options(const MclOptions& options);
// Error naming the first link whose weight is negative, infinite or NaN.
void check_mcl_weights(const Csr<double>& graph);

// The clusters of the limit L = the last iterate T (rows are mcl's columns), as mcl reads them:
// mclDag, then each row normalised and its entries below 1/(k+1) dropped, then attractor
// systems and what flows into them (mclInterpret with -overlap cut); largest first. Values are
// rounded to float first, as mcl holds them.
std::vector<std::vector<vid_t>> clusters_from_limit(const Csr<double>& limit);

}  // namespace spgraph::algorithms
