#pragma once
// GPU element-wise operations (spgraph/gpu/elementwise.hpp), included by one small
// elementwise_<type>.cu per value type. Each operation computes the unmasked result T and
// hands it to write_masked (mask_write.hpp), which applies the mask and replace.
//
//   ewise, matrices   one thread per row merges the rows of A and B (sorted columns): a count
//                     pass (union or intersection), a scan to row offsets, a fill pass
//   ewise, vectors    one thread per position
//   apply             A's pattern copied, op applied to each value
//   scale             A's pattern copied, each value times d(row) or d(col)
// Operators are dispatched at run time (operator_ids.hpp): each kernel is compiled once per
// value type, and an operator without a GPU form throws Error before anything runs.
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "mask_write.hpp"
#include "row_offsets.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/elementwise.hpp"
#include "spgraph/gpu/transpose.hpp"
#include "spgraph/semiring.hpp"

namespace spgraph::gpu::detail {
namespace ewise_impl {

using spgraph::detail::Op;
using spgraph::detail::OpId;
using spgraph::detail::Unary;
using spgraph::detail::UnaryId;

template <class V>
constexpr const char* value_type_name() {
  if constexpr (std::is_same_v<V, float>) return "float";
  else if constexpr (std::is_same_v<V, double>) return "double";
  else if constexpr (std::is_same_v<V, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<V, std::int64_t>) return "int64";
  else if constexpr (std::is_same_v<V, bool>) return "bool";
  else return "this value type";
}

inline std::string shape(eid_t rows, eid_t cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

// The binary operators an element-wise operation takes over V; others throw, naming them.
template <class V>
void require_binary(OpId op, const char* what) {
  switch (op.op) {
    case Op::Plus: case Op::Min: case Op::Max: case Op::Lor: case Op::Any:
    case Op::Times: case Op::First: case Op::Second: case Op::Pair: case Op::Land:
      return;
    case Op::Bor: case Op::Band:
      if constexpr (std::is_integral_v<V>) return;
      break;
    default:
      break;
  }
  throw Error(std::string("gpu: ") + what + ": operator " + op.name + " over " + value_type_name<V>() +
              " is not an element-wise operator of the gpu backend (plus, min, max, lor, any, times, first, "
              "second, pair, land; bor and band over integers)");
}

// Over bool, plus and max compute lor, min and times land, as semiring.hpp's types do.
template <class V>
__device__ __forceinline__ V binary(Op op, V a, V b) {
  switch (op) {
    case Op::Plus: return monoid::Plus::add(a, b);
    case Op::Min: return monoid::Min::add(a, b);
    case Op::Max: return monoid::Max::add(a, b);
    case Op::Lor: return monoid::Lor::add(a, b);
    case Op::Any: return monoid::Any::add(a, b);
    case Op::Times: return mult::Times::apply(a, b, 0);
    case Op::First: return a;
    case Op::Second: return b;
    case Op::Pair: return V(1);
    case Op::Land: return mult::Land::apply(a, b, 0);
    case Op::Bor:
      if constexpr (std::is_integral_v<V>) return V(a | b);
      else return a;  // refused on the host
    case Op::Band:
      if constexpr (std::is_integral_v<V>) return V(a & b);
      else return a;
    default: return a;
  }
}

template <class V>
void require_unary(UnaryId op) {
  if (op.kind == Unary::Unknown)
    throw Error(std::string("gpu: apply: a user-defined unary operator over ") + value_type_name<V>() +
                " has no run-time id; use one of unary_ops.hpp (identity, abs, negate, one, inverse, scale, "
                "add_scalar, pow, to_float)");
}

// x^e as GraphBLAS's GB_pow: NaN if either is NaN, 1 if e == 0. Small integer exponents
// multiply, so integer results are exact (CUDA's pow may be 2 ulp off and truncate 9 to 8).
__device__ __forceinline__ double power(double x, double e) {
  if (isnan(x) || isnan(e)) return NAN;
  if (e == 0) return 1;
  if (e >= 1 && e <= 64 && e == trunc(e)) {
    double r = x;
    for (int k = 1; k < int(e); ++k) r *= x;
    return r;
  }
  return pow(x, e);
}

// 1/x as GraphBLAS's MINV: over bool always true; over signed integers -1, 1 and 0 invert
// exactly, 0 gives the largest value, everything else 0.
template <class V>
__device__ __forceinline__ V inverse(V x) {
  if constexpr (std::is_same_v<V, bool>) return true;
  else if constexpr (std::is_integral_v<V>) return x == V(-1) ? V(-1) : x == V(0) ? V(std::numeric_limits<V>::max()) : x == V(1) ? V(1) : V(0);
  else return V(1) / x;
}

// unary_ops.hpp's operators; Scale, AddScalar and Pow compute in double and convert to V
// (the device conversion saturates and maps NaN to 0, as GraphBLAS's casts do).
template <class V>
__device__ __forceinline__ V unary(Unary kind, double s, V x) {
  switch (kind) {
    case Unary::Abs:
      if constexpr (std::is_same_v<V, bool>) return x;
      else return x < V(0) ? V(-x) : x;
    case Unary::Negate:
      if constexpr (std::is_same_v<V, bool>) return x;  // -true is nonzero: true
      else return V(-x);
    case Unary::One: return V(1);
    case Unary::Inverse: return inverse(x);
    case Unary::Scale: return V(double(x) * s);
    case Unary::AddScalar: return V(double(x) + s);
    case Unary::Pow: return V(power(double(x), s));
    case Unary::ToFloat:
      if constexpr (std::is_floating_point_v<V>) return V(float(x));
      else return x;
    default: return x;  // Identity
  }
}

// Row i of A (+) B (is_union) or A (.*) B: returns its entry count, and with Fill writes it.
template <bool Fill, class V>
__device__ eid_t ewise_row(const device::CsrView<V>& a, const device::CsrView<V>& b, vid_t i, bool is_union, Op op,
                           vid_t* col, V* val) {
  eid_t pa = a.rowptr[i], pb = b.rowptr[i];
  const eid_t ea = a.rowptr[i + 1], eb = b.rowptr[i + 1];
  eid_t n = 0;
  while (pa < ea || pb < eb) {
    const vid_t ja = pa < ea ? a.col[pa] : INT_MAX;
    const vid_t jb = pb < eb ? b.col[pb] : INT_MAX;
    if (ja == jb) {
      if constexpr (Fill) {
        col[n] = ja;
        val[n] = binary(op, a.value(pa), b.value(pb));
      }
      ++n, ++pa, ++pb;
    } else if (ja < jb) {
      if (is_union) {
        if constexpr (Fill) col[n] = ja, val[n] = a.value(pa);
        ++n;
      } else if (pb >= eb) {
        break;  // nothing of B left to meet
      }
      ++pa;
    } else {
      if (is_union) {
        if constexpr (Fill) col[n] = jb, val[n] = b.value(pb);
        ++n;
      } else if (pa >= ea) {
        break;
      }
      ++pb;
    }
  }
  return n;
}

template <class V>
__global__ void ewise_count_kernel(device::CsrView<V> a, device::CsrView<V> b, bool is_union, eid_t* counts) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < a.nrows; i += stride)
    counts[i] = ewise_row<false>(a, b, vid_t(i), is_union, Op::Unknown, nullptr, static_cast<V*>(nullptr));
}

template <class V>
__global__ void ewise_fill_kernel(device::CsrView<V> a, device::CsrView<V> b, bool is_union, Op op,
                                  const eid_t* __restrict__ rowptr, vid_t* __restrict__ col, V* __restrict__ val) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < a.nrows; i += stride)
    ewise_row<true>(a, b, vid_t(i), is_union, op, col + rowptr[i], val + rowptr[i]);
}

