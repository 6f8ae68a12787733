#pragma once
// The reductions NCCL does not have (logical and bitwise ops on integers, bxor on bool), done by
// the NCCL communicator on blocks it has exchanged: out[i] = op over p < parts of in[p * n + i],
// in MPI's meaning (logical ops give 1 or 0). Enqueued on `stream`.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "spgraph/dist/communicator.hpp"

namespace spgraph::dist {

// Whether NCCL reduces `op` on `type` itself (ncclSum, ncclProd, ncclMin, ncclMax, with bool's
// logical and bitwise or/and as max/min on bytes of 0 or 1).
bool nccl_has_op(ReduceOp op, DataType type);

void reduce_parts(const void* in, void* out, std::int64_t n, int parts, DataType type, ReduceOp op,
                  cudaStream_t stream);

}  // namespace spgraph::dist
