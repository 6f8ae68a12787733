#pragma once
// C<!M> = A*B with the complemented mask applied inside the product (BFS's F<!V> = F any.pair A):
// a product A(i,k)*B(k,j) whose column j the mask holds in row i (binary search in M's sorted
// row) is never formed. Two walks over the products in row-major order, in tiles of
// kComplementTile products (balanced whatever the row skew):
//  - count: per tile (and per row, for planning panels) the products the mask lets through;
//  - expand: each surviving product's (row, column) key and value at its position from the
//    scanned tile counts and a block scan, so the expansion holds only the survivors;
// then sort by key (CUB radix) and contract equal keys with the add monoid (CUB
// reduce-by-key), as the ESC product does, into a C sized exactly.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <string>
#include <vector>

#include "device/cub_call.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "gpu/spgemm/esc_numeric_impl.cuh"
#include "gpu/spgemm/masked_impl.cuh"

namespace spgraph::gpu::spgemm_detail {

inline constexpr int kComplementItems = 8;  // consecutive products per thread
inline constexpr int kComplementThreads = 256;
inline constexpr eid_t kComplementTile = eid_t(kComplementItems) * kComplementThreads;

// The products of this thread's run in tile `tile` of products [first_product, + count) (rows
// [first, last)) that the mask lets through: allowed(u) for u < kComplementItems, with the
// walk's state for each kept in the arrays. Returns how many.
template <class V>
struct ComplementRun {
  vid_t row[kComplementItems];
  vid_t col[kComplementItems];
  vid_t k[kComplementItems];
  eid_t entry[kComplementItems];
  eid_t q[kComplementItems];
  int kept = 0;

  __device__ void walk(const device::CsrView<V>& a, const device::CsrView<V>& b, const eid_t* ap,
                       const MaskTest<V>& mask, vid_t first, vid_t last, eid_t first_product, eid_t count,
                       eid_t tile) {
    kept = 0;
    const eid_t base = tile * kComplementTile + eid_t(threadIdx.x) * kComplementItems;
    if (base >= count) return;
    ProductWalk w(structure_of_view(a), structure_of_view(b), ap);
    w.seek(first, last, first_product + base);
    const int items = static_cast<int>(min(eid_t(kComplementItems), count - base));
    for (int u = 0; u < items; ++u) {
      const vid_t j = b.col[w.q];
      if (mask.find(w.row, j) < 0) {
        row[kept] = w.row;
        col[kept] = j;
        k[kept] = w.k;
        entry[kept] = w.entry;
        q[kept] = w.q;
        ++kept;
      }
      if (u + 1 < items) w.next();
    }
  }
};

// tile_count[t] = surviving products of tile t; row_survivors[i] (if not null) += those of row i.
template <class V>
__global__ void __launch_bounds__(kComplementThreads)
    complement_count_kernel(device::CsrView<V> a, device::CsrView<V> b, const eid_t* ap, MaskTest<V> mask,
                            vid_t first, vid_t last, eid_t first_product, eid_t count, eid_t tiles,
                            eid_t* tile_count, eid_t* row_survivors) {
  using Reduce = cub::BlockReduce<eid_t, kComplementThreads>;
  __shared__ typename Reduce::TempStorage temp;
  for (eid_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    ComplementRun<V> run;
    run.walk(a, b, ap, mask, first, last, first_product, count, tile);
    if (row_survivors) {
      for (int u = 0; u < run.kept;) {  // one atomic per row of the run
        int v = u + 1;
        while (v < run.kept && run.row[v] == run.row[u]) ++v;
        atomicAdd(reinterpret_cast<unsigned long long*>(row_survivors + run.row[u]),
                  static_cast<unsigned long long>(v - u));
        u = v;
      }
    }
    const eid_t total = Reduce(temp).Sum(eid_t(run.kept));
    if (threadIdx.x == 0) tile_count[tile] = total;
    __syncthreads();  // temp is reused by the next tile
  }
}

// Writes the survivors' keys and values at tile_pos[tile] + the thread's place in the tile.
template <class SR, class V>
__global__ void __launch_bounds__(kComplementThreads)
    complement_expand_kernel(device::CsrView<V> a, device::CsrView<V> b, const eid_t* ap, MaskTest<V> mask,
                             vid_t first, vid_t last, eid_t first_product, eid_t count, eid_t tiles,
                             const eid_t* tile_pos, EscKeyLayout layout, std::uint64_t* keys, V* vals) {
  using Scan = cub::BlockScan<eid_t, kComplementThreads>;
  __shared__ typename Scan::TempStorage temp;
  for (eid_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    ComplementRun<V> run;
    run.walk(a, b, ap, mask, first, last, first_product, count, tile);
    eid_t at = 0;
    Scan(temp).ExclusiveSum(eid_t(run.kept), at);
    at += tile_pos[tile];
    for (int u = 0; u < run.kept; ++u) {
      keys[at + u] = layout.key(run.row[u] - first, run.col[u]);
      vals[at + u] = SR::template multiply<V>(a_value<SR>(a, run.entry[u]), b_value<SR>(b, run.q[u]), run.k[u]);
    }
    __syncthreads();
  }
}

// C's row offsets and columns from the contracted keys (sorted): rowptr[r] = the first key of
// row r or later.
template <class V>
__global__ void complement_rows_kernel(const std::uint64_t* keys, eid_t nnz, EscKeyLayout layout, vid_t rows,
                                       eid_t* rowptr, vid_t* col) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t e = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; e < nnz; e += stride) col[e] = layout.col(keys[e]);
  for (eid_t r = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; r <= rows; r += stride)
    rowptr[r] = r == rows ? nnz : lower_bound(keys, eid_t(0), nnz, layout.key(vid_t(r), 0));
}