template <class V>
__global__ void ewise_vector_kernel(const V* x, const V* y, eid_t n, Op op, V* z) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) z[i] = binary(op, x[i], y[i]);
}

// x may be nullptr: a pattern input, every value 1.
template <class V>
__global__ void unary_kernel(const V* x, eid_t n, Unary kind, double s, V* z) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    z[i] = unary(kind, s, x ? x[i] : V(1));
}

template <class V>
__global__ void scale_cols_kernel(device::CsrView<V> a, const V* d, V* out) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; p < a.nnz; p += stride)
    out[p] = mult::Times::apply(a.value(p), d[a.col[p]], 0);
}

// One warp per row, so a long row is spread over 32 lanes.
template <class V>
__global__ void scale_rows_kernel(device::CsrView<V> a, const V* d, V* out) {
  const eid_t warps = eid_t(gridDim.x) * blockDim.x / 32;
  const int lane = threadIdx.x % 32;
  for (eid_t i = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32; i < a.nrows; i += warps) {
    const V s = d[i];
    for (eid_t p = a.rowptr[i] + lane; p < a.rowptr[i + 1]; p += 32) out[p] = mult::Times::apply(a.value(p), s, 0);
  }
}

// A copy of A's pattern (row offsets and columns) with room for values.
template <class V>
device::DeviceCsr<V> same_pattern(const Matrix<V>& A) {
  const device::DeviceCsr<V>& a = A.csr();
  device::DeviceCsr<V> out;
  out.nrows = a.nrows;
  out.ncols = a.ncols;
  out.rowptr = device::Buffer<eid_t>(std::size_t(a.nrows) + 1);
  if (a.rowptr.size() == out.rowptr.size())
    SPGRAPH_CUDA(cudaMemcpyAsync(out.rowptr.data(), a.rowptr.data(), out.rowptr.size() * sizeof(eid_t),
                                 cudaMemcpyDeviceToDevice, 0));
  else
    out.rowptr.fill_zero();  // a matrix without offsets has no entries
  out.col = device::Buffer<vid_t>(a.nnz());
  if (a.nnz() > 0)
    SPGRAPH_CUDA(cudaMemcpyAsync(out.col.data(), a.col.data(), a.nnz() * sizeof(vid_t), cudaMemcpyDeviceToDevice, 0));
  out.val = device::Buffer<V>(a.nnz());
  return out;
}

