#pragma once
// Internal to the SpMV family and the fused iterations built on it: the derived formats a
// matrix caches (SpmvCache), the kernels' tuning constants, and the accessors that build the
// formats on first use. The public API is spgraph/gpu/spmv.hpp.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "gpu/common/loop_slices.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/device/memory.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/spmv.hpp"

namespace spgraph::gpu {

// Up to this many nonzeros the COO kernel runs in one cooperative launch (the output's
// initialisation, a grid-wide barrier, the product) instead of two: there a product is bound
// by queueing kernels, which takes the host longer than either kernel runs.
inline constexpr eid_t kCooSingleLaunchMaxNnz = 1'000'000;

namespace detail {

void record_spmv_kernel(SpmvKernel k);  // what last_spmv_kernel() then returns

// SELL-P: slice s holds rows 32s..32s+31 column-major: entry k of row i sits at
// slice_ptr[s] + 32k + i%32. A slice is as wide as its longest row; kernels stop at each
// row's own length, so padding costs memory but no bandwidth.
template <class V>
struct SellP {
  int threads_per_row = 1;          // warps sharing a slice, each taking every T-th column
  device::Buffer<eid_t> slice_ptr;  // nslices + 1, in slots
  device::Buffer<vid_t> col;
  device::Buffer<V> val;            // empty for a pattern matrix
};

// HYB: entry k < ell_width of row i at ell[k * nrows + i]; the rest in COO, sorted by row.
template <class V>
struct Hyb {
  vid_t ell_width = 0;
  device::Buffer<vid_t> ell_col;
  device::Buffer<V> ell_val;  // empty for a pattern matrix
  eid_t coo_nnz = 0;
  device::Buffer<vid_t> coo_row;
  device::Buffer<vid_t> coo_col;
  device::Buffer<V> coo_val;
};

// AMB (Nagasaka, Nukada & Matsuoka, "Fast Sparse Matrix Vector Multiplication with
// Highly-Compressed Sparse Format"): the matrix cut into tiles of 2^16 rows by 2^16 columns.
// A row's entries inside one tile form segments of at most kAmbMaxSegment entries (cut every
// kAmbMaxSegment entries of the row: a lane walks its segment alone, so a longer one would hold
// its chunk's warp for as many memory round trips). A tile's segments, longest first, are
// taken 32 at a time as a chunk, stored column-major like a SELL-P slice: lane l's k-th entry at
// chunk_offset[c] + 32k + l, as its column's 16-bit offset within the tile.
// slot_meta[32c + l] = row offset within the tile | segment length << 16 (0 for the empty lanes
// of a tile's last chunk); chunk_tile[c] = row tile << 16 | column tile. Each segment's sum is
// added to y with an atomic, so y starts at the identity.
inline constexpr int kAmbSpanLog2 = 16;
inline constexpr eid_t kAmbMaxSegment = 32;

template <class V>
struct Amb {
  eid_t nchunks = 0;
  device::Buffer<eid_t> chunk_offset;  // nchunks + 1, in slots
  device::Buffer<unsigned> chunk_tile;
  device::Buffer<unsigned> slot_meta;  // 32 per chunk
  device::Buffer<std::uint16_t> col;
  device::Buffer<V> val;  // empty for a pattern matrix
};

// Merge path: one warp per tile of 32 * J path items (row ends or nonzeros), J per lane.
// J = 6: larger tiles cost more occupancy (registers) than they save per tile (H200;
// docs/performance/spmv.md).
inline constexpr int kMergePathItemsPerLane = 6;
inline constexpr int kMergePathTile = 32 * kMergePathItemsPerLane;

// CSR stream: one block of kStreamThreads per tile of path items, whose nonzeros it stages in
// shared memory, J per thread loaded as quads (16-byte vectors), all in flight at once.
// At most 32 registers (8 blocks per SM); J = 4 with double values and J = 8 otherwise, the
// fastest of those measured; matrix values are loaded before any x. The measurements, and the designs tried and not kept (a double-buffered stage,
// 128-thread blocks, an L2 access-policy window on x, ...), are in docs/performance/spmv.md.
inline constexpr int kStreamThreads = 256;
inline constexpr int kStreamMinBlocks = 8;
template <class V, bool ReadValues>
inline constexpr int kStreamItemsPerThread = ReadValues && sizeof(V) > 4 ? 4 : 8;
// With 4-byte values the stage is filled by cp.async (spmv_csr_stream_impl.cuh), which frees
// the registers that held row ends and values in flight; with 8-byte values that was slower,
// so double keeps the register stage (docs/performance/spmv.md).
template <class V>
inline constexpr bool kStreamStageAsync = sizeof(V) == 4;
// When x is larger than half the L2, its gathers miss to memory and take longer, and more of
// them in flight pay: J = 12 with the cp.async stage. Where x fits it does not (3-33% slower;
// docs/performance/spmv.md).
inline constexpr int kStreamItemsPerThreadWide = 12;
// Path items per tile: the stage holds kStreamThreads * J entries from the quad-aligned address
// at or below a tile's first nonzero, up to 3 entries before it, so a tile carries 4 fewer.
constexpr int stream_tile(int items_per_thread) { return kStreamThreads * items_per_thread - 4; }
// J for a product with an x of x_length entries (reads the device's L2 size).
template <class V, bool ReadValues>
int stream_items_per_thread(vid_t x_length) {
  const std::size_t x_bytes = std::size_t(x_length) * sizeof(V);
  if (kStreamStageAsync<V> && x_bytes > device::l2_cache_bytes() / 2) return kStreamItemsPerThreadWide;
  return kStreamItemsPerThread<V, ReadValues>;
}

// Rows cut along the merge path of row ends and nonzeros into tiles of equal length:
// tile_rows[t] = the rows finished before path item t * tile, for t = 0..ntiles, and
// tile_base[t] = rowptr[tile_rows[t]], where the tile's first row starts, so that a CSR-stream
// block loads both at once instead of one after the other.
struct PathTiles {
  device::Buffer<vid_t> tile_rows;
  device::Buffer<eid_t> tile_base;

