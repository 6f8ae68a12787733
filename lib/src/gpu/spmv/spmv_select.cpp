// The automatic SpMV kernel choice and the HYB split: pure functions of the row statistics,
// so the rule is testable without a GPU (rule and derivation in gpu/spmv.hpp).
#include <algorithm>
#include <string>

#include "spgraph/error.hpp"
#include "gpu/spmv/spmv_formats.hpp"

namespace spgraph::gpu {

namespace {
SpmvKernel choose_by_rows(const SpmvRowStats& s, const SpmvSelection& sel) {
  if (s.nnz == 0) return SpmvKernel::CsrVector;
  if (s.max_row_length <= sel.balanced_max_row) {
    if (s.nnz <= sel.small_nnz) return SpmvKernel::CsrVector;
    if (double(s.sellp_slots) <= sel.sellp_max_padding * double(s.nnz)) return SpmvKernel::SellP;
    return SpmvKernel::CsrStream;
  }
  if (s.nnz <= sel.small_nnz) return SpmvKernel::CooLoadBalanced;
  const double stream_limit = std::max(double(sel.stream_max_row), double(s.nnz) * sel.stream_max_row_share);
  if (double(s.max_row_length) <= stream_limit) return SpmvKernel::CsrStream;
  return SpmvKernel::CooLoadBalanced;
}
}  // namespace

SpmvKernel choose_spmv_kernel(const SpmvRowStats& s, const SpmvSelection& sel) {
  const SpmvKernel k = choose_by_rows(s, sel);
  if (k != SpmvKernel::CsrStream || !s.columns_counted) return k;
  if (s.value_size >= sel.amb_min_value_size && s.amb_byte_ratio <= sel.amb_max_byte_ratio) return SpmvKernel::Amb;
  return k;
}

double hyb_split_quantile(std::size_t value_bytes, std::size_t index_bytes) {
  return double(index_bytes) / double(value_bytes + 2 * index_bytes);
}

const char* spmv_kernel_name(SpmvKernel k) {
  switch (k) {
    case SpmvKernel::Auto: return "auto";
    case SpmvKernel::CsrVector: return "csr-vector";
    case SpmvKernel::CsrMergePath: return "csr-merge-path";
    case SpmvKernel::CsrStream: return "csr-stream";
    case SpmvKernel::CooLoadBalanced: return "coo-load-balanced";
    case SpmvKernel::SellP: return "sell-p";
    case SpmvKernel::Hyb: return "hyb";
    case SpmvKernel::Amb: return "amb";
  }
  throw Error("spmv_kernel_name: unknown SpmvKernel value " + std::to_string(int(k)));
}

namespace {
thread_local SpmvKernel t_last_kernel = SpmvKernel::Auto;
}  // namespace

SpmvKernel last_spmv_kernel() { return t_last_kernel; }

namespace detail {
void record_spmv_kernel(SpmvKernel k) { t_last_kernel = k; }
}  // namespace detail

}  // namespace spgraph::gpu
