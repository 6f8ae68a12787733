// Sorting rows into the hash SpGEMM's groups, and the numeric pass's group of each row.
#include <vector>

#include "spgraph/device/cuda_check.hpp"
#include "gpu/spgemm/device_ops.cuh"
#include "gpu/spgemm/internal.hpp"

namespace spgraph::gpu::spgemm_detail {
namespace {

constexpr int kThreads = 256;
constexpr int kRowsPerThread = 4;
constexpr int kTile = kThreads * kRowsPerThread;

struct GroupOffsets {
  eid_t at[kGroups];
};

__global__ void count_groups_kernel(const std::uint8_t* group, vid_t n, unsigned long long* counts) {
  __shared__ unsigned local[kGroups];
  if (threadIdx.x < kGroups) local[threadIdx.x] = 0;
  __syncthreads();
  const eid_t base = eid_t(blockIdx.x) * kTile;
  for (int r = 0; r < kRowsPerThread; ++r) {
    const eid_t i = base + r * kThreads + threadIdx.x;
    if (i < n && group[i] < kGroups) atomicAdd(&local[group[i]], 1u);
  }
  __syncthreads();
  if (threadIdx.x < kGroups && local[threadIdx.x]) atomicAdd(&counts[threadIdx.x], local[threadIdx.x]);
}

// Each block reserves one range per group with a single global atomic on the group's cursor
// (counting from 0), then places its rows after the group's offset.
__global__ void scatter_groups_kernel(const std::uint8_t* group, vid_t first, vid_t n, GroupOffsets offsets,
                                      unsigned long long* cursor, vid_t* rows) {
  __shared__ unsigned local[kGroups];
  __shared__ unsigned long long base[kGroups];
  if (threadIdx.x < kGroups) local[threadIdx.x] = 0;
  __syncthreads();
  const eid_t tile = eid_t(blockIdx.x) * kTile;
  unsigned rank[kRowsPerThread];
  for (int r = 0; r < kRowsPerThread; ++r) {
    const eid_t i = tile + r * kThreads + threadIdx.x;
    if (i < n && group[i] < kGroups) rank[r] = atomicAdd(&local[group[i]], 1u);
  }
  __syncthreads();
  if (threadIdx.x < kGroups && local[threadIdx.x])
    base[threadIdx.x] = offsets.at[threadIdx.x] + atomicAdd(&cursor[threadIdx.x], local[threadIdx.x]);
  __syncthreads();
  for (int r = 0; r < kRowsPerThread; ++r) {
    const eid_t i = tile + r * kThreads + threadIdx.x;
    if (i < n && group[i] < kGroups) rows[base[group[i]] + rank[r]] = first + static_cast<vid_t>(i);
  }
}

__global__ void numeric_groups_kernel(const eid_t* products, const vid_t* min_col, const vid_t* max_col,
                                      const eid_t* rowptr, vid_t n, bool force_global, std::size_t value_bytes,
                                      std::uint8_t* group, HashCounters* counters) {
  __shared__ unsigned local[kGroups];
  __shared__ unsigned long long largest, total;
  if (threadIdx.x < kGroups) local[threadIdx.x] = 0;
  if (threadIdx.x == 0) largest = total = 0;
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) counters->nnz = static_cast<unsigned long long>(rowptr[n]);
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const eid_t nnz = rowptr[i + 1] - rowptr[i];
    const eid_t span = eid_t(max_col[i]) - min_col[i] + 1;
    const int g = numeric_group(products[i], nnz, span, force_global);
    group[i] = static_cast<std::uint8_t>(g);
    if (g >= kGroups) continue;
    atomicAdd(&local[g], 1u);
    if (g == kGlobalGroup) {
      const unsigned long long bytes =
          global_row_bytes(nnz, span, global_row_dense(nnz, span, force_global), value_bytes);
      atomicMax(&largest, bytes);
      atomicAdd(&total, bytes);
    }
  }
  __syncthreads();
  if (threadIdx.x < kGroups && local[threadIdx.x])
    atomicAdd(&counters->numeric_rows[threadIdx.x], static_cast<unsigned long long>(local[threadIdx.x]));
  if (threadIdx.x == 0 && total) {
    atomicMax(&counters->global_largest, largest);
    atomicAdd(&counters->global_total, total);
  }
}

