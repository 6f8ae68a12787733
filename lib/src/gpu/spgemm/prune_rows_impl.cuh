#pragma once
// The pruning of one row panel of MCL's expansion (spgraph/gpu/mxm_prune_rows.hpp), every
// decision made by host/prune_rule.hpp, as the GraphBLAS backend makes them. Per panel:
//   1. Summary: a warp per row (a block per row longer than kLongRow, which the warps list)
//      reads the row once: its peak and sum of squares, the count and mass of its entries
//      >= threshold, whether it holds its diagonal entry; prune_case decides. Threshold,
//      KeepAll and Loop rows know how many entries they keep.
//   2. Bars: the Select and RecoverAll rows (the others return at once) find the k-th largest
//      value they need by a radix select over the row: per 8-bit digit of an order-preserving
//      key, from the top, one pass builds a 256-bin histogram in shared memory of the entries
//      that match the digits chosen so far, and the bin holding the k-th largest is chosen
//      (4 passes for float, 8 for double). A Select row selects among its entries >= threshold
//      (its select-th, and where select_bar may read it its recover-th largest), a RecoverAll
//      row among all. Then counts and masses of the entries >= a bar are single passes; the
//      row's bar comes from select_bar and its kept count from one more pass.
//   3. The kept counts scanned into the pruned panel's row offsets (the one host read of a
//      panel: its size), then the kept entries written in column order (ballot and popc in a
//      warp, a block scan in a long row's block).
// A warp's row is read from L1 or L2 by every pass; a long Select row's candidates are first
// copied to shared memory where they fit (often a few hundred of tens of thousands of entries).
// Nothing is sorted, and the scratch is a few bytes per row. (Sorting the candidates with CUB's
// segmented sort instead, which gives every row over 112 of them a block and a global radix
// sort, cost about three times as much on panels where most rows select.)
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "gpu/spgemm/device_ops.cuh"
#include "gpu/spgemm/internal.hpp"
#include "host/prune_rule.hpp"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/device_csr.hpp"
#include "spgraph/operation_options.hpp"

namespace spgraph::gpu::prune_detail {

using ::spgraph::detail::PruneCase;

constexpr int kRowThreads = 256;   // warp-per-row kernels: 8 rows a block at a time
constexpr int kRowWarps = kRowThreads / 32;
constexpr int kLongThreads = 512;  // a block per long row
constexpr int kLongItems = 4;      // consecutive entries per thread in a long row's compaction step
constexpr eid_t kLongRow = 4096;   // rows with more entries go to a block
constexpr eid_t kMaxLongBlocks = 2048;
constexpr int kBins = 256;         // radix select: 8 bits a pass
constexpr int kStageBytes = 32768; // a long Select row's candidates, where they fit, in shared memory
constexpr unsigned kFullWarp = 0xffffffffu;

// What the summary learns of a row (or of a thread's share of it), in double.
struct RowStats {
  double peak;
  double squares;
  double kept_mass;
  eid_t kept;
  int diagonal;

