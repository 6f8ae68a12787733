// CUB device-wide algorithms on 64-bit counts, each with its scratch from the pooled allocator.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/gpu/spgemm/internal.hpp"

namespace spgraph::gpu::spgemm_detail {

void exclusive_scan_inplace(eid_t* data, eid_t n, cudaStream_t stream) {
  if (n <= 0) return;
  std::size_t bytes = 0;
  SPGRAPH_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, data, n, stream));
  device::Buffer<unsigned char> scratch(bytes, stream);
  SPGRAPH_CUDA(cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, data, n, stream));
}

eid_t sum(const eid_t* data, eid_t n, cudaStream_t stream) {
  if (n <= 0) return 0;
  device::Buffer<eid_t> out(1, stream);
  std::size_t bytes = 0;
  SPGRAPH_CUDA(cub::DeviceReduce::Sum(nullptr, bytes, data, out.data(), n, stream));
  device::Buffer<unsigned char> scratch(bytes, stream);
  SPGRAPH_CUDA(cub::DeviceReduce::Sum(scratch.data(), bytes, data, out.data(), n, stream));
  return read_value(out.data(), stream);
}

void segmented_sort_pairs(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in, unsigned* vals_out,
                          eid_t items, eid_t segments, const eid_t* begin, const eid_t* end, cudaStream_t stream) {
  if (items <= 0 || segments <= 0) return;
  std::size_t bytes = 0;
  SPGRAPH_CUDA(cub::DeviceSegmentedSort::SortPairs(nullptr, bytes, keys_in, keys_out, vals_in, vals_out, items,
                                                   segments, begin, end, stream));
  device::Buffer<unsigned char> scratch(bytes, stream);
  SPGRAPH_CUDA(cub::DeviceSegmentedSort::SortPairs(scratch.data(), bytes, keys_in, keys_out, vals_in, vals_out,
                                                   items, segments, begin, end, stream));
}

}  // namespace spgraph::gpu::spgemm_detail
