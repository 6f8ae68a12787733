#pragma once
// GPU sparse matrix-vector products over semirings (the gpu backend's mxv and vxm).
//
//   mxv: y<mask> = A x      y(i) = add_k A(i,k) (x) x(k)
//   vxm: y<mask> = x' A     y(j) = add_k x(k) (x) A(k,j)   (computed as a product with A',
//                                                          which is built once and cached)
//
// Semantics are descriptor.hpp's on dense vectors: an absent entry is the add monoid's
// identity; a valued mask allows i where mask[i] != 0; a structural mask on a dense vector
// allows every i; mask_complement inverts (so no mask plus complement allows nothing, as in
// GraphBLAS); positions not allowed keep y's old value, or the identity with replace. For a
// pattern matrix (Matrix::is_pattern) every stored entry is 1 and no value array is read.
// transpose_a on mxv multiplies by A'; on vxm the matrix is the second operand, so
// transpose_b transposes it (GraphBLAS's GrB_INP1); asking to transpose the vector operand
// throws. y may be passed empty: it is then sized to the output and starts as all absent.
// The mask parameter does not take part in deduction, so nullptr means no mask. All work
// runs on the default stream; nothing synchronises the host.
//
// Kernels (SpmvOptions::kernel; Auto picks one with choose_spmv_kernel):
//   CsrVector        a sub-warp per row, its width the power of two covering the mean row length
//   CsrMergePath     merge path over row ends and nonzeros (Merrill & Garland): equal work per
//                    warp whatever the row lengths; one atomic per tile seam, in a second pass
//   CsrStream        a block per run of whole rows cut from the merge path (CSR-Stream of
//                    CSR-Adaptive, Greathouse & Daga 2014): their nonzeros staged in shared memory,
//                    then each row reduced and written once; no atomics, the same sum order on
//                    every run; a long row takes a block of its own
//   CooLoadBalanced  Anzt et al. 2020, Algorithm 1: each warp takes a contiguous chunk of
//                    nonzeros, reduces row segments within the warp, one atomic per segment
//   SellP            32-row slices stored column-major, each as wide as its longest row; one
//                    lane per row, so a slice takes as long as its longest row (the right
//                    format for bounded rows only)
//   Hyb              ELL for the first t entries of every row + COO for the rest, with the
//                    memory-optimal t = Q_R(p / (v + 2p)) (Anzt et al. 2020, section 4)
// Derived formats (COO row ids, merge-path partition, SELL-P, HYB, the transpose) are built on
// first use and cached in the matrix (reached through detail::cache_of alone); prepare_spmv
// builds them ahead.
//
// Instantiated (lib/src/gpu/spmv/spmv_<semiring>_<type>.cu, one pair a file) for
//   float, double   PlusTimes, PlusSecond, PlusFirst, MinPlus, MaxTimes, OrAnd, PlusPair, AnySecondI
//   int64_t         PlusTimes, PlusPair, MinPlus, AnySecondI   (as mxm: counts, integer paths, parents)
//   int32_t         PlusTimes, AnySecondI                      (vertex-sized values and parents)
//   bool            OrAnd                                      (reachability)
//   uint64_t        BorBand, BorSecond                         (bit-parallel BFS: a bit per source)
// Other combinations: include spgraph/gpu/spmv_impl.cuh and use SPGRAPH_GPU_SPMV_INSTANTIATE.
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "spgraph/descriptor.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/device/memory.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/loop_slices.hpp"
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/operations.hpp"
#include "spgraph/semiring.hpp"