  __device__ static RowStats none() { return {-std::numeric_limits<double>::infinity(), 0.0, 0.0, 0, 0}; }
  __device__ void add(double v, bool on_diagonal, double threshold) {
    peak = v > peak ? v : peak;
    squares += v * v;
    if (v >= threshold) {
      ++kept;
      kept_mass += v;
    }
    diagonal |= int(on_diagonal);
  }
  __device__ static RowStats merge(const RowStats& a, const RowStats& b) {
    return {a.peak > b.peak ? a.peak : b.peak, a.squares + b.squares, a.kept_mass + b.kept_mass, a.kept + b.kept,
            a.diagonal | b.diagonal};
  }
};

struct MergeStats {
  __device__ RowStats operator()(const RowStats& a, const RowStats& b) const { return RowStats::merge(a, b); }
};

// Sum over the warp, in every lane.
template <class T>
__device__ __forceinline__ T warp_sum(T x) {
  for (int off = 16; off > 0; off >>= 1) x += __shfl_xor_sync(kFullWarp, x, off);
  return x;
}

__device__ __forceinline__ RowStats warp_reduce(RowStats s) {
  for (int off = 16; off > 0; off >>= 1) {
    RowStats o;
    o.peak = __shfl_xor_sync(kFullWarp, s.peak, off);
    o.squares = __shfl_xor_sync(kFullWarp, s.squares, off);
    o.kept_mass = __shfl_xor_sync(kFullWarp, s.kept_mass, off);
    o.kept = __shfl_xor_sync(kFullWarp, s.kept, off);
    o.diagonal = __shfl_xor_sync(kFullWarp, s.diagonal, off);
    s = RowStats::merge(s, o);
  }
  return s;
}

// Of a 256-bin histogram (bins in ascending digit order) holding at least k >= 1 counts: the
// bin of the k-th largest, and k less the counts of the bins above it. One whole warp; every
// lane gets the answer.
__device__ __forceinline__ void warp_pick_digit(const unsigned* hist, eid_t k, int& digit, eid_t& rest) {
  const int lane = int(threadIdx.x & 31);
  constexpr int kPerLane = kBins / 32;
  unsigned c[kPerLane];
  eid_t mine = 0;
#pragma unroll
  for (int j = 0; j < kPerLane; ++j) {
    c[j] = hist[lane * kPerLane + j];
    mine += c[j];
  }
  eid_t from_here = mine;  // counts of this lane's bins and every higher lane's
  for (int off = 1; off < 32; off <<= 1) {
    const eid_t higher = __shfl_down_sync(kFullWarp, from_here, off);
    if (lane + off < 32) from_here += higher;
  }
  eid_t above = from_here - mine;
  int found = -1;
  eid_t left = 0;
#pragma unroll
  for (int j = kPerLane - 1; j >= 0; --j) {
    if (found < 0 && above < k && above + c[j] >= k) {
      found = lane * kPerLane + j;
      left = k - above;
    }
    above += c[j];
  }
  const int src = __ffs(__ballot_sync(kFullWarp, found >= 0)) - 1;
  digit = __shfl_sync(kFullWarp, found, src);
  rest = __shfl_sync(kFullWarp, left, src);
}

// The threads that take one row: a warp (rows of up to kLongRow entries) or a block. Loops over
// a row step by the group's size with the same trip count in every thread, so warp-wide
// intrinsics may be used inside them.
struct WarpGroup {
  static constexpr int kSize = 32;
  static constexpr int kStage = 0;  // a warp's rows are short: their passes read them from L1
  unsigned* hist;  // this warp's kBins counters in shared memory
  void* stage;

  __device__ int rank() const { return int(threadIdx.x & 31); }
  __device__ bool leader() const { return rank() == 0; }
  __device__ void sync() const { __syncwarp(); }
  // The row's total, in every lane.
  __device__ RowStats reduce(const RowStats& s) const { return warp_reduce(s); }
  template <class T>
  __device__ T sum(T x) const {
    return warp_sum(x);
  }
  __device__ void pick_digit(eid_t k, int& digit, eid_t& rest) const {
    __syncwarp();  // the histogram is complete
    warp_pick_digit(hist, k, digit, rest);
  }
  // emit(p, k) for the entries p of [b, e) with keep(p), k counting them in order from 0.
  template <class Keep, class Emit>
  __device__ void compact(eid_t b, eid_t e, Keep keep, Emit emit) const {
    const unsigned below = (1u << rank()) - 1u;
    eid_t out = 0;
    for (eid_t base = b; base < e; base += kSize) {
      const eid_t p = base + rank();
      const bool k = p < e && keep(p);
      const unsigned ballot = __ballot_sync(kFullWarp, k);
      if (k) emit(p, out + __popc(ballot & below));
      out += __popc(ballot);
    }
  }
};

// THREADS threads a row; STAGE bytes of shared memory at `stage` for a Select row's candidates.
template <int THREADS, int STAGE>
struct BlockGroupOf {
  using StatsReduce = cub::BlockReduce<RowStats, THREADS>;
  using CountReduce = cub::BlockReduce<eid_t, THREADS>;
  using MassReduce = cub::BlockReduce<double, THREADS>;
  using Scan = cub::BlockScan<int, THREADS>;
  struct Temp {
    union {
      typename StatsReduce::TempStorage stats;
      typename CountReduce::TempStorage count;
      typename MassReduce::TempStorage mass;
      typename Scan::TempStorage scan;
    } cub;
    unsigned hist[kBins];
    unsigned long long word;  // what thread 0 found, for every thread
  };
  static constexpr int kSize = THREADS;
  static constexpr eid_t kTile = eid_t(kLongItems) * THREADS;
  static constexpr int kStage = STAGE;
  Temp& temp;
  unsigned* hist;
  void* stage;  // kStage bytes of shared memory (where a bar is found)