template <class V>
void require_mask_shape(const char* what, const Matrix<V>* mask, eid_t rows, eid_t cols) {
  if (mask && (mask->nrows() != rows || mask->ncols() != cols))
    throw Error(std::string("gpu: ") + what + ": the mask is " + shape(mask->nrows(), mask->ncols()) +
                " but the result is " + shape(rows, cols));
}

template <class V>
void require_mask_length(const char* what, const Vector<V>* mask, std::size_t n) {
  if (mask && mask->size() != n)
    throw Error(std::string("gpu: ") + what + ": the mask has length " + std::to_string(mask->size()) +
                " but the result has length " + std::to_string(n));
}

}  // namespace ewise_impl

template <class V>
void ewise(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, const Matrix<V>& B, spgraph::detail::OpId op,
           bool is_union, const Descriptor& desc) {
  using namespace ewise_impl;
  const char* what = is_union ? "ewise_add" : "ewise_mult";
  require_binary<V>(op, what);
  Matrix<V> at, bt;  // the transposes the descriptor asks for
  if (desc.transpose_a) at = transpose(A);
  if (desc.transpose_b) bt = transpose(B);
  const Matrix<V>& a = desc.transpose_a ? at : A;
  const Matrix<V>& b = desc.transpose_b ? bt : B;
  if (a.nrows() != b.nrows() || a.ncols() != b.ncols())
    throw Error(std::string("gpu: ") + what + ": A is " + shape(a.nrows(), a.ncols()) + " but B is " +
                shape(b.nrows(), b.ncols()) + (desc.transpose_a || desc.transpose_b ? " (after transposing)" : "") +
                "; both must have the same shape");
  require_mask_shape(what, mask, a.nrows(), a.ncols());

  device::DeviceCsr<V> t;
  t.nrows = a.nrows();
  t.ncols = a.ncols();
  t.rowptr = device::Buffer<eid_t>(std::size_t(t.nrows) + 1);
  if (t.nrows == 0) {
    t.rowptr.fill_zero();
  } else {
    const unsigned grid = ops_grid(t.nrows);
    ewise_count_kernel<V><<<grid, kOpsThreads>>>(a.csr().view(), b.csr().view(), is_union, t.rowptr.data());
    SPGRAPH_CHECK_LAUNCH("ewise_count_kernel");
    const eid_t nnz = counts_to_offsets(t.rowptr, t.nrows);
    t.col = device::Buffer<vid_t>(nnz);
    t.val = device::Buffer<V>(nnz);
    if (nnz > 0) {
      ewise_fill_kernel<V><<<grid, kOpsThreads>>>(a.csr().view(), b.csr().view(), is_union, op.op,
                                                  t.rowptr.data(), t.col.data(), t.val.data());
      SPGRAPH_CHECK_LAUNCH("ewise_fill_kernel");
    }
  }
  write_masked(C, mask, Matrix<V>(std::move(t)), desc);
}

template <class V>
void ewise(Vector<V>& z, const Vector<V>* mask, const Vector<V>& x, const Vector<V>& y, spgraph::detail::OpId op,
           const Descriptor& desc) {
  using namespace ewise_impl;
  require_binary<V>(op, "ewise_add/ewise_mult");
  if (x.size() != y.size())
    throw Error("gpu: ewise_add/ewise_mult: x has length " + std::to_string(x.size()) + " but y has length " +
                std::to_string(y.size()) + "; both must have the same length");
  const std::size_t n = x.size();
  require_mask_length("ewise_add/ewise_mult", mask, n);
  const bool direct = !mask && !desc.mask_complement;  // every position written: z itself
  Vector<V> t;
  if (direct && z.size() != n) z.reset(n);  // z is not x or y: their length differs
  if (!direct) t.reset(n);
  if (n > 0) {
    ewise_vector_kernel<V><<<ops_grid(eid_t(n)), kOpsThreads>>>(x.data(), y.data(), eid_t(n), op.op,
                                                               direct ? z.data() : t.data());
    SPGRAPH_CHECK_LAUNCH("ewise_vector_kernel");
  }
  if (!direct) write_masked(z, mask, t, spgraph::detail::absent_value<V>(op.op), desc);
}

