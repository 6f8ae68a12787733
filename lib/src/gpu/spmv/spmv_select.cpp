// The automatic SpMV kernel choice and the HYB split: pure functions of the row statistics,
// so the rule is testable without a GPU (rule and derivation in gpu/spmv.hpp).
#include <string>

#include "spgraph/error.hpp"
#include "spgraph/gpu/spmv.hpp"

namespace spgraph::gpu {

SpmvKernel choose_spmv_kernel(const SpmvRowStats& s, const SpmvSelection& sel) {
  if (s.nnz == 0) return SpmvKernel::CsrVector;
  const double nnz = double(s.nnz);
  if (s.max_row_length <= sel.balanced_max_row) {
    if (s.nnz <= sel.small_nnz) return SpmvKernel::CsrVector;
    if (double(s.sellp_slots) <= sel.sellp_max_padding * nnz) return SpmvKernel::SellP;
    return SpmvKernel::CooLoadBalanced;
  }
  const double ell_entries = nnz - double(s.hyb_coo_nnz);
  const double ell_slots = double(s.hyb_ell_width) * double(s.nrows);
  if (s.nnz > sel.small_nnz && ell_entries > 0 && ell_entries >= sel.hyb_min_ell_share * nnz &&
      ell_slots <= sel.hyb_max_padding * ell_entries)
    return SpmvKernel::Hyb;
  return SpmvKernel::CooLoadBalanced;
}

double hyb_split_quantile(std::size_t value_bytes, std::size_t index_bytes) {
  return double(index_bytes) / double(value_bytes + 2 * index_bytes);
}

const char* spmv_kernel_name(SpmvKernel k) {
  switch (k) {
    case SpmvKernel::Auto: return "auto";
    case SpmvKernel::CsrVector: return "csr-vector";
    case SpmvKernel::CsrMergePath: return "csr-merge-path";
    case SpmvKernel::CooLoadBalanced: return "coo-load-balanced";
    case SpmvKernel::SellP: return "sell-p";
    case SpmvKernel::Hyb: return "hyb";
  }
  throw Error("spmv_kernel_name: unknown SpmvKernel value " + std::to_string(int(k)));
}

}  // namespace spgraph::gpu
