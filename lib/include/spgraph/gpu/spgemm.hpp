#pragma once
// Sparse matrix-matrix multiply on the GPU: C<M> = A (+.*) B over a semiring (semiring.hpp),
// with the GraphBLAS semantics of descriptor.hpp. Outputs are CSR with sorted columns and
// exactly sized arrays (a symbolic pass counts every row before the numeric pass writes it).
//
// Algorithms (MxmOptions::algorithm):
//   Hash (and Auto): Nagasaka, Nukada, Matsuoka, "High-performance and Memory-saving Sparse
//     General Matrix-Matrix Multiplication for NVIDIA Pascal GPU" (ICPP 2017), re-derived for
//     the H200's 227 KiB of shared memory per block; see spgemm/groups.hpp for the row groups
//     and table sizes. Rows whose column span is small use a dense accumulator instead of a
//     hash table; the largest rows use tables in global memory.
//   Esc: Dalton, Olson, Bell, "Optimizing Sparse Matrix-Matrix Multiplication for the GPU"
//     (ACM TOMS 2015): expand every product, sort (CUB radix sort), contract; in row slices
//     sized to the memory budget. Slower, and independent of the hash code: the reference path.
//   With a mask, the product is never formed unmasked: a mask that is not complemented computes
//     only its own positions (each product is looked up in the mask's row); a complemented one
//     skips every product whose column the mask holds in that row (binary search in its sorted
//     row) and sorts and contracts only the rest, so C and the working memory are sized by
//     what survives (BFS's F<!V> = F any.pair A). Esc multiplies fully and then applies the
//     mask: the reference path.
//
// Memory: MxmOptions::memory_budget (0: what is free on the device) bounds what one row panel
// needs: its rows' share of C plus the working memory of computing them. When everything does
// not fit, rows are processed in panels; mxm writes them into the final C (which, being the
// result asked for, may itself exceed an explicit budget), mxm_panels hands each to a callback
// and never holds more than one. A row that cannot fit even alone throws ResourceError naming
// the row, its size and the budget. Counts and offsets are 64-bit throughout.
//
// Values: the output always carries values (pattern inputs read as 1). Entries whose value
// equals the identity after accumulation, e.g. products that cancel, are kept as explicit
// entries, as GraphBLAS keeps them. Inputs must have sorted, duplicate-free rows.
//
// Instantiated (lib/src/gpu/spgemm/mxm_<type>.cu) for the pairs of gpu::MxmPairs below: those
// the algorithms and benchmarks multiply with (plus-pair and any-secondi over int32 for triangles
// and BFS, plus-times over float and double), and one of each other kind of monoid the kernels
// treat apart (min) over an exact type. Other combinations: add the pair to MxmPairs and an
// SPGRAPH_INSTANTIATE_MXM(SR, V) line to the type's file (each pair costs about 15 s of nvcc).
#include <cstddef>
#include <functional>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include "spgraph/descriptor.hpp"
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/operation_options.hpp"
#include "spgraph/semiring.hpp"

namespace spgraph::gpu {

// The (semiring, value type) pairs mxm and mxm_panels are compiled for: the one list of this
// kernel family. The tests iterate over it, so a pair listed and not instantiated fails to link.
template <class SR_, class V_>
struct MxmPair {
  using SR = SR_;
  using V = V_;
};
using MxmPairs = std::tuple<MxmPair<PlusTimes, float>, MxmPair<PlusTimes, double>, MxmPair<MinPlus, double>,
                            MxmPair<PlusTimes, std::int64_t>, MxmPair<PlusPair, std::int64_t>,
                            MxmPair<MinPlus, std::int64_t>, MxmPair<PlusTimes, std::int32_t>,
                            MxmPair<PlusPair, std::int32_t>, MxmPair<AnySecondI, std::int32_t>>;

// What the last call did, for benchmarks (GFLOPS = 2 * products / time) and tests.
struct SpgemmInfo {
  eid_t products = 0;          // intermediate products A(i,k)*B(k,j) of the computed product
  eid_t nnz = 0;               // entries of the returned C (or of all panels)
  int panels = 0;              // row panels the output was computed in
  eid_t skipped = 0;           // products a complemented mask excluded before they were formed
  std::string algorithm;       // "hash", "esc", "masked-hash" (mask-driven), "complement-masked"
                               // or "none" (empty product)
  vid_t global_table_rows = 0; // rows whose numeric pass used global-memory hash tables
  vid_t dense_rows = 0;        // rows accumulated densely over their column span (hash path)
  vid_t hashed_rows = 0;       // mxm_prune_rows: rows the tiles summed in hash tables
};

// Knobs beyond MxmOptions, for tests and experiments; the defaults are what mxm uses.
struct SpgemmTuning {
  // Every row with products goes through the global-memory table path (symbolic and numeric),
  // which otherwise serves only rows too large for shared memory.
  bool force_global_tables = false;
  // mxm_prune_rows: Auto takes the tiles (no symbolic pass) for products of many products a
  // row, each row dense or hashed by how widely its products spread, Panels the hash product's
  // panels pruned as they come; Tiles (every row dense) and HashedTiles (every row hashed) the
  // tiles wherever they apply (values without sign bits, a select or recover count).
  enum class PrunedProduct { Auto, Panels, Tiles, HashedTiles } pruned_product = PrunedProduct::Auto;
};

// C<mask> = A (+.*) B with the semantics of descriptor.hpp: a valued mask allows (i,j) where
// M(i,j) exists and is nonzero, a structural one where it exists, complement inverts; without
// replace the old C's entries outside the mask are kept (C may be an empty Matrix: then there
// is nothing to keep), with replace they are dropped. transpose_a / transpose_b multiply by
// A' / B' (built with gpu::transpose). Dimensions that do not match throw spgraph::Error; a
// memory budget too small for one row throws ResourceError.
template <class SR, class V>
SpgemmInfo mxm(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
               const Matrix<V>& B, SR, const Descriptor& desc = {}, const MxmOptions& options = {},
               const SpgemmTuning& tuning = {});

// C = A (+.*) B handed over in row panels, in order: panel holds rows
// [first_row, first_row + panel.nrows()) of C, all B.ncols() columns, as its own matrix; the
// sink may keep, prune or drop it. Each panel and its working memory fit options.memory_budget.
template <class SR, class V>
SpgemmInfo mxm_panels(const Matrix<V>& A, const Matrix<V>& B, SR, const MxmOptions& options,
                      const std::function<void(vid_t first_row, std::type_identity_t<Matrix<V>>&& panel)>& sink,
                      const SpgemmTuning& tuning = {});

// Intermediate products of A*B: sum over A's entries (i,k) of the length of B's row k.
template <class V>
eid_t count_products(const Matrix<V>& A, const Matrix<V>& B);

}  // namespace spgraph::gpu
