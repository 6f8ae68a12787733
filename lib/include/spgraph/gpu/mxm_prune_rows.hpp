#pragma once
// MCL's expansion on the GPU: C = A (+.*) B with every row pruned as PruneSpec says
// (operation_options.hpp; the mcl program's -P -S -R -pct), and per row the largest value and
// the sum of squares before pruning (mcl's chaos).
//
// A product of many products a row is formed a row at a time in tiles of shared memory (dense
// ranges of columns, or hash tables for a row spread thinly over many columns) and pruned
// there, with no symbolic pass and no unpruned rows in global memory; the others come from
// mxm_panels in row panels, each pruned as it arrives and only what survives kept, so the
// unpruned product never needs to fit at once. The budget is options.memory_budget, or half of
// the free device memory, at most 8 GiB, when that is 0: the tiles' scratch (an SM's room for
// the most products of a row, at most B's columns) and their stage of kept rows (at most 4 GiB
// at once), or the panels (the rest holds the pruned rows; the pruning itself needs a few bytes
// a row). Rows that need their k-th largest value (more than `select` entries over the
// threshold, or a recovery) find it by a radix select over the row (256 bins a pass, 8 bits of
// the value at a time); the rest are decided from one pass over the row.
//
// Instantiated for PlusTimes over float and double (lib/src/gpu/spgemm/mxm_prune_rows.cu).
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/gpu/spgemm.hpp"
#include "spgraph/operation_options.hpp"
#include "spgraph/semiring.hpp"

namespace spgraph::gpu {

// info.nnz counts the entries of the product before pruning; C.nnz() those kept.
template <class SR, class V>
SpgemmInfo mxm_prune_rows(Matrix<V>& C, Vector<V>& peak, Vector<V>& squares, const Matrix<V>& A,
                          const Matrix<V>& B, SR sr, const PruneSpec& spec, const MxmOptions& options = {},
                          const SpgemmTuning& tuning = {});

}  // namespace spgraph::gpu
