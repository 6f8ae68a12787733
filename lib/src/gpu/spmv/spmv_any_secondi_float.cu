// gpu::mxv and gpu::vxm for the AnySecondI semiring over float.
#include "spgraph/gpu/spmv_impl.cuh"

SPGRAPH_GPU_SPMV_INSTANTIATE(spgraph::AnySecondI, float)