inline unsigned complement_grid(eid_t tiles) {
  const eid_t cap = eid_t(1) << 20;
  return static_cast<unsigned>(tiles < 1 ? 1 : (tiles > cap ? cap : tiles));
}

// Surviving products per tile of products [first_product, + products) (rows [first, last)),
// scanned into positions (tiles + 1 entries); row_survivors as complement_count_kernel's.
template <class V>
device::Buffer<eid_t> complement_tile_positions(const device::CsrView<V>& a, const device::CsrView<V>& b,
                                                const eid_t* ap, const MaskTest<V>& mask, vid_t first, vid_t last,
                                                eid_t first_product, eid_t products, eid_t* row_survivors,
                                                cudaStream_t stream) {
  const eid_t tiles = (products + kComplementTile - 1) / kComplementTile;
  device::Buffer<eid_t> pos(std::size_t(tiles) + 1, stream);
  pos.fill_zero();
  if (tiles > 0) {
    complement_count_kernel<V><<<complement_grid(tiles), kComplementThreads, 0, stream>>>(
        a, b, ap, mask, first, last, first_product, products, tiles, pos.data(), row_survivors);
    SPGRAPH_CHECK_LAUNCH("complement_count_kernel");
  }
  exclusive_scan(pos.data(), pos.data(), tiles + 1, stream);
  return pos;
}

// Rows [first, last) of C<!M> = A*B, whose products are [first_product, + products); tile_pos:
// complement_tile_positions of exactly that range.
template <class SR, class V>
device::DeviceCsr<V> complement_panel(const device::CsrView<V>& a, const device::CsrView<V>& b, const eid_t* ap,
                                      const MaskTest<V>& mask, vid_t first, vid_t last, eid_t first_product,
                                      eid_t products, const device::Buffer<eid_t>& tile_pos, cudaStream_t stream) {
  const eid_t tiles = eid_t(tile_pos.size()) - 1;
  const eid_t survivors = read_value(tile_pos.data() + tiles, stream);
  const vid_t rows = last - first;
  if (survivors == 0) return empty_csr<V>(rows, b.ncols, stream);
  const EscKeyLayout layout(rows, b.ncols);
  device::Buffer<std::uint64_t> keys(survivors, stream), spare_keys(survivors, stream);
  device::Buffer<V> vals(survivors, stream), spare_vals(survivors, stream);
  complement_expand_kernel<SR, V><<<complement_grid(tiles), kComplementThreads, 0, stream>>>(
      a, b, ap, mask, first, last, first_product, products, tiles, tile_pos.data(), layout, keys.data(),
      vals.data());
  SPGRAPH_CHECK_LAUNCH("complement_expand_kernel");
  cub::DoubleBuffer<std::uint64_t> dk(keys.data(), spare_keys.data());
  cub::DoubleBuffer<V> dv(vals.data(), spare_vals.data());
  if (layout.bits() > 0)
    device::run_cub(
        [&](void* temp, std::size_t& bytes) {
          return cub::DeviceRadixSort::SortPairs(temp, bytes, dk, dv, survivors, 0, layout.bits(), stream);
        },
        stream);
  device::Buffer<eid_t> runs(1, stream);
  std::uint64_t* unique_keys = dk.Alternate();
  V* unique_vals = dv.Alternate();
  device::run_cub(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceReduce::ReduceByKey(temp, bytes, dk.Current(), unique_keys, dv.Current(), unique_vals,
                                              runs.data(), MonoidAdd<SR>{}, survivors, stream);
      },
      stream);
  const eid_t nnz = read_value(runs.data(), stream);
  device::DeviceCsr<V> c;
  c.nrows = rows;
  c.ncols = b.ncols;
  c.rowptr = device::Buffer<eid_t>(std::size_t(rows) + 1, stream);
  c.col = device::Buffer<vid_t>(nnz, stream);
  c.val = device::Buffer<V>(nnz, stream);
  complement_rows_kernel<V><<<grid_for(std::max<eid_t>(nnz, eid_t(rows) + 1), 256), 256, 0, stream>>>(
      unique_keys, nnz, layout, rows, c.rowptr.data(), c.col.data());
  SPGRAPH_CHECK_LAUNCH("complement_rows_kernel");
  if (nnz > 0)
    SPGRAPH_CUDA(cudaMemcpyAsync(c.val.data(), unique_vals, nnz * sizeof(V), cudaMemcpyDeviceToDevice, stream));
  return c;
}

}  // namespace spgraph::gpu::spgemm_detail
