// sort_rows (sort_rows.hpp): CUB's segmented sort, which sorts short rows a few threads at a
// time in one pass, for all but the rows longer than kLongRow, to which it would give a thread
// block and a full 32-bit radix sort each (slow: docs/performance/tricount.md); those take one
// radix sort of (row among them, column) keys together.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <bit>
#include <cstdint>

#include "device/cub_call.hpp"
#include "gpu/common/row_ids.hpp"
#include "row_offsets.hpp"
#include "sort_rows.hpp"
#include "spgraph/device/cuda_check.hpp"

namespace spgraph::gpu::detail {
namespace {

// Rows longer than this are sorted apart from the others: the longest row CUB's segmented sort
// gives to a group of threads (its medium segments on sm_90).
constexpr eid_t kLongRow = 112;

template <class Pos>
__global__ void iota_kernel(Pos* __restrict__ out, eid_t n) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = Pos(i);
}

// ends[i] = where the segmented sort stops in row i: the row's end, or its start for a long
// row (an empty segment: long rows are sorted by sort_long_rows); long rows are listed (in any
// order) in long_rows, counted in *long_count.
__global__ void split_long_rows_kernel(const eid_t* __restrict__ rowptr, vid_t n, eid_t* __restrict__ ends,
                                       vid_t* __restrict__ long_rows, vid_t* long_count) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const bool is_long = rowptr[i + 1] - rowptr[i] > kLongRow;
    ends[i] = is_long ? rowptr[i] : rowptr[i + 1];
    if (is_long) long_rows[atomicAdd(long_count, vid_t(1))] = vid_t(i);
  }
}

__global__ void long_row_lengths_kernel(const eid_t* __restrict__ rowptr, const vid_t* __restrict__ long_rows, vid_t h,
                                        eid_t* __restrict__ lengths) {
  for (vid_t r = blockIdx.x * blockDim.x + threadIdx.x; r < h; r += gridDim.x * blockDim.x)
    lengths[r] = rowptr[long_rows[r] + 1] - rowptr[long_rows[r]];
}

// Entry t of the long rows' concatenation lies in long row which[t]; its key is (that row's
// number among them, its column), its payload its position in col.
template <class Pos>
__global__ void long_row_keys_kernel(const eid_t* __restrict__ rowptr, const vid_t* __restrict__ col,
                                     const vid_t* __restrict__ long_rows, const eid_t* __restrict__ offsets,
                                     const vid_t* __restrict__ which, eid_t total, int col_bits,
                                     std::uint64_t* __restrict__ keys, Pos* __restrict__ positions) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t t = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total; t += stride) {
    const vid_t r = which[t];
    const eid_t src = rowptr[long_rows[r]] + (t - offsets[r]);
    keys[t] = (std::uint64_t(r) << col_bits) | std::uint64_t(col[src]);
    if (positions) positions[t] = Pos(src);
  }
}

template <class Pos>
__global__ void long_row_scatter_kernel(const eid_t* __restrict__ rowptr, const std::uint64_t* __restrict__ keys,
                                        const Pos* __restrict__ positions, const vid_t* __restrict__ long_rows,
                                        const eid_t* __restrict__ offsets, eid_t total, int col_bits,
                                        vid_t* __restrict__ col, Pos* __restrict__ order) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t t = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; t < total; t += stride) {
    const vid_t r = vid_t(keys[t] >> col_bits);
    const eid_t dst = rowptr[long_rows[r]] + (t - offsets[r]);
    col[dst] = vid_t(keys[t] & ((std::uint64_t(1) << col_bits) - 1));
    if (order) order[dst] = positions[t];
  }
}

