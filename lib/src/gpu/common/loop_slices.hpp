#pragma once
// The work of gpu::MxvLoop (mxv_loop.hpp): the merge path of a matrix's row ends and nonzeros
// (as in the CSR merge-path SpMV) cut into one slice per block, which the block keeps in shared
// memory for every iteration. Each slice holds an equal share of the work, a row end weighing
// kLoopRowWeight entries, but for the cuts kLoopSnapRow moves. A slice holds nonzeros
// [begin, end) and the ends of rows [first_row, end_row); the block finishes those rows and
// hands them to f. A row cut between
// slices is summed in pieces: every block whose slice ends inside it (tail) publishes its
// piece, and the block where it ends (its first row, with head_from >= 0) adds the pieces of
// blocks head_from .. itself - 1, in that order, to its own. Built once per matrix and block
// count on the host (SpmvCache).
#include <vector>

#include "spgraph/device/memory.hpp"
#include "spgraph/types.hpp"

namespace spgraph::gpu::detail {

// Threads of the loop's one block an SM.
inline constexpr int kLoopBlock = 1024;
// A block gets at least this many merge-path items (row ends and nonzeros): a graph too small
// to give every SM as many runs on fewer blocks, so the grid-wide barrier waits on fewer.
inline constexpr eid_t kLoopMinItemsPerBlock = 2048;
// A row costs a block more than an entry: f, its inputs' loads and its double-precision
// arithmetic (a per-block probe on web-NotreDame: slices of ~9k entries and 4-5k rows took twice
// as long as slices of ~13.7k entries and ~90 rows). 3 in float; in double heavier rows were
// slower, their larger stage taking shared memory from L1, through which x is gathered
// (docs/performance/pagerank.md).
template <class V>
inline constexpr eid_t kLoopRowWeight = sizeof(V) == 4 ? 3 : 1;
// A cut between slices that falls inside a row of at most this many entries (and an eighth of
// a slice) moves to the nearer end of the row: the block where a cut row ends waits for its
// other pieces, which costs more than the few items of imbalance.
inline constexpr eid_t kLoopSnapRow = 1024;

struct LoopSlice {
  eid_t begin = 0, end = 0;
  vid_t first_row = 0, end_row = 0;
  int head_from = -1;  // first_row's first piece is block head_from's tail; -1: it begins here
  bool tail = false;   // the slice ends inside row end_row: [max(rowptr[end_row], begin), end)
};

struct LoopSlicePlan {
  std::vector<LoopSlice> slices;  // one per block
  eid_t max_nnz = 0;              // of any slice
  vid_t max_rows = 0;
};

// The slices of a matrix with these row offsets, on at most max_blocks blocks (>= 1), a row end
// weighing row_weight (>= 1) entries.
LoopSlicePlan loop_slices(const std::vector<eid_t>& rowptr, int max_blocks, eid_t row_weight);

struct LoopSlices {
  LoopSlicePlan plan;
  device::Buffer<LoopSlice> slices;  // plan.slices on the device
  int blocks() const { return int(plan.slices.size()); }
};

}  // namespace spgraph::gpu::detail
