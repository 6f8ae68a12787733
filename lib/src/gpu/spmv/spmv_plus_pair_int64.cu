// gpu::mxv and gpu::vxm for the PlusPair semiring over std::int64_t.
#include "gpu/spmv/spmv_impl.cuh"

SPGRAPH_GPU_SPMV_INSTANTIATE(spgraph::PlusPair, std::int64_t)
