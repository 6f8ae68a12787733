// mxm and mxm_panels over bool (the table in spgraph/gpu/spgemm.hpp).
#include "gpu/spgemm/spgemm_impl.cuh"

SPGRAPH_INSTANTIATE_MXM(spgraph::OrAnd, bool)
