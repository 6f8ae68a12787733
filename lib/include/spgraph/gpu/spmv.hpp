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
//   Amb              Adaptive Multi-level Blocking (Nagasaka, Nukada & Matsuoka): 2^16 x 2^16
//                    tiles, each row's part of a tile a segment (of at most 32 entries); a
//                    tile's segments sorted by length and stored 32 at a time column-major with
//                    16-bit columns (half CSR's index bytes); a lane per segment, one atomic per
//                    row and chunk into y. For matrices whose rows keep to few column tiles
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
// Other combinations: a file in lib/src/gpu/spmv/ with SPGRAPH_GPU_SPMV_INSTANTIATE(SR, V).
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
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/operation_options.hpp"
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
  eid_t amb_segments = 0;   // AMB's segments: a row's entries in a 2^16-column tile, 32 at most
  // Bytes an AMB product moves over those of CSR stream, counting the matrix's arrays and y:
  //   AMB        nnz (2 + v) + 4 amb_segments + 2 n y   (16-bit columns, slot rows, y set then added to)
  //   CSR stream nnz (4 + v) + n (4 + y)                (columns, row offsets, y written)
  // with v the value bytes (0 for a pattern matrix) and y = sizeof(V).
  double amb_byte_ratio = 0;
  // amb_segments and amb_byte_ratio take a pass over the entries: spmv_row_stats counts them,
  // choose_spmv_kernel(A) only where its rule reaches step 4.
  bool columns_counted = false;
  std::size_t value_size = 0;  // sizeof(V): of x, y and the values
};

// Thresholds of the automatic choice, tuned on the H200 with the spmv benchmark: SELL-P where
// rows are bounded and padding is low, CSR stream on large matrices with long rows, COO on
// small ones with long rows (email-Enron, cit-HepPh), where it loses at most 11% and the row
// statistics cannot tell the cases CSR stream wins apart. Measurements in
// docs/performance/spmv.md.

struct SpmvSelection {
  eid_t small_nnz = 1'000'000;      // at most this many nonzeros counts as small
  vid_t balanced_max_row = 64;      // rows no longer than this count as balanced
  double sellp_max_padding = 1.25;  // SELL-P slots per nonzero above which SELL-P is not used
  // CSR stream gives a row one block; it is chosen while the longest row has at most
  // max(stream_max_row, stream_max_row_share * nnz) entries.
  vid_t stream_max_row = 16384;
  double stream_max_row_share = 1.0 / 2048;
  // Where CSR stream would be chosen, AMB is taken instead for values of at least
  // amb_min_value_size bytes while it moves at most amb_max_byte_ratio of CSR stream's bytes
  // (SpmvRowStats::amb_byte_ratio). With 4-byte values AMB lost on every graph measured: its
  // atomics keep L2 busier than CSR stream's loads (docs/performance/spmv.md).
  std::size_t amb_min_value_size = 8;
  double amb_max_byte_ratio = 0.8;
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
//   4. CsrStream from 2. or 3., s.columns_counted, s.value_size >= amb_min_value_size
//      and s.amb_byte_ratio <= amb_max_byte_ratio                -> Amb
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

}  // namespace spgraph::gpu
