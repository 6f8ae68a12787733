// mxm and mxm_panels over float (the table in spgraph/gpu/spgemm.hpp).
#include "gpu/spgemm/spgemm_impl.cuh"

SPGRAPH_INSTANTIATE_MXM(spgraph::PlusTimes, float)
SPGRAPH_INSTANTIATE_MXM(spgraph::MinPlus, float)
SPGRAPH_INSTANTIATE_MXM(spgraph::MaxTimes, float)
SPGRAPH_INSTANTIATE_MXM(spgraph::PlusFirst, float)
SPGRAPH_INSTANTIATE_MXM(spgraph::PlusSecond, float)
SPGRAPH_INSTANTIATE_MXM(spgraph::PlusPair, float)
