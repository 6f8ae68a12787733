// gpu::mxv and gpu::vxm for the BorBand semiring over std::uint64_t.
#include "gpu/spmv/spmv_impl.cuh"

SPGRAPH_GPU_SPMV_INSTANTIATE(spgraph::BorBand, std::uint64_t)
