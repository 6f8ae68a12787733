// gpu::mxv and gpu::vxm for the PlusPair semiring over double.
#include "gpu/spmv/spmv_impl.cuh"

SPGRAPH_GPU_SPMV_INSTANTIATE(spgraph::PlusPair, double)
