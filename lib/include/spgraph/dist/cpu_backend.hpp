#pragma once
// The distributed backend on CPU ranks: each rank's block in SuiteSparse:GraphBLAS.
#include "spgraph/dist/backend.hpp"
#include "spgraph/graphblas/backend.hpp"

namespace spgraph::dist {

using CpuBackend = Backend<graphblas::GraphBlasBackend>;

static_assert(spgraph::Backend<CpuBackend>);
static_assert(FusedMxvReduce<CpuBackend>);
static_assert(WordFrontierBfs<CpuBackend>);
static_assert(!DeviceLoop<CpuBackend>);  // GraphBLAS has no MxvLoop

}  // namespace spgraph::dist
