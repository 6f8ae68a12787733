#pragma once
// Index types shared by every layer. Vertex ids are 32-bit (graphs up to 2^31-1 vertices);
// edge offsets and product counts are 64-bit because wb-edu's A^2 alone has 1.56e9
// intermediate products and cage15's 2.08e9, past what int32 holds.
#include <cstdint>

#if defined(__CUDACC__)
#define SPGRAPH_HD __host__ __device__ __forceinline__
#else
#define SPGRAPH_HD inline
#endif

namespace spgraph {
using vid_t = std::int32_t;  // vertex / column id
using eid_t = std::int64_t;  // row offset, nonzero count, product count
}  // namespace spgraph