  eid_t ntiles() const { return eid_t(tile_rows.size()) - 1; }
};

}  // namespace detail

// Formats derived from one immutable matrix for the SpMV kernels. Built lazily under `mutex`;
// once built a member never changes, so kernels read it without the lock.
template <class V>
struct SpmvCache {
  std::mutex mutex;
  bool analysed = false;
  // The exception: its column counts come after the rest (count_columns_locked, under the
  // lock), before spmv_row_stats hands it out.
  SpmvRowStats stats;
  device::Buffer<vid_t> row_lengths;      // nrows
  device::Buffer<vid_t> coo_row_ids;      // nnz: the row of every entry (CooLoadBalanced)
  device::Buffer<unsigned> rowptr_low;    // nrows + 1: rowptr mod 2^32, all a tile needs (half the bytes)
  std::unique_ptr<detail::PathTiles> merge_path_tiles;  // CsrMergePath: kMergePathTile items
  std::map<int, std::unique_ptr<detail::PathTiles>> stream_tiles;  // CsrStream, by tile length
  std::unique_ptr<detail::SellP<V>> sellp;
  std::unique_ptr<detail::Hyb<V>> hyb;
  std::unique_ptr<detail::Amb<V>> amb;
  std::unique_ptr<detail::LoopSlices> loop_slices;  // gpu::MxvLoop's, one per SM of this device
  std::unique_ptr<Matrix<V>> transpose;
};

namespace detail {
// Accessors that build on first use (thread-safe); definitions in lib/src/gpu/spmv.
template <class V> const device::Buffer<vid_t>& spmv_row_lengths(const Matrix<V>& A);
template <class V> const device::Buffer<vid_t>& spmv_coo_row_ids(const Matrix<V>& A);
template <class V> const device::Buffer<unsigned>& spmv_rowptr_low(const Matrix<V>& A);
template <class V> const PathTiles& spmv_merge_path_tiles(const Matrix<V>& A);
template <class V> const PathTiles& spmv_stream_tiles(const Matrix<V>& A, int tile);
template <class V> const SellP<V>& spmv_sellp(const Matrix<V>& A);
template <class V> const Hyb<V>& spmv_hyb(const Matrix<V>& A);
template <class V> const Amb<V>& spmv_amb(const Matrix<V>& A);
template <class V> const LoopSlices& spmv_loop_slices(const Matrix<V>& A);

// y = A (+).(x) x as mxv without mask or descriptor, for gpu::MxvReducer's chain: the
// CSR-stream kernel starts while the kernel before it finishes, reading A's entries, and waits
// for that kernel to complete before it reads x or writes y (device/dependent_launch.hpp).
// Only where no unfinished kernel writes A.
template <class SR, class V>
void mxv_after_previous_kernel(Vector<V>& y, const Matrix<V>& A, const Vector<V>& x, SR, const SpmvOptions& options);

// The error for a product's input vector x whose length is not A's column count.
template <class V>
void check_spmv_input(const char* op, std::size_t x_size, const Matrix<V>& A) {
  if (x_size != static_cast<std::size_t>(A.ncols()))
    throw Error(std::string(op) + ": the input vector has " + std::to_string(x_size) + " entries, the product needs " +
                std::to_string(A.ncols()));
}
}  // namespace detail

}  // namespace spgraph::gpu
