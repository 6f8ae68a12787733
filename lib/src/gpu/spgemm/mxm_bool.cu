// mxm and mxm_panels over bool (the table in spgraph/gpu/spgemm.hpp).
#include "spgraph/gpu/spgemm_impl.cuh"

SPGRAPH_INSTANTIATE_MXM(spgraph::OrAnd, bool)
