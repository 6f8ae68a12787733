// select over bool (one of SPGRAPH_FOR_EACH_VALUE_TYPE; a file per type keeps compiles short).
#include "select_impl.cuh"

SPGRAPH_INSTANTIATE_SELECT(bool)
