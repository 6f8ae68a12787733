// mxm and mxm_panels over int64 (gpu::MxmPairs in spgraph/gpu/spgemm.hpp).
#include "gpu/spgemm/spgemm_impl.cuh"

SPGRAPH_INSTANTIATE_MXM(spgraph::PlusTimes, std::int64_t)
SPGRAPH_INSTANTIATE_MXM(spgraph::PlusPair, std::int64_t)
SPGRAPH_INSTANTIATE_MXM(spgraph::MinPlus, std::int64_t)