namespace spgraph::gpu {

// The row-length distribution the automatic choice reads; computed once per matrix.
struct SpmvRowStats {
  vid_t nrows = 0;
  eid_t nnz = 0;
  double mean_row_length = 0;
  vid_t max_row_length = 0;
  eid_t sellp_slots = 0;    // SELL-P storage: sum over 32-row slices of 32 x longest row
  vid_t hyb_ell_width = 0;  // HYB's ELL width t = Q_R(hyb_split_quantile(...))
  eid_t hyb_coo_nnz = 0;    // entries past t, which HYB keeps in COO
};

// Thresholds of the automatic choice, tuned on the H200 with the spmv benchmark: SELL-P where
// rows are bounded and padding is low, CSR stream on large matrices with long rows, COO on
// small ones with long rows (email-Enron, cit-HepPh), where it loses at most 11% and the row
// statistics cannot tell the cases CSR stream wins apart. Measurements in
// docs/performance/spmv.md.
// Up to this many nonzeros the COO kernel runs in one cooperative launch (the output's
// initialisation, a grid-wide barrier, the product) instead of two: there a product is bound
// by queueing kernels, which takes the host longer than either kernel runs.
inline constexpr eid_t kCooSingleLaunchMaxNnz = 1'000'000;

struct SpmvSelection {
  eid_t small_nnz = 1'000'000;      // at most this many nonzeros counts as small
  vid_t balanced_max_row = 64;      // rows no longer than this count as balanced
  double sellp_max_padding = 1.25;  // SELL-P slots per nonzero above which SELL-P is not used
  // CSR stream gives a row one block; it is chosen while the longest row has at most
  // max(stream_max_row, stream_max_row_share * nnz) entries.
  vid_t stream_max_row = 16384;
  double stream_max_row_share = 1.0 / 2048;
};

// The rule (s = stats, all lengths in nonzeros per row):
//   1. s.nnz == 0                                                -> CsrVector (nothing to balance)
//   2. s.max_row_length <= balanced_max_row:
//        s.nnz <= small_nnz                                      -> CsrVector (classical CSR)
//        s.sellp_slots <= sellp_max_padding * s.nnz              -> SellP
//        otherwise                                               -> CsrStream
//   3. longer rows:
//        s.nnz <= small_nnz                                      -> CooLoadBalanced
//        s.max_row_length <= max(stream_max_row,
//                                stream_max_row_share * s.nnz)   -> CsrStream
//        otherwise                                               -> CooLoadBalanced
SpmvKernel choose_spmv_kernel(const SpmvRowStats& stats, const SpmvSelection& selection = {});

// HYB's split quantile. ELL of width t stores n*t slots of (v + p) bytes, padding included;
// COO stores each entry past t with its row and column index, v + 2p bytes. Memory
//   M(t) = n t (v + p) + (v + 2p) sum_i max(0, r_i - t)
// falls with t while dM/dt = n (v + p) - (v + 2p) #{i : r_i > t} < 0, i.e. while more than a
// share (v + p)/(v + 2p) of the rows is longer than t. The optimum is therefore the quantile
// t = Q_R(1 - (v + p)/(v + 2p)) = Q_R(p / (v + 2p)) of the row lengths R. Here p = 4 (32-bit
// indices) and v = sizeof(V), or 0 for a pattern matrix: 1/4 for double, 1/3 for float, 1/2
// (the median) for a pattern. Q_R(q) is the sorted row length at index floor(q * nrows).
double hyb_split_quantile(std::size_t value_bytes, std::size_t index_bytes = sizeof(vid_t));

const char* spmv_kernel_name(SpmvKernel k);  // "csr-vector", "csr-merge-path", ...

// The kernel that the calling thread's last gpu::mxv or vxm ran, Auto resolved (Auto before
// any): what tests and benchmarks check the dispatch by.
SpmvKernel last_spmv_kernel();
namespace detail {
void record_spmv_kernel(SpmvKernel k);
}  // namespace detail

// The automatic pick for A (mxv without transpose; for vxm ask about spmv_transpose(A)).
template <class V> SpmvKernel choose_spmv_kernel(const Matrix<V>& A);
// Builds and caches the row statistics and what kernel k needs (Auto: the automatic pick's),
// so timed regions see only the product.
template <class V> void prepare_spmv(const Matrix<V>& A, SpmvKernel k);
template <class V> const SpmvRowStats& spmv_row_stats(const Matrix<V>& A);
// A', built on first use and cached in A (what vxm and mxv with transpose_a multiply by).
template <class V> const Matrix<V>& spmv_transpose(const Matrix<V>& A);

template <class SR, class V>
void mxv(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Matrix<V>& A, const Vector<V>& x,
         SR, const Descriptor& desc = {}, const SpmvOptions& options = {});

template <class SR, class V>
void vxm(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, const Matrix<V>& A,
         SR, const Descriptor& desc = {}, const SpmvOptions& options = {});

namespace detail {

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
  SpmvRowStats stats;
  device::Buffer<vid_t> row_lengths;      // nrows
  device::Buffer<vid_t> coo_row_ids;      // nnz: the row of every entry (CooLoadBalanced)
  device::Buffer<unsigned> rowptr_low;    // nrows + 1: rowptr mod 2^32, all a tile needs (half the bytes)
  std::unique_ptr<detail::PathTiles> merge_path_tiles;  // CsrMergePath: kMergePathTile items
  std::map<int, std::unique_ptr<detail::PathTiles>> stream_tiles;  // CsrStream, by tile length
  std::unique_ptr<detail::SellP<V>> sellp;
  std::unique_ptr<detail::Hyb<V>> hyb;
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
