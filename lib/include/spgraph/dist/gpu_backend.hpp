#pragma once
// The distributed backend on GPU ranks: each rank's block on its own GPU (gpu::GpuBackend; the
// rank's device chosen by start_gpu_ranks, dist/rank_gpu.hpp). Blocks cross ranks as host arrays
// over the grid's MPI communicators (dist/exchange.hpp); a grid of one rank runs the gpu
// backend's own operations, MxvLoop and WordBfs included.
#include "spgraph/dist/backend.hpp"
#include "spgraph/gpu/backend.hpp"

namespace spgraph::dist {

using GpuBackend = Backend<gpu::GpuBackend>;

static_assert(spgraph::Backend<GpuBackend>);
static_assert(FusedMxvReduce<GpuBackend>);
static_assert(WordFrontierBfs<GpuBackend>);
static_assert(DeviceLoop<GpuBackend>);  // on a grid of one rank

}  // namespace spgraph::dist
