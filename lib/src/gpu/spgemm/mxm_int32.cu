// mxm and mxm_panels over int32 (gpu::MxmPairs in spgraph/gpu/spgemm.hpp).
#include "gpu/spgemm/spgemm_impl.cuh"

SPGRAPH_INSTANTIATE_MXM(spgraph::PlusTimes, std::int32_t)
SPGRAPH_INSTANTIATE_MXM(spgraph::PlusPair, std::int32_t)
SPGRAPH_INSTANTIATE_MXM(spgraph::AnySecondI, std::int32_t)
