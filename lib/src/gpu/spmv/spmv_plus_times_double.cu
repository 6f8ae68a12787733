// gpu::mxv and gpu::vxm for the PlusTimes semiring over double.
#include "gpu/spmv/spmv_impl.cuh"

SPGRAPH_GPU_SPMV_INSTANTIATE(spgraph::PlusTimes, double)
