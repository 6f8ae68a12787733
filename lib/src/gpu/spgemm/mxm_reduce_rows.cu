// mxm_reduce_rows for the plus semirings (the table in spgraph/gpu/mxm_reduce_rows.hpp).
#include <cstdint>

#include "gpu/spgemm/mxm_reduce_rows_impl.cuh"

#define SPGRAPH_MXM_REDUCE_ROWS_FOR(V)                       \
  SPGRAPH_INSTANTIATE_MXM_REDUCE_ROWS(spgraph::PlusPair, V)  \
  SPGRAPH_INSTANTIATE_MXM_REDUCE_ROWS(spgraph::PlusTimes, V)
SPGRAPH_MXM_REDUCE_ROWS_FOR(std::int32_t)
SPGRAPH_MXM_REDUCE_ROWS_FOR(std::int64_t)
SPGRAPH_MXM_REDUCE_ROWS_FOR(float)
SPGRAPH_MXM_REDUCE_ROWS_FOR(double)
