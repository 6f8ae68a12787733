// gpu::mxv and gpu::vxm for the AnySecondI semiring over float.
#include "gpu/spmv/spmv_impl.cuh"

SPGRAPH_GPU_SPMV_INSTANTIATE(spgraph::AnySecondI, float)
