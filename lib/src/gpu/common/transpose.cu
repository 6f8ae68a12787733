// Device transpose: a stable CUB radix sort of the entries by column. A's entries are in
// (row, column) order, so sorting them stably by column leaves each column's entries in row
// order, i.e. the rows of A' come out with sorted columns. Row offsets of A' are the lower
// bounds of 0..ncols in the sorted columns.
#include "spgraph/gpu/transpose.hpp"

#include <cub/device/device_radix_sort.cuh>

#include <bit>
#include <cstdint>
#include <limits>

#include "device/cub_call.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "gpu/common/row_ids.hpp"

namespace spgraph::gpu {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(eid_t n) { return unsigned((n + kThreads - 1) / kThreads); }

template <class P>
__global__ void iota_kernel(P* __restrict__ out, eid_t n) {
  const eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = P(i);
}

template <class V, class P>
__global__ void gather_kernel(const P* __restrict__ perm, const vid_t* __restrict__ rows, const V* __restrict__ val,
                              eid_t nnz, vid_t* __restrict__ out_col, V* __restrict__ out_val) {
  const eid_t q = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q >= nnz) return;
  const P p = perm[q];
  out_col[q] = rows[p];
  out_val[q] = val[p];
}

// rowptr[c] = number of sorted columns below c, for c in [0, ncols].
__global__ void column_starts_kernel(const unsigned* __restrict__ sorted_cols, eid_t nnz, vid_t ncols,
                                     eid_t* __restrict__ rowptr) {
  const eid_t c = eid_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c > ncols) return;
  eid_t lo = 0, hi = nnz;
  while (lo < hi) {
    const eid_t mid = (lo + hi) >> 1;
    if (eid_t(sorted_cols[mid]) < c) lo = mid + 1;
    else hi = mid;
  }
  rowptr[c] = lo;
}

template <class Val>
void sort_pairs(const unsigned* keys_in, unsigned* keys_out, const Val* vals_in, Val* vals_out, eid_t n, int end_bit,
                cudaStream_t stream) {
  device::run_cub(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, vals_in, vals_out, n, 0, end_bit,
                                               stream);
      },
      stream);
}

// Values travel as a permutation (4 bytes per entry while nnz fits 32 bits) gathered once.
template <class P, class V>
void sort_valued(const device::DeviceCsr<V>& a, const vid_t* rows, unsigned* sorted_cols, int end_bit,
                 device::DeviceCsr<V>& t, cudaStream_t stream) {
  const eid_t nnz = a.nnz();
  device::Buffer<P> identity(nnz, stream), perm(nnz, stream);
  iota_kernel<<<blocks_for(nnz), kThreads, 0, stream>>>(identity.data(), nnz);
  SPGRAPH_CHECK_LAUNCH("iota_kernel");
  sort_pairs(reinterpret_cast<const unsigned*>(a.col.data()), sorted_cols, identity.data(), perm.data(), nnz, end_bit,
             stream);
  gather_kernel<<<blocks_for(nnz), kThreads, 0, stream>>>(perm.data(), rows, a.val.data(), nnz, t.col.data(),
                                                          t.val.data());
  SPGRAPH_CHECK_LAUNCH("gather_kernel");
}

}  // namespace

template <class V>
Matrix<V> transpose(const Matrix<V>& matrix, cudaStream_t stream) {
  const device::DeviceCsr<V>& a = matrix.csr();
  const eid_t nnz = a.nnz();
  device::DeviceCsr<V> t;
  t.nrows = a.ncols;
  t.ncols = a.nrows;
  t.rowptr = device::Buffer<eid_t>(static_cast<std::size_t>(a.ncols) + 1, stream);
  t.col = device::Buffer<vid_t>(nnz, stream);
  t.val = device::Buffer<V>(a.is_pattern() ? 0 : nnz, stream);
  if (nnz == 0) {
    t.rowptr.fill_zero();
    return Matrix<V>(std::move(t));
  }

  device::Buffer<vid_t> rows(nnz, stream);
  expand_row_ids(a.rowptr.data(), a.nrows, nnz, rows.data(), stream);
  device::Buffer<unsigned> sorted_cols(nnz, stream);
  // Only the bits a column id can use (a.ncols >= 1 here since there are entries).
  const int end_bit = a.ncols > 1 ? int(std::bit_width(unsigned(a.ncols - 1))) : 1;
  if (a.is_pattern()) {
    // Column ids are non-negative, so their unsigned order is their order.
    sort_pairs(reinterpret_cast<const unsigned*>(a.col.data()), sorted_cols.data(),
               reinterpret_cast<const unsigned*>(rows.data()), reinterpret_cast<unsigned*>(t.col.data()), nnz, end_bit,
               stream);
  } else if (nnz <= eid_t(std::numeric_limits<std::uint32_t>::max())) {
    sort_valued<std::uint32_t>(a, rows.data(), sorted_cols.data(), end_bit, t, stream);
  } else {
    sort_valued<std::uint64_t>(a, rows.data(), sorted_cols.data(), end_bit, t, stream);
  }
  column_starts_kernel<<<blocks_for(eid_t(a.ncols) + 1), kThreads, 0, stream>>>(sorted_cols.data(), nnz, a.ncols,
                                                                              t.rowptr.data());
  SPGRAPH_CHECK_LAUNCH("column_starts_kernel");
  return Matrix<V>(std::move(t));
}

template Matrix<float> transpose(const Matrix<float>&, cudaStream_t);
template Matrix<double> transpose(const Matrix<double>&, cudaStream_t);
template Matrix<std::int32_t> transpose(const Matrix<std::int32_t>&, cudaStream_t);
template Matrix<std::int64_t> transpose(const Matrix<std::int64_t>&, cudaStream_t);
template Matrix<bool> transpose(const Matrix<bool>&, cudaStream_t);
template Matrix<std::uint64_t> transpose(const Matrix<std::uint64_t>&, cudaStream_t);  // vxm on words

}  // namespace spgraph::gpu
