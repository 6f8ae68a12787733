// Reductions of bool matrices and vectors, as bool and as std::int64_t counts (one of
// SPGRAPH_FOR_EACH_VALUE_TYPE and of SPGRAPH_FOR_EACH_COUNT_TYPE).
#include "reduce_impl.cuh"

SPGRAPH_INSTANTIATE_REDUCE(bool, bool)
SPGRAPH_INSTANTIATE_REDUCE(std::int64_t, bool)
