// gpu::mxv and gpu::vxm for the PlusSecond semiring over float.
#include "spgraph/gpu/spmv_impl.cuh"

SPGRAPH_GPU_SPMV_INSTANTIATE(spgraph::PlusSecond, float)
