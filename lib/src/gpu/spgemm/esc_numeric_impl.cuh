#pragma once
// ESC SpGEMM, numeric pass over a row slice (Dalton, Olson, Bell): expand every product as a
// (row, column) key and its value, sort the pairs by key (CUB radix sort over only the bits the
// slice needs), contract equal keys with the add monoid (CUB reduce-by-key) straight into C.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/transform_output_iterator.h>

#include <string>

#include "device/cub_call.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "gpu/spgemm/esc_keys.cuh"
#include "gpu/spgemm/hash_numeric_impl.cuh"
#include "gpu/spgemm/product_walk.cuh"

namespace spgraph::gpu::spgemm_detail {

// Bytes the ESC numeric pass needs per product: keys and values, each with a sort buffer.
template <class V>
inline constexpr std::size_t kEscNumericBytesPerProduct = 2 * (sizeof(std::uint64_t) + sizeof(V));

template <class SR>
struct MonoidAdd {
  template <class T>
  __host__ __device__ T operator()(const T& x, const T& y) const {
    return SR::template add<T>(x, y);
  }
};

struct KeyToColumn {
  EscKeyLayout layout;
  __host__ __device__ vid_t operator()(std::uint64_t key) const { return layout.col(key); }
};

template <class SR, class V>
__global__ void esc_expand_pairs_kernel(device::CsrView<V> a, device::CsrView<V> b, const eid_t* ap, vid_t first,
                                        vid_t last, eid_t first_product, eid_t count, EscKeyLayout layout,
                                        std::uint64_t* keys, V* vals) {
  for_each_product<kEscItemsPerThread>(
      structure_of_view(a), structure_of_view(b), ap, first, last, first_product, count,
      [&](eid_t t, const ProductWalk& w) {
        keys[t] = layout.key(w.row - first, b.col[w.q]);
        vals[t] = SR::template multiply<V>(a_value<SR>(a, w.entry), b_value<SR>(b, w.q), w.k);
      });
}

// Rows [first, last) of A*B, whose products are [first_product, first_product + products) and
// whose expected_nnz entries are written to out_col / out_val.
template <class SR, class V>
void esc_numeric(const device::CsrView<V>& a, const device::CsrView<V>& b, const eid_t* entry_offsets, vid_t first,
                 vid_t last, eid_t first_product, eid_t products, eid_t expected_nnz, vid_t* out_col, V* out_val,
                 cudaStream_t stream) {
  if (products == 0) return;
  const EscKeyLayout layout(last - first, b.ncols);
  device::Buffer<std::uint64_t> keys(products, stream), spare_keys(products, stream);
  device::Buffer<V> vals(products, stream), spare_vals(products, stream);
  constexpr int threads = 256;
  esc_expand_pairs_kernel<SR, V>
      <<<grid_for((products + kEscItemsPerThread - 1) / kEscItemsPerThread, threads), threads, 0, stream>>>(
          a, b, entry_offsets, first, last, first_product, products, layout, keys.data(), vals.data());
  SPGRAPH_CHECK_LAUNCH("esc_expand_pairs_kernel");
  cub::DoubleBuffer<std::uint64_t> dk(keys.data(), spare_keys.data());
  cub::DoubleBuffer<V> dv(vals.data(), spare_vals.data());
  if (layout.bits() > 0)
    device::run_cub(
        [&](void* temp, std::size_t& bytes) {
          return cub::DeviceRadixSort::SortPairs(temp, bytes, dk, dv, products, 0, layout.bits(), stream);
        },
        stream);
  device::Buffer<eid_t> runs(1, stream);
  auto columns = thrust::make_transform_output_iterator(out_col, KeyToColumn{layout});
  device::run_cub(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceReduce::ReduceByKey(temp, bytes, dk.Current(), columns, dv.Current(), out_val, runs.data(),
                                              MonoidAdd<SR>{}, products, stream);
      },
      stream);
  const eid_t got = read_value(runs.data(), stream);
  if (got != expected_nnz)
    throw Error("ESC SpGEMM: internal error: rows " + std::to_string(first) + ".." + std::to_string(last - 1) +
                " contracted to " + std::to_string(got) + " entries, the symbolic pass counted " +
                std::to_string(expected_nnz) + "; please report");
}

}  // namespace spgraph::gpu::spgemm_detail
