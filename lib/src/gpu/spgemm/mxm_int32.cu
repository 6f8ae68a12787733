// mxm and mxm_panels over int32_t (the table in spgraph/gpu/spgemm.hpp).
#include <cstdint>

#include "gpu/spgemm/spgemm_impl.cuh"

SPGRAPH_INSTANTIATE_MXM(spgraph::PlusTimes, std::int32_t)
SPGRAPH_INSTANTIATE_MXM(spgraph::PlusPair, std::int32_t)
SPGRAPH_INSTANTIATE_MXM(spgraph::MinPlus, std::int32_t)
SPGRAPH_INSTANTIATE_MXM(spgraph::AnySecondI, std::int32_t)