// Sorts the h long rows into col_out (and order, where given): one radix sort over their entries.
template <class Pos>
void sort_long_rows(const eid_t* rowptr, vid_t ncols, const vid_t* col, const device::Buffer<vid_t>& long_rows,
                    vid_t h, vid_t* col_out, Pos* order) {
  device::Buffer<eid_t> offsets(std::size_t(h) + 1);
  long_row_lengths_kernel<<<ops_grid(h), kOpsThreads>>>(rowptr, long_rows.data(), h, offsets.data());
  SPGRAPH_CHECK_LAUNCH("long_row_lengths_kernel");
  const eid_t total = counts_to_offsets(offsets, h);
  const int col_bits = ncols > 1 ? int(std::bit_width(unsigned(ncols - 1))) : 1;
  const int end_bit = col_bits + int(std::bit_width(unsigned(h)));
  device::Buffer<std::uint64_t> keys(total), sorted_keys(total);
  device::Buffer<Pos> positions(order ? total : 0), sorted_positions(order ? total : 0);
  device::Buffer<vid_t> which(total);
  expand_row_ids(offsets.data(), h, total, which.data());
  long_row_keys_kernel<Pos><<<ops_grid(total), kOpsThreads>>>(rowptr, col, long_rows.data(), offsets.data(), which.data(),
                                                         total, col_bits, keys.data(),
                                                         order ? positions.data() : nullptr);
  SPGRAPH_CHECK_LAUNCH("long_row_keys_kernel");
  device::run_cub(
      [&](void* temp, std::size_t& bytes) {
        return order ? cub::DeviceRadixSort::SortPairs(temp, bytes, keys.data(), sorted_keys.data(), positions.data(),
                                                       sorted_positions.data(), total, 0, end_bit, 0)
                     : cub::DeviceRadixSort::SortKeys(temp, bytes, keys.data(), sorted_keys.data(), total, 0, end_bit,
                                                      0);
      },
      0);
  long_row_scatter_kernel<Pos><<<ops_grid(total), kOpsThreads>>>(rowptr, sorted_keys.data(),
                                                            order ? sorted_positions.data() : nullptr,
                                                            long_rows.data(), offsets.data(), total, col_bits,
                                                            col_out, order);
  SPGRAPH_CHECK_LAUNCH("long_row_scatter_kernel");
}

}  // namespace

template <class Pos>
void sort_rows(const eid_t* rowptr, vid_t nrows, vid_t ncols, eid_t nnz, const vid_t* col, vid_t* col_out,
               Pos* order) {
  if (nnz == 0) return;
  device::Buffer<eid_t> ends(nrows);
  device::Buffer<vid_t> long_rows(std::size_t(nnz / kLongRow) + 1), long_count(1);
  long_count.fill_zero();
  split_long_rows_kernel<<<ops_grid(nrows), kOpsThreads>>>(rowptr, nrows, ends.data(), long_rows.data(),
                                                           long_count.data());
  SPGRAPH_CHECK_LAUNCH("split_long_rows_kernel");
  device::Buffer<Pos> positions(order ? nnz : 0);
  if (order) {
    iota_kernel<Pos><<<ops_grid(nnz), kOpsThreads>>>(positions.data(), nnz);
    SPGRAPH_CHECK_LAUNCH("iota_kernel");
  }
  device::run_cub(
      [&](void* temp, std::size_t& bytes) {
        return order ? cub::DeviceSegmentedSort::SortPairs(temp, bytes, col, col_out, positions.data(), order, nnz,
                                                           nrows, rowptr, ends.data(), 0)
                     : cub::DeviceSegmentedSort::SortKeys(temp, bytes, col, col_out, nnz, nrows, rowptr, ends.data(),
                                                          0);
      },
      0);
  const vid_t h = long_count.download()[0];
  if (h > 0) sort_long_rows(rowptr, ncols, col, long_rows, h, col_out, order);
}

template void sort_rows<std::uint32_t>(const eid_t*, vid_t, vid_t, eid_t, const vid_t*, vid_t*, std::uint32_t*);
template void sort_rows<eid_t>(const eid_t*, vid_t, vid_t, eid_t, const vid_t*, vid_t*, eid_t*);

}  // namespace spgraph::gpu::detail
