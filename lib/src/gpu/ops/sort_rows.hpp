#pragma once
// Puts the columns of every row of a CSR structure in ascending order (permute renames columns,
// which unsorts its rows). Independent of the value type: where the caller has values, it gets
// the order the entries moved in and gathers its values by it, so CUB's sorts are compiled once
// instead of once per value type.
#include "spgraph/device/memory.hpp"
#include "spgraph/types.hpp"

#include <cstdint>

namespace spgraph::gpu::detail {

// rowptr: nrows + 1 offsets; col: nnz column ids below ncols, each row's unsorted. col_out gets
// each row's columns sorted. Where order is not null, order[k] is the position in col of the
// entry that lands at k (rows keep their entries, so order[k] lies in k's row). Pos is
// std::uint32_t where nnz allows (the sort moves half the payload bytes of 64-bit positions) or
// eid_t; both are compiled.
template <class Pos>
void sort_rows(const eid_t* rowptr, vid_t nrows, vid_t ncols, eid_t nnz, const vid_t* col, vid_t* col_out,
               Pos* order);

}  // namespace spgraph::gpu::detail
