// Reductions of float matrices and vectors (one of SPGRAPH_FOR_EACH_VALUE_TYPE).
#include "reduce_impl.cuh"

SPGRAPH_INSTANTIATE_REDUCE(float, float)