  __device__ int rank() const { return int(threadIdx.x); }
  __device__ bool leader() const { return threadIdx.x == 0; }
  __device__ void sync() const { __syncthreads(); }
  // The row's total (valid in thread 0).
  __device__ RowStats reduce(const RowStats& s) const {
    const RowStats total = StatsReduce(temp.cub.stats).Reduce(s, MergeStats{});
    __syncthreads();  // temp is reused
    return total;
  }
  // Thread 0's x, in every thread.
  template <class T>
  __device__ T from_leader(T x) const {
    static_assert(sizeof(T) <= sizeof(temp.word));
    if (threadIdx.x == 0) memcpy(&temp.word, &x, sizeof(T));
    __syncthreads();
    T out;
    memcpy(&out, &temp.word, sizeof(T));
    __syncthreads();  // word is reused
    return out;
  }
  // The block's total (eid_t or double), in every thread.
  template <class T>
  __device__ T sum(T x) const {
    if constexpr (std::is_same_v<T, double>) return from_leader(MassReduce(temp.cub.mass).Sum(x));
    else return from_leader(CountReduce(temp.cub.count).Sum(x));
  }
  __device__ void pick_digit(eid_t k, int& digit, eid_t& rest) const {
    __syncthreads();  // the histogram is complete
    if (threadIdx.x < 32) warp_pick_digit(hist, k, digit, rest);
    digit = from_leader(digit);
    rest = from_leader(rest);
  }
  // As WarpGroup::compact; each thread takes kLongItems consecutive entries of a tile.
  template <class Keep, class Emit>
  __device__ void compact(eid_t b, eid_t e, Keep keep, Emit emit) const {
    eid_t out = 0;
    for (eid_t base = b; base < e; base += kTile) {
      const eid_t mine = base + eid_t(threadIdx.x) * kLongItems;
      bool flags[kLongItems];
      int count = 0;
#pragma unroll
      for (int j = 0; j < kLongItems; ++j) {
        flags[j] = mine + j < e && keep(mine + j);
        count += int(flags[j]);
      }
      int before = 0, total = 0;
      Scan(temp.cub.scan).ExclusiveSum(count, before, total);
      eid_t at = out + before;
#pragma unroll
      for (int j = 0; j < kLongItems; ++j)
        if (flags[j]) emit(mine + j, at++);
      out += total;
      __syncthreads();  // temp is reused
    }
  }
};
using BlockGroup = BlockGroupOf<kLongThreads, kStageBytes>;

// Unsigned keys ordered as the values they stand for (CUB's radix sort's twiddle).
template <class V>
struct OrderKey {
  using Key = std::conditional_t<sizeof(V) == 4, std::uint32_t, std::uint64_t>;
  static constexpr Key kSign = Key(1) << (8 * sizeof(V) - 1);
  __device__ static Key of(V v) {
    Key u;
    memcpy(&u, &v, sizeof(V));
    return (u & kSign) ? ~u : (u | kSign);
  }
  __device__ static V value(Key key) {
    const Key u = (key & kSign) ? (key & ~kSign) : ~key;
    V v;
    memcpy(&v, &u, sizeof(V));
    return v;
  }
};

// The k-th largest (k >= 1) of the values v = value(p), p in [b, e), with candidate(double(v)),
// which must number at least k: a radix select, a pass per 8 bits of the key.
template <class V, class Group, class Values, class Candidate>
__device__ double kth_largest(const Group& g, Values value, eid_t b, eid_t e, Candidate candidate, eid_t k) {
  using Key = typename OrderKey<V>::Key;
  Key prefix = 0, mask = 0;  // the key's digits chosen so far
  for (int shift = 8 * int(sizeof(Key)) - 8; shift >= 0; shift -= 8) {
    g.sync();  // the last pass's histogram is read
    for (int bin = g.rank(); bin < kBins; bin += Group::kSize) g.hist[bin] = 0;
    g.sync();
    for (eid_t base = b; base < e; base += Group::kSize) {
      const eid_t p = base + g.rank();
      int bin = -1;
      if (p < e) {
        const V v = value(p);
        const Key u = OrderKey<V>::of(v);
        if ((u & mask) == prefix && candidate(double(v))) bin = int((u >> shift) & Key(kBins - 1));
      }
      // One atomic per distinct bin of the warp: values cluster (the top digits of a row's
      // values mostly agree), and lanes adding to one counter serialise.
      const unsigned peers = __match_any_sync(kFullWarp, bin);
      if (bin >= 0 && int(threadIdx.x & 31) == __ffs(peers) - 1) atomicAdd(g.hist + bin, unsigned(__popc(peers)));
    }
    int digit = 0;
    eid_t rest = 0;
    g.pick_digit(k, digit, rest);
    k = rest;
    prefix |= Key(digit) << shift;
    mask |= Key(kBins - 1) << shift;
  }
  return double(OrderKey<V>::value(prefix));
}

// How many of the values value(p), p in [b, e), are >= x, and their mass, in every thread of
// the group.
template <class Group, class Values>
__device__ eid_t count_at_least(const Group& g, Values value, eid_t b, eid_t e, double x) {
  eid_t n = 0;
  for (eid_t p = b + g.rank(); p < e; p += Group::kSize) n += eid_t(double(value(p)) >= x);
  return g.sum(n);
}
template <class Group, class Values>
__device__ double mass_at_least(const Group& g, Values value, eid_t b, eid_t e, double x) {
  double m = 0;
  for (eid_t p = b + g.rank(); p < e; p += Group::kSize) {
    const double v = double(value(p));
    if (v >= x) m += v;
  }
  return g.sum(m);
}

// A panel's rows (rows [first, first + panel.nrows) of the product) and what is known of each.
template <class V>
struct PanelRows {
  device::CsrView<V> panel;
  vid_t first;
  PruneSpec spec;
  V* peak;              // the product's rows: written at row_of(i)
  V* squares;
  std::uint8_t* how;    // PruneCase per row
  double* bar;          // keep the entries >= bar (Threshold, Select, RecoverAll rows)
  eid_t* keep;          // per row: how many entries are kept (a Select row's entries >= threshold
                        // until its bar is known); then, scanned (nrows + 1), the pruned row offsets
  vid_t* long_rows;     // rows of more than kLongRow entries, in any order
  vid_t* long_count;
  const vid_t* row_ids = nullptr;  // the product's row of each panel row, where not first + i

