#pragma once
// The distributed backend on GPU ranks: each rank's block on its own GPU (gpu::GpuBackend; the
// rank's device chosen by start_gpu_ranks, dist/rank_gpu.hpp). Blocks cross ranks as host arrays
// over the grid's MPI communicators (dist/exchange.hpp).
#include "spgraph/dist/backend.hpp"
#include "spgraph/gpu/backend.hpp"

namespace spgraph::dist {

using GpuBackend = Backend<gpu::GpuBackend>;

static_assert(spgraph::Backend<GpuBackend>);
static_assert(FusedMxvReduce<GpuBackend>);
static_assert(WordFrontierBfs<GpuBackend>);

}  // namespace spgraph::dist
