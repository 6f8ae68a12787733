#pragma once
// The one list of what spgraph compiles: every explicit instantiation in lib/src (host
// containers, the GraphBLAS backend, the GPU operations) expands these macros, and the tests
// iterate over the same lists, so a type added here is built and tested everywhere.
//
//   SPGRAPH_FOR_EACH_VALUE_TYPE(X)   matrix and vector value types of every operation
//   SPGRAPH_FOR_EACH_COUNT_TYPE(X)   value types whose reductions may also return int64_t
//                                    counts (X(V) is called with each such V)
// Word types for bitwise semirings (std::uint64_t, a bit per BFS source) are instantiated for
// mxv and vxm only (gpu/spmv.hpp).
#include <cstdint>

#define SPGRAPH_FOR_EACH_VALUE_TYPE(X) X(float) X(double) X(std::int32_t) X(std::int64_t) X(bool)
#define SPGRAPH_FOR_EACH_COUNT_TYPE(X) X(std::int32_t) X(bool)
