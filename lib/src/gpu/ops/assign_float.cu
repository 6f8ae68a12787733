// assign, extract_rows and permute over float (one of SPGRAPH_FOR_EACH_VALUE_TYPE).
#include "assign_impl.cuh"

SPGRAPH_INSTANTIATE_ASSIGN(float)
