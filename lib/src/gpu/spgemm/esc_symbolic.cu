// ESC SpGEMM, symbolic pass: expand the products' (row, column) keys of a row slice, sort them,
// count the distinct keys of each row.
#include <cub/device/device_radix_sort.cuh>

#include "device/cub_call.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "gpu/spgemm/device_ops.cuh"
#include "gpu/spgemm/esc_keys.cuh"
#include "gpu/spgemm/internal.hpp"
#include "gpu/spgemm/product_walk.cuh"

namespace spgraph::gpu::spgemm_detail {
namespace {

__global__ void esc_expand_keys_kernel(Structure a, Structure b, const eid_t* ap, vid_t first, vid_t last,
                                       eid_t first_product, eid_t count, EscKeyLayout layout, std::uint64_t* keys) {
  for_each_product<kEscItemsPerThread>(a, b, ap, first, last, first_product, count,
                                       [&](eid_t t, const ProductWalk& w) {
                                         keys[t] = layout.key(w.row - first, b.col[w.q]);
                                       });
}

// Whole warps step together (base is warp-uniform), so the warp-wide intrinsics see all lanes.
__global__ void esc_count_kernel(const std::uint64_t* keys, eid_t count, EscKeyLayout layout, vid_t first,
                                 eid_t* row_nnz) {
  const int lane = threadIdx.x % 32;
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t base = eid_t(blockIdx.x) * blockDim.x + (threadIdx.x - lane); base < count; base += stride) {
    const eid_t t = base + lane;
    const bool valid = t < count;
    const bool head = valid && (t == 0 || keys[t] != keys[t - 1]);
    const vid_t row = valid ? layout.row(keys[t]) : -1;
    const unsigned peers = __match_any_sync(kFullMask, row);
    const unsigned heads = __ballot_sync(kFullMask, head) & peers;
    if (valid && heads && lane == __ffs(peers) - 1)
      atomicAdd(reinterpret_cast<unsigned long long*>(row_nnz + first + row), static_cast<unsigned long long>(__popc(heads)));
  }
}

}  // namespace

void esc_symbolic(const Structure& a, const Structure& b, const eid_t* entry_offsets, vid_t first, vid_t last,
                  eid_t first_product, eid_t products, eid_t* row_nnz, cudaStream_t stream) {
  if (products == 0) return;
  const EscKeyLayout layout(last - first, b.ncols);
  device::Buffer<std::uint64_t> keys(products, stream);
  device::Buffer<std::uint64_t> spare(products, stream);
  constexpr int threads = 256;
  esc_expand_keys_kernel<<<grid_for((products + kEscItemsPerThread - 1) / kEscItemsPerThread, threads), threads, 0,
                           stream>>>(a, b, entry_offsets, first, last, first_product, products, layout, keys.data());
  SPGRAPH_CHECK_LAUNCH("esc_expand_keys_kernel");
  cub::DoubleBuffer<std::uint64_t> db(keys.data(), spare.data());
  if (layout.bits() > 0)
    device::run_cub(
        [&](void* temp, std::size_t& bytes) {
          return cub::DeviceRadixSort::SortKeys(temp, bytes, db, products, 0, layout.bits(), stream);
        },
        stream);
  esc_count_kernel<<<grid_for(products, threads), threads, 0, stream>>>(db.Current(), products, layout, first, row_nnz);
  SPGRAPH_CHECK_LAUNCH("esc_count_kernel");
}

}  // namespace spgraph::gpu::spgemm_detail
