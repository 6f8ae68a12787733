// Reductions of std::int64_t matrices and vectors (one of SPGRAPH_FOR_EACH_VALUE_TYPE).
#include "reduce_impl.cuh"

SPGRAPH_INSTANTIATE_REDUCE(std::int64_t, std::int64_t)