template <class V>
void apply(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, spgraph::detail::UnaryId op,
           const Descriptor& desc) {
  using namespace ewise_impl;
  require_unary<V>(op);
  Matrix<V> at;
  if (desc.transpose_a) at = transpose(A);
  const Matrix<V>& a = desc.transpose_a ? at : A;
  require_mask_shape("apply", mask, a.nrows(), a.ncols());
  device::DeviceCsr<V> t = same_pattern(a);
  if (a.nnz() > 0) {
    unary_kernel<V><<<ops_grid(a.nnz()), kOpsThreads>>>(a.is_pattern() ? nullptr : a.csr().val.data(), a.nnz(),
                                                        op.kind, op.scalar, t.val.data());
    SPGRAPH_CHECK_LAUNCH("unary_kernel");
  }
  write_masked(C, mask, Matrix<V>(std::move(t)), desc);
}

template <class V>
void apply(Vector<V>& z, const Vector<V>* mask, const Vector<V>& x, spgraph::detail::UnaryId op,
           const Descriptor& desc) {
  using namespace ewise_impl;
  require_unary<V>(op);
  const std::size_t n = x.size();
  require_mask_length("apply", mask, n);
  const bool direct = !mask && !desc.mask_complement;
  Vector<V> t;
  if (direct && z.size() != n) z.reset(n);
  if (!direct) t.reset(n);
  if (n > 0) {
    unary_kernel<V><<<ops_grid(eid_t(n)), kOpsThreads>>>(x.data(), eid_t(n), op.kind, op.scalar,
                                                         direct ? z.data() : t.data());
    SPGRAPH_CHECK_LAUNCH("unary_kernel");
  }
  if (!direct) write_masked(z, mask, t, V(0), desc);
}

template <class V>
void scale(Matrix<V>& C, const Matrix<V>& A, const Vector<V>& d, bool rows) {
  using namespace ewise_impl;
  const eid_t want = rows ? A.nrows() : A.ncols();
  if (eid_t(d.size()) != want)
    throw Error(std::string("gpu: ") + (rows ? "scale_rows" : "scale_cols") + ": d has length " +
                std::to_string(d.size()) + " but A is " + shape(A.nrows(), A.ncols()) + "; d needs one value per " +
                (rows ? "row" : "column"));
  device::DeviceCsr<V> t = same_pattern(A);
  if (A.nnz() > 0) {
    if (rows) scale_rows_kernel<V><<<ops_grid(eid_t(A.nrows()) * 32), kOpsThreads>>>(A.csr().view(), d.data(), t.val.data());
    else scale_cols_kernel<V><<<ops_grid(A.nnz()), kOpsThreads>>>(A.csr().view(), d.data(), t.val.data());
    SPGRAPH_CHECK_LAUNCH(rows ? "scale_rows_kernel" : "scale_cols_kernel");
  }
  C = Matrix<V>(std::move(t));
}

}  // namespace spgraph::gpu::detail

// The definitions above for one value type; expanded inside namespace spgraph::gpu::detail
// by elementwise_<type>.cu.
#define SPGRAPH_INSTANTIATE_ELEMENTWISE(V)                                                                         \
  template void ewise<V>(Matrix<V>&, const Matrix<V>*, const Matrix<V>&, const Matrix<V>&, spgraph::detail::OpId, \
                         bool, const Descriptor&);                                                                \
  template void ewise<V>(Vector<V>&, const Vector<V>*, const Vector<V>&, const Vector<V>&, spgraph::detail::OpId, \
                         const Descriptor&);                                                                      \
  template void apply<V>(Matrix<V>&, const Matrix<V>*, const Matrix<V>&, spgraph::detail::UnaryId,                \
                         const Descriptor&);                                                                      \
  template void apply<V>(Vector<V>&, const Vector<V>*, const Vector<V>&, spgraph::detail::UnaryId,                \
                         const Descriptor&);                                                                      \
  template void scale<V>(Matrix<V>&, const Matrix<V>&, const Vector<V>&, bool);
