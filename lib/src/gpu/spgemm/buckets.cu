// Sorting rows into the hash SpGEMM's groups, and the numeric pass's group of each row.
#include <vector>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/gpu/spgemm/device_ops.cuh"
#include "spgraph/gpu/spgemm/internal.hpp"

namespace spgraph::gpu::spgemm_detail {
namespace {

constexpr int kThreads = 256;
constexpr int kRowsPerThread = 4;
constexpr int kTile = kThreads * kRowsPerThread;

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

// Each block reserves one range per group with a single global atomic, then places its rows.
__global__ void scatter_groups_kernel(const std::uint8_t* group, vid_t first, vid_t n, unsigned long long* cursor,
                                      vid_t* rows) {
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
  if (threadIdx.x < kGroups && local[threadIdx.x]) base[threadIdx.x] = atomicAdd(&cursor[threadIdx.x], local[threadIdx.x]);
  __syncthreads();
  for (int r = 0; r < kRowsPerThread; ++r) {
    const eid_t i = tile + r * kThreads + threadIdx.x;
    if (i < n && group[i] < kGroups) rows[base[group[i]] + rank[r]] = first + static_cast<vid_t>(i);
  }
}

__global__ void numeric_groups_kernel(const eid_t* products, const eid_t* rowptr, vid_t first, vid_t last,
                                      bool force_global, std::uint8_t* group) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = first + eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < last; i += stride)
    group[i - first] = static_cast<std::uint8_t>(numeric_group(products[i], rowptr[i + 1] - rowptr[i], force_global));
}

__global__ void row_sizes_kernel(const vid_t* rows, eid_t count, const eid_t* rowptr, eid_t* sizes) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
    sizes[i] = rowptr[rows[i] + 1] - rowptr[rows[i]];
}

__global__ void global_work_kernel(const eid_t* products, const eid_t* rowptr, vid_t n, bool force_global,
                                   std::size_t value_bytes, unsigned long long* largest, unsigned long long* total) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  unsigned long long mine_max = 0, mine_sum = 0;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const eid_t nnz = rowptr[i + 1] - rowptr[i];
    if (numeric_group(products[i], nnz, force_global) != kGlobalGroup) continue;
    const unsigned long long bytes = global_row_bytes(nnz, value_bytes);
    mine_max = max(mine_max, bytes);
    mine_sum += bytes;
  }
  if (mine_sum) {
    atomicMax(largest, mine_max);
    atomicAdd(total, mine_sum);
  }
}

}  // namespace

GlobalWork global_work(const RowStats& stats, const eid_t* rowptr, vid_t n, bool force_global,
                       std::size_t value_bytes, cudaStream_t stream) {
  if (n == 0) return {};
  device::Buffer<unsigned long long> out(2, stream);
  out.fill_zero();
  global_work_kernel<<<grid_for(n, 256), 256, 0, stream>>>(stats.products.data(), rowptr, n, force_global,
                                                           value_bytes, out.data(), out.data() + 1);
  SPGRAPH_CHECK_LAUNCH("global_work_kernel");
  const std::vector<unsigned long long> host = out.download();
  return {host[0], host[1]};
}

std::vector<eid_t> row_sizes(const vid_t* rows, eid_t count, const eid_t* rowptr, cudaStream_t stream) {
  if (count == 0) return {};
  device::Buffer<eid_t> sizes(count, stream);
  row_sizes_kernel<<<grid_for(count, 256), 256, 0, stream>>>(rows, count, rowptr, sizes.data());
  SPGRAPH_CHECK_LAUNCH("row_sizes_kernel");
  return sizes.download();
}

Buckets bucket_rows(const std::uint8_t* group_of_row, vid_t first, vid_t last, cudaStream_t stream) {
  Buckets b;
  const vid_t n = last - first;
  if (n <= 0) return b;
  const unsigned blocks = static_cast<unsigned>((eid_t(n) + kTile - 1) / kTile);
  device::Buffer<unsigned long long> counts(kGroups, stream);
  counts.fill_zero();
  count_groups_kernel<<<blocks, kThreads, 0, stream>>>(group_of_row, n, counts.data());
  SPGRAPH_CHECK_LAUNCH("count_groups_kernel");
  std::vector<unsigned long long> host = counts.download();
  for (int g = 0; g < kGroups; ++g) b.offsets[g + 1] = b.offsets[g] + static_cast<eid_t>(host[g]);
  std::vector<unsigned long long> start(b.offsets.begin(), b.offsets.end() - 1);
  counts.upload(start);  // now the cursors where each group's next rows go
  b.rows = device::Buffer<vid_t>(static_cast<std::size_t>(b.offsets[kGroups]), stream);
  scatter_groups_kernel<<<blocks, kThreads, 0, stream>>>(group_of_row, first, n, counts.data(), b.rows.data());
  SPGRAPH_CHECK_LAUNCH("scatter_groups_kernel");
  return b;
}

void numeric_groups(const RowStats& stats, const eid_t* rowptr, vid_t first, vid_t last, bool force_global,
                    std::uint8_t* group, cudaStream_t stream) {
  if (last <= first) return;
  constexpr int threads = 256;
  numeric_groups_kernel<<<grid_for(last - first, threads), threads, 0, stream>>>(
      stats.products.data(), rowptr, first, last, force_global, group);
  SPGRAPH_CHECK_LAUNCH("numeric_groups_kernel");
}

}  // namespace spgraph::gpu::spgemm_detail
