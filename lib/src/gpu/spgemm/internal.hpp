#pragma once
// The parts of the SpGEMM that do not depend on the value type or the semiring, compiled once
// in lib/src/gpu/spgemm/: row statistics, grouping, the symbolic passes, CUB wrappers and the
// budget planning. The templates in spgemm_impl.cuh call these.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "spgraph/device/memory.hpp"
#include "gpu/spgemm/groups.hpp"
#include "gpu/spgemm/structure.hpp"

namespace spgraph::gpu::spgemm_detail {

// Throws spgraph::Error unless A's columns match B's rows.
void check_inner_dimensions(const Structure& a, const Structure& b, const char* what);

// Per row of A, for the product A*B: intermediate products, and the smallest and largest
// column those products reach (min_col = 0, max_col = 0 for rows without products).
struct RowStats {
  device::Buffer<eid_t> products;
  device::Buffer<vid_t> min_col;
  device::Buffer<vid_t> max_col;
  eid_t total_products = 0;
};
RowStats row_stats(const Structure& a, const Structure& b, cudaStream_t stream);
// Intermediate products of a*b (gpu::count_products on the structures).
eid_t count_products(const Structure& a, const Structure& b);
inline constexpr std::size_t kRowStatsBytesPerRow = sizeof(eid_t) + 2 * sizeof(vid_t);

// What the hash product's kernels count on the device, so that the host reads it with one copy
// at each of the few points where it must decide something (instead of one synchronising copy
// per figure). Zeroed once per product.
struct HashCounters {
  unsigned long long total_products;
  unsigned long long symbolic_rows[kGroups];  // rows per symbolic group
  unsigned long long numeric_rows[kGroups];   // rows per numeric group
  unsigned long long symbolic_cursor[kGroups];  // scratch of the bucket scatters
  unsigned long long numeric_cursor[kGroups];
  unsigned long long nnz;                     // entries of C (rowptr[n] once scanned)
  unsigned long long global_largest;          // the numeric global path's largest row, bytes
  unsigned long long global_total;            // and all its rows, bytes
  unsigned long long dense_rows;              // rows accumulated densely (numeric)
  unsigned symbolic_failed;                   // symbolic block-7 rows redone with global bitmaps
  int error;                                  // a kError* code (below), 0 if none
};

// row_stats without the total on the host, and with the symbolic pass's grouping in the same
// sweep: group[i] = symbolic_group(...) of groups.hpp; counters->total_products and
// counters->symbolic_rows are added to.
RowStats hash_row_stats(const Structure& a, const Structure& b, bool force_global, std::uint8_t* group,
                        HashCounters* counters, cudaStream_t stream);

// ap[e] = products of A's entries before e (size nnz(A) + 1): where entry e's products start
// in the row-major order of all products. The ESC expansion and the masked product walk it.
device::Buffer<eid_t> entry_product_offsets(const Structure& a, const Structure& b, cudaStream_t stream);

// Rows [first, last) sorted into groups: rows[offsets[g] .. offsets[g+1]) are group g's
// (order within a group unspecified); rows of group kNoWork are left out.
struct Buckets {
  device::Buffer<vid_t> rows;
  std::array<eid_t, kGroups + 1> offsets{};
  eid_t count(int g) const { return offsets[g + 1] - offsets[g]; }
  const vid_t* begin(int g) const { return rows.data() + offsets[g]; }
};
// Counts the rows of each group (one host synchronisation), then places them.
Buckets bucket_rows(const std::uint8_t* group_of_row, vid_t first, vid_t last, cudaStream_t stream);
// Places the rows when their counts per group are known: no host synchronisation. cursors:
// kGroups zeroed device words the scatter uses up.
Buckets bucket_counted_rows(const std::uint8_t* group_of_row, vid_t first, vid_t last,
                            const unsigned long long* counts, unsigned long long* cursors, cudaStream_t stream);

// For every row i < n: group[i] = numeric_group(products, row_nnz) of groups.hpp; adds the
// groups' row counts and the global path's work (global_row_bytes) to the counters and sets
// counters->nnz = rowptr[n].
void numeric_groups(const RowStats& stats, const eid_t* rowptr, vid_t n, bool force_global, std::size_t value_bytes,
                    std::uint8_t* group, HashCounters* counters, cudaStream_t stream);

// One stream per row group so the groups' kernels overlap; fork() makes them wait for work
// queued so far on `main`, join() makes `main` wait for them. Creating streams and events
// costs more than a small product, so each host thread keeps one set per device.
class GroupStreams {
 public:
  static GroupStreams& for_this_thread();
  GroupStreams();
  ~GroupStreams();
  GroupStreams(const GroupStreams&) = delete;
  GroupStreams& operator=(const GroupStreams&) = delete;
  cudaStream_t operator[](int g) const { return streams_[g]; }
  void fork(cudaStream_t main);
  void join(cudaStream_t main);

