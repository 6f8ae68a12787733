// mxm and mxm_panels over double (gpu::MxmPairs in spgraph/gpu/spgemm.hpp).
#include "gpu/spgemm/spgemm_impl.cuh"

SPGRAPH_INSTANTIATE_MXM(spgraph::PlusTimes, double)
SPGRAPH_INSTANTIATE_MXM(spgraph::MinPlus, double)