__global__ void row_shapes_kernel(const vid_t* rows, eid_t count, const eid_t* rowptr, const vid_t* min_col,
                                  const vid_t* max_col, RowShape* shapes) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const vid_t row = rows[i];
    shapes[i] = {rowptr[row + 1] - rowptr[row], eid_t(max_col[row]) - min_col[row] + 1, row};
  }
}

}  // namespace

std::vector<RowShape> row_shapes(const vid_t* rows, eid_t count, const eid_t* rowptr, const RowStats& stats,
                                 cudaStream_t stream) {
  if (count == 0) return {};
  device::Buffer<RowShape> shapes(count, stream);
  row_shapes_kernel<<<grid_for(count, 256), 256, 0, stream>>>(rows, count, rowptr, stats.min_col.data(),
                                                              stats.max_col.data(), shapes.data());
  SPGRAPH_CHECK_LAUNCH("row_shapes_kernel");
  return shapes.download();
}

Buckets bucket_counted_rows(const std::uint8_t* group_of_row, vid_t first, vid_t last,
                            const unsigned long long* counts, unsigned long long* cursors, cudaStream_t stream) {
  Buckets b;
  const vid_t n = last - first;
  if (n <= 0) return b;
  GroupOffsets offsets{};
  for (int g = 0; g < kGroups; ++g) {
    offsets.at[g] = b.offsets[g];
    b.offsets[g + 1] = b.offsets[g] + static_cast<eid_t>(counts[g]);
  }
  if (b.offsets[kGroups] == 0) return b;
  b.rows = device::Buffer<vid_t>(static_cast<std::size_t>(b.offsets[kGroups]), stream);
  const unsigned blocks = static_cast<unsigned>((eid_t(n) + kTile - 1) / kTile);
  scatter_groups_kernel<<<blocks, kThreads, 0, stream>>>(group_of_row, first, n, offsets, cursors, b.rows.data());
  SPGRAPH_CHECK_LAUNCH("scatter_groups_kernel");
  return b;
}

Buckets bucket_rows(const std::uint8_t* group_of_row, vid_t first, vid_t last, cudaStream_t stream) {
  const vid_t n = last - first;
  if (n <= 0) return {};
  device::Buffer<unsigned long long> counts(2 * kGroups, stream);  // counts, then the scatter's cursors
  counts.fill_zero();
  const unsigned blocks = static_cast<unsigned>((eid_t(n) + kTile - 1) / kTile);
  count_groups_kernel<<<blocks, kThreads, 0, stream>>>(group_of_row, n, counts.data());
  SPGRAPH_CHECK_LAUNCH("count_groups_kernel");
  const std::vector<unsigned long long> host = counts.download();
  return bucket_counted_rows(group_of_row, first, last, host.data(), counts.data() + kGroups, stream);
}

void numeric_groups(const RowStats& stats, const eid_t* rowptr, vid_t n, bool force_global, std::size_t value_bytes,
                    std::uint8_t* group, HashCounters* counters, cudaStream_t stream) {
  if (n <= 0) return;
  constexpr int threads = 256;
  numeric_groups_kernel<<<grid_for(n, threads), threads, 0, stream>>>(stats.products.data(), stats.min_col.data(),
                                                                      stats.max_col.data(), rowptr, n, force_global,
                                                                      value_bytes, group, counters);
  SPGRAPH_CHECK_LAUNCH("numeric_groups_kernel");
}

}  // namespace spgraph::gpu::spgemm_detail