 private:
  int device_ = -1;
  std::array<cudaStream_t, kGroups> streams_{};
  std::array<cudaEvent_t, kGroups> events_{};
  cudaEvent_t forked_ = nullptr;
};

// Bytes a panel may use, with what the per-row bookkeeping already took; explains itself in
// ResourceError messages.
struct Budget {
  std::size_t total = 0;       // MxmOptions::memory_budget, or what was free
  bool explicit_budget = false;
  std::size_t room = 0;        // left for panels after the bookkeeping
  std::size_t output_bytes = 0;  // C's share of room, where mxm assembles C whole from what was free
};
// budget_bytes == 0: what device::available_memory() reports, less a margin for the
// allocator's granularity. Throws ResourceError when the bookkeeping alone does not fit.
Budget make_budget(std::size_t budget_bytes, std::size_t bookkeeping_bytes, const char* what);

// mxm assembles C whole on the device: where C itself (nnz entries, c_bytes with its row
// offsets) is more than the device can hold (the budget's room when the budget is what was
// free, else what is free now), no budget helps; throws ResourceError saying so with those
// numbers and pointing to gpu::mxm_panels.
void check_output_fits(eid_t nnz, std::size_t c_bytes, const Budget& budget);

struct Panel {
  vid_t first = 0;
  vid_t last = 0;  // exclusive
};
// Splits items [0, n) (rows, or a list of rows) into consecutive runs whose cost
// (cost_prefix[last] - cost_prefix[first], bytes) fits `room`. An item whose own cost does not
// fit throws ResourceError with describe_row(item) ("row 17 (2500 entries of C)"), its cost and
// the budget.
std::vector<Panel> plan_panels(const std::vector<std::uint64_t>& cost_prefix, std::size_t room, const Budget& budget,
                               const std::function<std::string(vid_t)>& describe_row);

// The global paths (bitmaps in the symbolic pass, hash tables in the numeric pass) work in
// batches of rows taking at most this much memory at once (or the largest row's need): enough
// for hundreds of the largest rows, little next to C.
inline constexpr std::size_t kGlobalBatchBytes = std::size_t(1) << 30;

// Slots of a global-memory hash table for a row of n entries: a power of two at least 2n
// (tables at most half full), capped at 2^31 (hash slots are 32-bit; n < 2^31 still fits).
SPGRAPH_HD eid_t global_table_slots(eid_t n) {
  eid_t s = 32;
  while (s < 2 * n && s < (eid_t(1) << 31)) s <<= 1;
  return s;
}
// A numeric global-path row of n entries over a span of columns accumulates densely (values in
// global memory indexed by column - min column, a presence bitmap in shared memory, written in
// column order: no hash table and no sort) when the span is at most 2^20 columns (a 128 KiB
// bitmap) and at most 8n (so the zeroed span costs little next to the row's output);
// force_global keeps every row on the hash tables.
inline constexpr eid_t kGlobalDenseMaxSpan = eid_t(1) << 20;
SPGRAPH_HD bool global_row_dense(eid_t n, eid_t span, bool force_global) {
  return !force_global && span <= kGlobalDenseMaxSpan && span <= 8 * n;
}
// Bytes the numeric global path needs for a row: dense, its span of values and an offset;
// otherwise its table (a key and a value per slot), the packed and the sorted (key, slot)
// pairs, and two offsets.
SPGRAPH_HD std::uint64_t global_row_bytes(eid_t n, eid_t span, bool dense, std::size_t value_bytes) {
  if (dense) return std::uint64_t(span) * value_bytes + sizeof(eid_t);
  return std::uint64_t(global_table_slots(n)) * (sizeof(unsigned) + value_bytes) +
         std::uint64_t(n) * 4 * sizeof(unsigned) + 2 * sizeof(eid_t);
}

// Listed rows with their entries and column span (rowptr of C; stats of A*B), copied to the
// host in one copy.
struct RowShape {
  eid_t nnz = 0;
  eid_t span = 0;
  vid_t row = 0;
};
std::vector<RowShape> row_shapes(const vid_t* rows, eid_t count, const eid_t* rowptr, const RowStats& stats,
                                 cudaStream_t stream);

// out[i] = in[i] + delta for i < count (row offsets of a panel, or of a piece being appended).
void shift_offsets(const eid_t* in, eid_t count, eid_t delta, eid_t* out, cudaStream_t stream);
// out[i] = pos[offsets[i] - base] for i < count: row offsets of a masked panel from the
// scanned hit flags of its mask entries.
void gather_positions(const eid_t* offsets, eid_t count, eid_t base, const eid_t* pos, eid_t* out,
                      cudaStream_t stream);
// out[i] = x_pos[x_rowptr[i]] + (y_rowptr ? y_pos[y_rowptr[i]] : 0) for i <= nrows: row offsets
// of the merge of two matrices' kept entries.
void merged_rowptr(const eid_t* x_rowptr, const eid_t* x_pos, const eid_t* y_rowptr, const eid_t* y_pos, vid_t nrows,
                   eid_t* out, cudaStream_t stream);

// CUB wrappers on 64-bit counts. exclusive_scan works in place when in == out.
void exclusive_scan(const eid_t* in, eid_t* out, eid_t n, cudaStream_t stream);
eid_t sum(const eid_t* data, eid_t n, cudaStream_t stream);
using device::read_value;
// Sorts (key, value) pairs of 32-bit unsigned ints within segments [begin[s], end[s]).
void segmented_sort_pairs(const unsigned* keys_in, unsigned* keys_out, const unsigned* vals_in, unsigned* vals_out,
                          eid_t items, eid_t segments, const eid_t* begin, const eid_t* end, cudaStream_t stream);

// Hash symbolic pass: row_nnz[i] = nonzeros of row i of A*B for every row (rows without
// products get 0). group / counts: hash_row_stats's grouping and its row counts per group.
// Rows of the global group (force_global) are counted with bitmaps in global memory, which
// needs the host. Returns the block-7 rows whose tables filled, counters->symbolic_failed of
// them, not counted yet: symbolic_global_rows counts them once the host has read that figure
// (with the other counters, which it reads anyway), so the pass itself does not synchronise.
device::Buffer<vid_t> hash_symbolic(const Structure& a, const Structure& b, const RowStats& stats,
                                    const std::uint8_t* group, const HashCounters& counts, const Budget& budget,
                                    eid_t* row_nnz, HashCounters* counters, GroupStreams& streams, cudaStream_t main);
// row_nnz[i] for the listed rows (device memory, count of them), counted with bitmaps in
// global memory, batched to fit the budget (ResourceError naming the row when one bitmap alone
// does not).
void symbolic_global_rows(const Structure& a, const Structure& b, const RowStats& stats, const vid_t* rows,
                          eid_t count, const Budget& budget, eid_t* row_nnz, cudaStream_t stream);

// ESC symbolic pass over rows [first, last): expands the products' (row, column) keys, sorts
// them and counts distinct keys per row into row_nnz[first .. last).
void esc_symbolic(const Structure& a, const Structure& b, const eid_t* entry_offsets, vid_t first, vid_t last,
                  eid_t first_product, eid_t products, eid_t* row_nnz, cudaStream_t stream);
// Bytes the ESC symbolic pass needs per product (keys and their sort buffer).
inline constexpr std::size_t kEscSymbolicBytesPerProduct = 2 * sizeof(std::uint64_t);

// Error codes a kernel leaves in the error word: each means an internal inconsistency (a bug),
// reported as spgraph::Error instead of returning a wrong result.
inline constexpr int kErrorCountMismatch = 1;  // numeric found a different row size than symbolic
inline constexpr int kErrorTableFull = 2;      // a hash table sized to hold a row overflowed

// Throws spgraph::Error for a kernel error code other than 0.
void check_kernel_error(int code, const char* what);

}  // namespace spgraph::gpu::spgemm_detail
