#pragma once
// The decisions of PruneSpec (operation_options.hpp), shared by the GPU kernels and the
// GraphBLAS backend's host pass so both prune alike. A row is summarised first by its length n
// and the count and mass of its entries >= threshold; only the Select and RecoverAll cases need
// its values in descending order.
#include <cstdint>

#include "spgraph/operation_options.hpp"
#include "spgraph/types.hpp"

namespace spgraph::detail {

enum class PruneCase : std::uint8_t {
  Threshold,   // keep the entries >= threshold
  Loop,        // nothing kept and no recovery: the diagonal entry alone, set to 1
  KeepAll,     // recovery of a row no longer than `recover`: every entry
  RecoverAll,  // keep the entries >= the recover-th largest of the row
  Select,      // keep the entries >= the select-th largest, or recover among the kept (select_bar)
};

SPGRAPH_HD PruneCase prune_case(eid_t n, eid_t kept, double kept_mass, const PruneSpec& s) {
  if (s.recover > 0 && kept < s.recover && kept_mass < s.recover_mass)
    return n <= s.recover ? PruneCase::KeepAll : PruneCase::RecoverAll;
  if (s.select > 0 && kept > s.select) return PruneCase::Select;
  if (s.recover == 0 && kept == 0) return PruneCase::Loop;
  return PruneCase::Threshold;
}

// The bar of a Select row: `selected` entries of mass `selected_mass` are >= select_bar (the
// select-th largest); recovery among the `kept` entries >= threshold when those fall short,
// where recover_bar is the recover-th largest (read only when kept > recover).
SPGRAPH_HD double select_bar(double sbar, eid_t selected, double selected_mass, eid_t kept, double recover_bar,
                             const PruneSpec& s) {
  if (s.recover > 0 && selected < s.recover && selected_mass < s.recover_mass)
    return kept > s.recover ? recover_bar : s.threshold;
  return sbar;
}

}  // namespace spgraph::detail
