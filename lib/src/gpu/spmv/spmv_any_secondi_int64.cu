// gpu::mxv and gpu::vxm for the AnySecondI semiring over std::int64_t.
#include "gpu/spmv/spmv_impl.cuh"

SPGRAPH_GPU_SPMV_INSTANTIATE(spgraph::AnySecondI, std::int64_t)