  __device__ vid_t row_of(vid_t i) const { return row_ids ? row_ids[i] : first + i; }
};

__device__ __forceinline__ bool needs_bar(PruneCase how) {
  return how == PruneCase::Select || how == PruneCase::RecoverAll;
}

// The work on each row, by a warp or a block (its operator()(group, row, begin, end));
// ListsLongRows: the warp kernel lists the long rows (the first pass over a panel), else it skips
// them; Histogram: it needs a histogram per group (and a block's stage) in shared memory.
template <class V, bool ListsLongRows, bool Histogram>
struct RowOp {
  static constexpr bool kListsLongRows = ListsLongRows;
  static constexpr bool kHistogram = Histogram;
  PanelRows<V> r;
};

// A row's summary, the values value(p) at columns col(p), p in [b, e) (its total valid in the
// leader).
template <class Group, class Values, class Cols>
__device__ RowStats summarise_row(const Group& g, Values value, Cols col, eid_t b, eid_t e, vid_t diagonal,
                                  double threshold) {
  RowStats s = RowStats::none();
#pragma unroll 4
  for (eid_t p = b + g.rank(); p < e; p += Group::kSize) s.add(double(value(p)), col(p) == diagonal, threshold);
  return g.reduce(s);
}

// The entries a row of n keeps, where its summary decides it (a RecoverAll row's: once its bar
// is known, 0 until then; a Select row's: its entries >= threshold until then).
__device__ __forceinline__ eid_t kept_by_summary(PruneCase how, const RowStats& s, eid_t n) {
  return how == PruneCase::Threshold || how == PruneCase::Select ? s.kept
         : how == PruneCase::KeepAll                           ? n
         : how == PruneCase::Loop                              ? eid_t(s.diagonal)
                                                               : 0;
}

template <class V>
struct SummaryOp : RowOp<V, true, false> {
  template <class Group>
  __device__ void operator()(const Group& g, vid_t i, eid_t b, eid_t e) const {
    const PanelRows<V>& r = this->r;
    const vid_t diagonal = r.row_of(i);
    const device::CsrView<V>& a = r.panel;
    const RowStats s = summarise_row(
        g, [&a](eid_t p) { return a.value(p); }, [&a](eid_t p) { return a.col[p]; }, b, e, diagonal,
        r.spec.threshold);
    if (!g.leader()) return;
    const eid_t n = e - b;
    r.peak[diagonal] = n > 0 ? V(s.peak) : V(0);
    r.squares[diagonal] = V(s.squares);
    const PruneCase how = ::spgraph::detail::prune_case(n, s.kept, s.kept_mass, r.spec);
    r.how[i] = std::uint8_t(how);
    r.bar[i] = r.spec.threshold;
    r.keep[i] = kept_by_summary(how, s, n);
  }
};

// The bar of a Select row whose entries >= threshold are the values value(p), p in [b, e),
// with candidate(double(v)) (`kept` of them).
template <class W, class Group, class Values, class Candidate>
__device__ double select_row_bar(const Group& g, Values value, eid_t b, eid_t e, Candidate candidate, eid_t kept,
                                 const PruneSpec& s) {
  const double sbar = kth_largest<W>(g, value, b, e, candidate, s.select);
  const eid_t selected = count_at_least(g, value, b, e, sbar);  // ties at sbar included
  // select_bar reads the mass and the recover-th largest only where these hold.
  const bool may_recover = s.recover > 0 && selected < s.recover;
  const double selected_mass = may_recover ? mass_at_least(g, value, b, e, sbar) : 0.0;
  const double recover_bar =
      may_recover && kept > s.recover ? kth_largest<W>(g, value, b, e, candidate, s.recover) : 0.0;
  return ::spgraph::detail::select_bar(sbar, selected, selected_mass, kept, recover_bar, s);
}

// The bar of a Select or RecoverAll row of values value(p), p in [b, e), `kept` of them >=
// threshold, in every thread of the group.
template <class V, class Group, class Values>
__device__ double row_bar(const Group& g, PruneCase how, Values value, eid_t b, eid_t e, eid_t kept,
                          const PruneSpec& s) {
  if (how == PruneCase::RecoverAll)  // more than `recover` entries
    return kth_largest<V>(g, value, b, e, [](double) { return true; }, s.recover);
  // more than `select` entries >= threshold, `kept` of them
  const double threshold = s.threshold;
  if (kept * eid_t(sizeof(V)) <= Group::kStage) {
    // A long row's candidates, often few of many, copied once to shared memory: the passes
    // below then read only them (the bar of a Select row is never below threshold).
    V* const stage = static_cast<V*>(g.stage);
    g.compact(b, e, [&](eid_t p) { return double(value(p)) >= threshold; },
              [&](eid_t p, eid_t k) { stage[k] = value(p); });
    g.sync();
    const auto staged = [stage](eid_t p) { return stage[p]; };
    return select_row_bar<V>(g, staged, 0, kept, [](double) { return true; }, kept, s);
  }
  return select_row_bar<V>(g, value, b, e, [threshold](double v) { return v >= threshold; }, kept, s);
}

// The bar and kept count of each Select and RecoverAll row.
template <class V>
struct BarOp : RowOp<V, false, true> {
  template <class Group>
  __device__ void operator()(const Group& g, vid_t i, eid_t b, eid_t e) const {
    const PanelRows<V>& r = this->r;
    const PruneCase how = PruneCase(r.how[i]);
    if (!needs_bar(how)) return;
    const device::CsrView<V>& a = r.panel;
    const auto in_row = [&a](eid_t p) { return a.value(p); };
    const double bar = row_bar<V>(g, how, in_row, b, e, r.keep[i], r.spec);
    const eid_t kept_now = count_at_least(g, in_row, b, e, bar);
    if (g.leader()) {
      r.bar[i] = bar;
      r.keep[i] = kept_now;
    }
  }
};

// The kept entries, at the pruned row offsets r.keep.
template <class V>
struct WriteOp : RowOp<V, false, false> {
  vid_t* col;
  V* val;
  template <class Group>
  __device__ void operator()(const Group& g, vid_t i, eid_t b, eid_t e) const {
    const PanelRows<V>& r = this->r;
    const PruneCase how = PruneCase(r.how[i]);
    const eid_t at = r.keep[i];
    if (how == PruneCase::Loop) {  // the diagonal entry alone, set to 1, where the row holds it
      if (g.leader() && r.keep[i + 1] > at) {
        col[at] = r.row_of(i);
        val[at] = V(1);
      }
      return;
    }
    const bool all = how == PruneCase::KeepAll;
    const double bar = r.bar[i];
    const device::CsrView<V>& a = r.panel;
    g.compact(b, e, [&](eid_t p) { return all || double(a.value(p)) >= bar; },
              [&](eid_t p, eid_t k) {
                col[at + k] = a.col[p];
                val[at + k] = a.value(p);
              });
  }
};

// A warp per row of at most kLongRow entries.
template <class Op>
__global__ void __launch_bounds__(kRowThreads) warp_rows_kernel(Op op) {
  __shared__ unsigned hist[Op::kHistogram ? kRowWarps : 1][kBins];
  const WarpGroup g{hist[Op::kHistogram ? threadIdx.x / 32 : 0], nullptr};
  const auto& r = op.r;
  const eid_t warps = (eid_t(gridDim.x) * blockDim.x) >> 5;
  for (eid_t w = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; w < r.panel.nrows; w += warps) {
    const vid_t i = vid_t(w);
    const eid_t b = r.panel.rowptr[i], e = r.panel.rowptr[i + 1];
    if (e - b > kLongRow) {
      if constexpr (Op::kListsLongRows) {
        if (g.leader()) r.long_rows[atomicAdd(r.long_count, vid_t(1))] = i;
      }
      continue;
    }
    op(g, i, b, e);
  }
}

// A block per listed long row.
template <class Op>
__global__ void __launch_bounds__(kLongThreads) block_rows_kernel(Op op) {
  __shared__ BlockGroup::Temp temp;
  __shared__ double stage[Op::kHistogram ? kStageBytes / sizeof(double) : 1];
  const BlockGroup g{temp, temp.hist, stage};
  const auto& r = op.r;
  const vid_t count = *r.long_count;
  for (vid_t k = vid_t(blockIdx.x); k < count; k += vid_t(gridDim.x)) {
    const vid_t i = r.long_rows[k];
    op(g, i, r.panel.rowptr[i], r.panel.rowptr[i + 1]);
    __syncthreads();  // the next row reuses temp
  }
}

// Every row of the panel under op: the short ones by warps, then the long ones (at most
// max_long of them, listed by the summary) by blocks.
template <class Op>
void for_rows(const Op& op, eid_t max_long, cudaStream_t stream) {
  const vid_t n = op.r.panel.nrows;
  if (n == 0) return;
  warp_rows_kernel<Op><<<spgemm_detail::grid_for(eid_t(n) * 32, kRowThreads), kRowThreads, 0, stream>>>(op);
  SPGRAPH_CHECK_LAUNCH("prune_rows warp_rows_kernel");
  if (max_long > 0) {
    block_rows_kernel<Op><<<unsigned(std::min(max_long, kMaxLongBlocks)), kLongThreads, 0, stream>>>(op);
    SPGRAPH_CHECK_LAUNCH("prune_rows block_rows_kernel");
  }
}

// Rows [first, first + panel.nrows) of the product, or the rows row_ids[i] where given, pruned:
// their own CSR (sorted columns, as the panel's). peak and squares (the product's rows) get the
// panel's rows.
template <class V>
device::DeviceCsr<V> prune_panel(const device::DeviceCsr<V>& panel, vid_t first, const PruneSpec& spec, V* peak,
                                 V* squares, cudaStream_t stream, const vid_t* row_ids = nullptr) {
  const vid_t n = panel.nrows;
  const eid_t max_long = panel.nnz() / (kLongRow + 1);
  device::Buffer<std::uint8_t> how(n, stream);
  device::Buffer<double> bar(n, stream);
  device::Buffer<eid_t> keep(std::size_t(n) + 1, stream);
  device::Buffer<vid_t> long_rows(std::size_t(std::max<eid_t>(max_long, 1)), stream), long_count(1, stream);
  long_count.fill_zero();
  SPGRAPH_CUDA(cudaMemsetAsync(keep.data() + n, 0, sizeof(eid_t), stream));  // the scan's last input
  const PanelRows<V> rows{panel.view(), first,       spec,          peak,          squares, how.data(),
                          bar.data(),   keep.data(), long_rows.data(), long_count.data(), row_ids};
  for_rows(SummaryOp<V>{{rows}}, max_long, stream);
  for_rows(BarOp<V>{{rows}}, max_long, stream);
  spgemm_detail::exclusive_scan(keep.data(), keep.data(), eid_t(n) + 1, stream);
  const eid_t kept = device::read_value(keep.data() + n, stream);
  device::DeviceCsr<V> out;
  out.nrows = n;
  out.ncols = panel.ncols;
  out.col = device::Buffer<vid_t>(kept, stream);
  out.val = device::Buffer<V>(kept, stream);
  if (kept > 0) for_rows(WriteOp<V>{{rows}, out.col.data(), out.val.data()}, max_long, stream);
  out.rowptr = std::move(keep);  // the same memory the writes read: no copy
  return out;
}

}  // namespace spgraph::gpu::prune_detail
