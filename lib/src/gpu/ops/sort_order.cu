// sort_order (spgraph/gpu/assign.hpp): CUB's radix sort of (key, position) pairs, which is
// stable, so equal keys keep their positions in ascending order in both directions.
#include <cub/device/device_radix_sort.cuh>

#include "device/cub_call.hpp"
#include "row_offsets.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/assign.hpp"

namespace spgraph::gpu {
namespace {

__global__ void iota_kernel(vid_t* __restrict__ out, eid_t n) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t i = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = vid_t(i);
}

}  // namespace

void sort_order(Vector<vid_t>& p, const Vector<vid_t>& keys, bool ascending) {
  const eid_t n = eid_t(keys.size());
  Vector<vid_t> positions(n), sorted_keys(n), order(n);
  if (n > 0) {
    iota_kernel<<<detail::ops_grid(n), detail::kOpsThreads>>>(positions.data(), n);
    SPGRAPH_CHECK_LAUNCH("iota_kernel");
    device::run_cub(
        [&](void* temp, std::size_t& bytes) {
          return ascending ? cub::DeviceRadixSort::SortPairs(temp, bytes, keys.data(), sorted_keys.data(),
                                                             positions.data(), order.data(), n)
                           : cub::DeviceRadixSort::SortPairsDescending(temp, bytes, keys.data(), sorted_keys.data(),
                                                                       positions.data(), order.data(), n);
        },
        0);
  }
  p = std::move(order);
}

}  // namespace spgraph::gpu
