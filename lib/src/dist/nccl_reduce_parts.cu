#include "dist/nccl_reduce_parts.hpp"

#include <algorithm>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"

namespace spgraph::dist {

bool nccl_has_op(ReduceOp op, DataType type) {
  const bool arithmetic = op == ReduceOp::Sum || op == ReduceOp::Prod || op == ReduceOp::Min ||
                          op == ReduceOp::Max;
  if (type == DataType::Bool) return op != ReduceOp::BitXor;  // or = max, and = min on 0/1 bytes
  return arithmetic;
}

namespace {

template <class T, ReduceOp Op>
__device__ T combine(T a, T b) {
  if constexpr (Op == ReduceOp::LogicalOr) return static_cast<T>((a != T(0)) || (b != T(0)));
  else if constexpr (Op == ReduceOp::LogicalAnd) return static_cast<T>((a != T(0)) && (b != T(0)));
  else if constexpr (Op == ReduceOp::BitOr) return static_cast<T>(a | b);
  else if constexpr (Op == ReduceOp::BitAnd) return static_cast<T>(a & b);
  else return static_cast<T>(a ^ b);  // BitXor
}

// One thread an output element, striding: the parts of element i are n apart.
template <class T, ReduceOp Op>
__global__ void reduce_parts_kernel(const T* in, T* out, std::int64_t n, int parts) {
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    T acc = in[i];
    if constexpr (Op == ReduceOp::LogicalOr || Op == ReduceOp::LogicalAnd) acc = static_cast<T>(acc != T(0));
    for (int p = 1; p < parts; ++p) acc = combine<T, Op>(acc, in[p * n + i]);
    out[i] = acc;
  }
}

template <class T, ReduceOp Op>
void launch(const void* in, void* out, std::int64_t n, int parts, cudaStream_t stream) {
  constexpr int kThreads = 256;
  const int blocks = static_cast<int>(std::min<std::int64_t>((n + kThreads - 1) / kThreads, 4096));
  reduce_parts_kernel<T, Op><<<blocks, kThreads, 0, stream>>>(static_cast<const T*>(in), static_cast<T*>(out), n, parts);
  SPGRAPH_CHECK_LAUNCH("reduce_parts_kernel");
}

template <class T>
void launch_op(const void* in, void* out, std::int64_t n, int parts, ReduceOp op, cudaStream_t stream) {
  switch (op) {
    case ReduceOp::LogicalOr: return launch<T, ReduceOp::LogicalOr>(in, out, n, parts, stream);
    case ReduceOp::LogicalAnd: return launch<T, ReduceOp::LogicalAnd>(in, out, n, parts, stream);
    case ReduceOp::BitOr: return launch<T, ReduceOp::BitOr>(in, out, n, parts, stream);
    case ReduceOp::BitAnd: return launch<T, ReduceOp::BitAnd>(in, out, n, parts, stream);
    case ReduceOp::BitXor: return launch<T, ReduceOp::BitXor>(in, out, n, parts, stream);
    default: throw Error(std::string("reduce_parts: op ") + name_of(op) + " is NCCL's own");
  }
}

}  // namespace

void reduce_parts(const void* in, void* out, std::int64_t n, int parts, DataType type, ReduceOp op,
                  cudaStream_t stream) {
  if (n == 0) return;
  switch (type) {
    case DataType::Bool: return launch_op<bool>(in, out, n, parts, op, stream);
    case DataType::Int8: return launch_op<std::int8_t>(in, out, n, parts, op, stream);
    case DataType::UInt8: return launch_op<std::uint8_t>(in, out, n, parts, op, stream);
    case DataType::Int32: return launch_op<std::int32_t>(in, out, n, parts, op, stream);
    case DataType::UInt32: return launch_op<std::uint32_t>(in, out, n, parts, op, stream);
    case DataType::Int64: return launch_op<std::int64_t>(in, out, n, parts, op, stream);
    case DataType::UInt64: return launch_op<std::uint64_t>(in, out, n, parts, op, stream);
    default: throw Error(std::string("reduce_parts: no ") + name_of(op) + " on " + name_of(type));
  }
}

}  // namespace spgraph::dist
