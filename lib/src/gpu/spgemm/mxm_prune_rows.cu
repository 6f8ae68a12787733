// mxm_prune_rows (spgraph/gpu/mxm_prune_rows.hpp) for PlusTimes over float and double: the
// product from mxm_panels, each panel pruned as it arrives (prune_rows_impl.cuh) and kept only
// pruned; the pieces joined into C at the end.
#include <algorithm>
#include <utility>
#include <vector>

#include "gpu/spgemm/prune_rows_impl.cuh"
#include "gpu/spgemm/spgemm_impl.cuh"
#include "spgraph/gpu/mxm_prune_rows.hpp"

// mxm_panels over these is compiled in mxm_float.cu and mxm_double.cu; spgemm_impl.cuh (for
// concatenate_rows and empty_csr) must not compile it again here.
#define SPGRAPH_MXM_PANELS_COMPILED_ELSEWHERE(SR, V)                                                        \
  extern template ::spgraph::gpu::SpgemmInfo spgraph::gpu::mxm_panels<SR, V>(                                \
      const ::spgraph::gpu::Matrix<V>&, const ::spgraph::gpu::Matrix<V>&, SR, const ::spgraph::MxmOptions&, \
      const std::function<void(::spgraph::vid_t, std::type_identity_t<::spgraph::gpu::Matrix<V>>&&)>&,      \
      const ::spgraph::gpu::SpgemmTuning&);
SPGRAPH_MXM_PANELS_COMPILED_ELSEWHERE(spgraph::PlusTimes, float)
SPGRAPH_MXM_PANELS_COMPILED_ELSEWHERE(spgraph::PlusTimes, double)

namespace spgraph::gpu {

template <class SR, class V>
SpgemmInfo mxm_prune_rows(Matrix<V>& C, Vector<V>& peak, Vector<V>& squares, const Matrix<V>& A,
                          const Matrix<V>& B, SR sr, const PruneSpec& spec, const MxmOptions& options) {
  using spgemm_detail::kMainStream;
  const vid_t n = A.nrows();
  Vector<V> row_peak(std::size_t(n), kMainStream), row_squares(std::size_t(n), kMainStream);
  // The panels take half of what is free, at most 8 GiB, unless told otherwise; the pruned rows
  // and the pruning's scratch the rest. Larger panels save nothing (the symbolic pass covers
  // every row at once; panels split only the numeric one), and single allocations of tens of
  // GiB have failed with more than twice as much free (docs/performance/mcl.md).
  constexpr std::size_t kMaxDefaultBudget = std::size_t(8) << 30;
  MxmOptions panel_options = options;
  if (panel_options.memory_budget == 0)
    panel_options.memory_budget = std::min(device::available_memory() / 2, kMaxDefaultBudget);
  std::vector<device::DeviceCsr<V>> pieces;
  const SpgemmInfo info = mxm_panels<SR, V>(A, B, sr, panel_options, [&](vid_t first, Matrix<V>&& panel) {
    const Matrix<V> unpruned = std::move(panel);  // freed as soon as it is pruned
    pieces.push_back(prune_detail::prune_panel(unpruned.csr(), first, spec, row_peak.data(), row_squares.data(),
                                               kMainStream));
  });
  device::DeviceCsr<V> c;
  if (pieces.empty()) c = spgemm_detail::empty_csr<V>(n, B.ncols(), kMainStream);  // A has no rows
  else if (pieces.size() == 1) c = std::move(pieces.front());
  else c = spgemm_detail::concatenate_rows(pieces, B.ncols());
  C = Matrix<V>(std::move(c));
  peak = std::move(row_peak);
  squares = std::move(row_squares);
  return info;
}

}  // namespace spgraph::gpu

#define SPGRAPH_INSTANTIATE_MXM_PRUNE_ROWS(SR, V)                                                           \
  template ::spgraph::gpu::SpgemmInfo spgraph::gpu::mxm_prune_rows<SR, V>(                                  \
      ::spgraph::gpu::Matrix<V>&, ::spgraph::gpu::Vector<V>&, ::spgraph::gpu::Vector<V>&,                    \
      const ::spgraph::gpu::Matrix<V>&, const ::spgraph::gpu::Matrix<V>&, SR, const ::spgraph::PruneSpec&,  \
      const ::spgraph::MxmOptions&);
SPGRAPH_INSTANTIATE_MXM_PRUNE_ROWS(spgraph::PlusTimes, float)
SPGRAPH_INSTANTIATE_MXM_PRUNE_ROWS(spgraph::PlusTimes, double)
