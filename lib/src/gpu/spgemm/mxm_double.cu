// mxm and mxm_panels over double (the table in spgraph/gpu/spgemm.hpp).
#include "gpu/spgemm/spgemm_impl.cuh"

SPGRAPH_INSTANTIATE_MXM(spgraph::PlusTimes, double)
SPGRAPH_INSTANTIATE_MXM(spgraph::MinPlus, double)
SPGRAPH_INSTANTIATE_MXM(spgraph::MaxTimes, double)
SPGRAPH_INSTANTIATE_MXM(spgraph::PlusFirst, double)
SPGRAPH_INSTANTIATE_MXM(spgraph::PlusSecond, double)
SPGRAPH_INSTANTIATE_MXM(spgraph::PlusPair, double)
