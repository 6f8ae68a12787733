// gpu::mxv and gpu::vxm for the MinPlus semiring over std::int64_t.
#include "gpu/spmv/spmv_impl.cuh"

SPGRAPH_GPU_SPMV_INSTANTIATE(spgraph::MinPlus, std::int64_t)
