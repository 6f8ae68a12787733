// Reductions of std::int32_t matrices and vectors, as std::int32_t and as std::int64_t counts (one of
// SPGRAPH_FOR_EACH_VALUE_TYPE and of SPGRAPH_FOR_EACH_COUNT_TYPE).
#include "reduce_impl.cuh"

SPGRAPH_INSTANTIATE_REDUCE(std::int32_t, std::int32_t)
SPGRAPH_INSTANTIATE_REDUCE(std::int64_t, std::int32_t)
