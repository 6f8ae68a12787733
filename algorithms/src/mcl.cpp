#include "spgraph/algorithms/mcl.hpp"

#include <array>
#include <cmath>
#include <string>

#include "mcl_support.hpp"
#include "on_backend.hpp"
#include "spgraph/error.hpp"

namespace spgraph::algorithms {

MclOptions mcl_scheme(int k, MclOptions base) {
  // mcl's -scheme presets (mcl --show-schemes): P, S, R, pct.
  constexpr std::array<std::array<int, 4>, 7> kSchemes{{{3000, 400, 500, 90},
                                                        {4000, 500, 600, 90},
                                                        {5000, 600, 700, 90},
                                                        {6000, 700, 800, 90},
                                                        {7000, 800, 900, 90},
                                                        {10000, 1100, 1400, 90},
                                                        {10000, 1200, 1600, 90}}};
  if (k < 1 || k > 7) throw Error("mcl: -scheme " + std::to_string(k) + " does not exist; the schemes are 1 to 7");
  const auto& s = kSchemes[k - 1];
  base.prune_number = s[0];
  base.select_number = s[1];
  base.recover_number = s[2];
  base.recover_percent = s[3];
  return base;
}

void check_mcl_options(const MclOptions& o) {
  if (!(o.inflation > 0) || !std::isfinite(o.inflation))
    throw Error("mcl: the inflation (-I) must be a positive number, not " + std::to_string(o.inflation));
  if (o.prune_number < 0 || o.select_number < 0 || o.recover_number < 0)
    throw Error("mcl: -P, -S and -R must not be negative");
  if (o.recover_percent < 0 || o.recover_percent > 100)
    throw Error("mcl: -pct must be between 0 and 100, not " + std::to_string(o.recover_percent));
  if (o.max_iterations < 1) throw Error("mcl: at least one iteration (-L) is needed");
}

void check_mcl_weights(const Csr<double>& g) {
  for (vid_t i = 0; i < g.nrows; ++i)
    for (eid_t p = g.rowptr[i]; p < g.rowptr[i + 1]; ++p) {
      const double w = g.is_pattern() ? 1.0 : g.val[p];
      if (w >= 0 && std::isfinite(w)) continue;
      throw Error("mcl: the link from vertex " + std::to_string(i) + " to vertex " + std::to_string(g.col[p]) +
                  " has weight " + std::to_string(w) + "; MCL needs weights that are positive numbers");
    }
}

MclResult mcl(Backend backend, const Csr<double>& graph, const MclOptions& options, const MclProgress& progress) {
  return on_backend(backend, graph, [&](auto& g) { return mcl(g, options, progress); });
}

}  // namespace spgraph::algorithms
