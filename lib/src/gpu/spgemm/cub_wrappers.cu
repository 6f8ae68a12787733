// CUB device-wide algorithms on 64-bit counts.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "device/cub_call.hpp"
#include "gpu/spgemm/internal.hpp"

namespace spgraph::gpu::spgemm_detail {

void exclusive_scan(const eid_t* in, eid_t* out, eid_t n, cudaStream_t stream) {
  if (n <= 0) return;
  device::run_cub(
      [&](void* temp, std::size_t& bytes) { return cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream); },
      stream);
}

eid_t sum(const eid_t* data, eid_t n, cudaStream_t stream) {
  if (n <= 0) return 0;
  device::Buffer<eid_t> out(1, stream);
  device::run_cub(
      [&](void* temp, std::size_t& bytes) { return cub::DeviceReduce::Sum(temp, bytes, data, out.data(), n, stream); },
      stream);
  return read_value(out.data(), stream);
}

void segmented_sort_pairs(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in, unsigned* vals_out,
                          eid_t items, eid_t segments, const eid_t* begin, const eid_t* end, cudaStream_t stream) {
  if (items <= 0 || segments <= 0) return;
  device::run_cub(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceSegmentedSort::SortPairs(temp, bytes, keys_in, keys_out, vals_in, vals_out, items, segments,
                                                   begin, end, stream);
      },
      stream);
}

}  // namespace spgraph::gpu::spgemm_detail
