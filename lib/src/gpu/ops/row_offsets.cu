#include "row_offsets.hpp"

#include <cub/device/device_scan.cuh>

#include "device/cub_call.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"

namespace spgraph::gpu::detail {

eid_t counts_to_offsets(device::Buffer<eid_t>& counts, vid_t nrows, cudaStream_t stream) {
  const eid_t n = eid_t(nrows) + 1;
  if (eid_t(counts.size()) < n) throw Error("gpu: counts_to_offsets: the counts buffer is shorter than nrows + 1");
  eid_t* data = counts.data();
  // The last slot is only read by the scan, never summed into anything; zero it so the read is
  // of initialised memory.
  SPGRAPH_CUDA(cudaMemsetAsync(data + nrows, 0, sizeof(eid_t), stream));
  device::run_cub(
      [&](void* temp, std::size_t& bytes) { return cub::DeviceScan::ExclusiveSum(temp, bytes, data, data, n, stream); },
      stream);
  return device::read_value(data + nrows, stream);
}

}  // namespace spgraph::gpu::detail
