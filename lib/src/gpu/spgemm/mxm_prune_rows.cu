// mxm_prune_rows (spgraph/gpu/mxm_prune_rows.hpp) for PlusTimes over float and double: heavy
// products by the tiles, dense or hashed (pruned_tiles_impl.cuh), the rest from mxm_panels,
// each panel pruned as it arrives (prune_rows_impl.cuh) and kept only pruned; the pieces joined
// into C at the end.
#include <algorithm>
#include <utility>
#include <vector>

#include "gpu/spgemm/prune_rows_impl.cuh"
#include "gpu/spgemm/pruned_tiles_impl.cuh"
#include "gpu/spgemm/spgemm_impl.cuh"
#include "spgraph/gpu/assign.hpp"
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
namespace {

using spgemm_detail::kMainStream;

// What Auto asks of a product before it takes the tiles, on average: products a row (below, a
// block a row costs more than the symbolic pass saves: MCL's later iterations) and products an
// entry of A (below, the warps visit each entry's row of B once a tile for a few products: a
// product by the identity, as the distributed backend prunes gathered rows, has one).
constexpr eid_t kTileMinProductsPerRow = 2048;
constexpr eid_t kTileMinProductsPerEntry = 64;

// What the tiles need besides the work: values, and a bound on what a row keeps.
template <class V>
bool tiles_apply(const device::DeviceCsr<V>& A, const device::DeviceCsr<V>& B, const PruneSpec& spec) {
  return A.nrows > 0 && A.nnz() > 0 && B.nnz() > 0 && !A.is_pattern() && !B.is_pattern() &&
         std::max(spec.select, spec.recover) > 0;
}

template <class V>
bool without_sign_bits(const device::DeviceCsr<V>& A, const device::DeviceCsr<V>& B) {
  return !prune_detail::has_sign_bits(A, kMainStream) && (&A == &B || !prune_detail::has_sign_bits(B, kMainStream));
}

template <class V>
device::DeviceCsr<V> joined(std::vector<device::DeviceCsr<V>>& pieces, vid_t nrows, vid_t ncols) {
  if (pieces.empty()) return spgemm_detail::empty_csr<V>(nrows, ncols, kMainStream);  // A has no rows
  if (pieces.size() == 1) return std::move(pieces.front());
  return spgemm_detail::concatenate_rows(pieces, ncols);
}

}  // namespace

template <class SR, class V>
SpgemmInfo mxm_prune_rows(Matrix<V>& C, Vector<V>& peak, Vector<V>& squares, const Matrix<V>& A,
                          const Matrix<V>& B, SR sr, const PruneSpec& spec, const MxmOptions& options,
                          const SpgemmTuning& tuning) {
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
  // rows [first, first + panel's) of a*B, or the rows ids[first ...] of the product, pruned
  const auto pruned_panels = [&](const Matrix<V>& a, const vid_t* ids, SpgemmInfo& info) {
    std::vector<device::DeviceCsr<V>> pieces;
    info = mxm_panels<SR, V>(a, B, sr, panel_options, [&](vid_t first, Matrix<V>&& panel) {
      const Matrix<V> unpruned = std::move(panel);  // freed as soon as it is pruned
      pieces.push_back(prune_detail::prune_panel(unpruned.csr(), first, spec, row_peak.data(), row_squares.data(),
                                                 kMainStream, ids ? ids + first : nullptr));
    });
    return pieces;
  };

  using Path = SpgemmTuning::PrunedProduct;
  SpgemmInfo info;
  std::vector<device::DeviceCsr<V>> pieces;
  // Auto skips the row statistics where B's average row for each entry of A makes far too few
  // products (MCL's later iterations, of a few entries a row).
  const double typical_entry = double(B.nnz()) / double(std::max<vid_t>(B.nrows(), 1));
  const bool may_be_heavy = typical_entry * double(A.nnz()) >= double(kTileMinProductsPerRow) * n / 8 &&
                            typical_entry >= double(kTileMinProductsPerEntry) / 8;
  const bool forced = tuning.pruned_product == Path::Tiles || tuning.pruned_product == Path::HashedTiles;
  bool tiles = tuning.pruned_product != Path::Panels && tiles_apply(A.csr(), B.csr(), spec) && (forced || may_be_heavy);
  spgemm_detail::RowStats stats;
  std::size_t stage_room = 0;
  eid_t scratch_columns = 0;
  if (tiles) {
    const spgemm_detail::Structure a = spgemm_detail::structure_of(A.csr()), b = spgemm_detail::structure_of(B.csr());
    spgemm_detail::check_inner_dimensions(a, b, "mxm_prune_rows");
    stats = spgemm_detail::row_stats(a, b, kMainStream);
    scratch_columns = prune_detail::tile_scratch_columns(stats, n, B.ncols(), kMainStream);
    const std::size_t scratch = prune_detail::tile_scratch_bytes<V>(scratch_columns, B.nnz());
    const std::size_t room = panel_options.memory_budget;
    stage_room = room > scratch ? std::min(room - scratch, kMaxDefaultBudget / 2) : 0;
    tiles = stage_room > 0 &&
            (forced || (stats.total_products >= kTileMinProductsPerRow * eid_t(n) &&
                        stats.total_products >= kTileMinProductsPerEntry * A.nnz())) &&
            without_sign_bits(A.csr(), B.csr());
  }
  if (tiles) {
    info.algorithm = "tiles";
    info.products = stats.total_products;
    const prune_detail::LeftOverRows<V> left = [&](const std::vector<vid_t>& rows, SpgemmInfo& whole) {
      Matrix<V> listed;
      extract_rows(listed, A, rows);
      device::Buffer<vid_t> ids(rows.size(), kMainStream);
      ids.upload(rows);
      SpgemmInfo part;
      std::vector<device::DeviceCsr<V>> parts = pruned_panels(listed, ids.data(), part);
      whole.nnz += part.nnz;
      whole.global_table_rows += part.global_table_rows;
      whole.dense_rows += part.dense_rows;
      return joined(parts, listed.nrows(), B.ncols());
    };
    using prune_detail::TileRows;
    const TileRows how = tuning.pruned_product == Path::Tiles         ? TileRows::Dense
                         : tuning.pruned_product == Path::HashedTiles ? TileRows::Hashed
                                                                       : TileRows::Auto;
    pieces = prune_detail::tiled_pruned_product(A.csr(), B.csr(), stats, scratch_columns, spec, how, stage_room,
                                                row_peak.data(), row_squares.data(), left, info, kMainStream);
  } else {
    pieces = pruned_panels(A, nullptr, info);
  }
  C = Matrix<V>(joined(pieces, n, B.ncols()));
  peak = std::move(row_peak);
  squares = std::move(row_squares);
  return info;
}

}  // namespace spgraph::gpu

#define SPGRAPH_INSTANTIATE_MXM_PRUNE_ROWS(SR, V)                                                           \
  template ::spgraph::gpu::SpgemmInfo spgraph::gpu::mxm_prune_rows<SR, V>(                                  \
      ::spgraph::gpu::Matrix<V>&, ::spgraph::gpu::Vector<V>&, ::spgraph::gpu::Vector<V>&,                    \
      const ::spgraph::gpu::Matrix<V>&, const ::spgraph::gpu::Matrix<V>&, SR, const ::spgraph::PruneSpec&,  \
      const ::spgraph::MxmOptions&, const ::spgraph::gpu::SpgemmTuning&);
SPGRAPH_INSTANTIATE_MXM_PRUNE_ROWS(spgraph::PlusTimes, float)
SPGRAPH_INSTANTIATE_MXM_PRUNE_ROWS(spgraph::PlusTimes, double)
