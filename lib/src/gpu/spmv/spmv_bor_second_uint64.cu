// gpu::mxv and gpu::vxm for the BorSecond semiring over std::uint64_t.
#include "gpu/spmv/spmv_impl.cuh"

SPGRAPH_GPU_SPMV_INSTANTIATE(spgraph::BorSecond, std::uint64_t)
