#pragma once
// MCL's pruned expansion without a symbolic pass (mxm_prune_rows.cu takes it for heavy
// products). A block of 1024 threads takes a row at a time:
//   1. Its products are summed densely in shared memory, kTileBytes of columns at a time (a
//      warp per entry of A's row; B's rows are sorted, so each entry resumes its B row where the
//      last tile stopped). No keys, no probing, no table sized in advance.
//   2. Each tile's entries go to the block's scratch in global memory in column order (a scan
//      over the tile's 32-column chunks, only those touched read): one row a block, so the
//      scratch stays in L2.
//   3. The row is pruned there by prune_rows_impl.cuh's rules (the summary, the bar by a radix
//      select, the kept entries compacted) and only what it keeps is staged: at most
//      max(select, recover) entries a row.
// A row keeping more (ties at its bar) goes to an overflow area; rows that find no room there
// are left over to the hash product's panels. A's rows longer than the shared cursors keep
// theirs in global memory. Presence needs no bitmap: a tile starts at -0.0, and where no value
// of A or B has its sign bit set every product is >= +0.0, so a column is present exactly where
// its bits are no longer -0.0's (-0.0 + x = x for x >= +0.0).
#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "gpu/spgemm/device_ops.cuh"
#include "gpu/spgemm/internal.hpp"
#include "gpu/spgemm/prune_rows_impl.cuh"
#include "spgraph/device/cuda_check.hpp"
#include "spgraph/device/device_csr.hpp"
#include "spgraph/device/device_info.hpp"
#include "spgraph/gpu/spgemm.hpp"

namespace spgraph::gpu::prune_detail {

constexpr int kTileThreads = 1024;
constexpr int kTileWarps = kTileThreads / 32;
constexpr int kTileBytes = 128 * 1024;  // the dense accumulator, then a Select row's candidates
constexpr int kTileCursors = 2048;      // entries of A's row whose place in their B row is kept
// Chunks of 32 entries of B a warp loads at once, by the size of B's values as loaded: more
// loads in flight hide more latency, until the registers spill (docs/performance/mcl.md, "Loads
// a step").
template <class BV>
constexpr int kTileStep = sizeof(BV) == 4 ? 6 : 2;

template <class V>
struct Tile {
  static constexpr int kColumns = kTileBytes / int(sizeof(V));
  static constexpr int kChunks = kColumns / 32;
  static_assert(kChunks <= kTileThreads, "a thread scans a chunk");
  // Dynamic shared memory: the tile, then per entry of A's row where its B row resumes, where
  // it ends, and its value.
  static constexpr std::size_t kResumeAt = kTileBytes;
  static constexpr std::size_t kEndAt = kResumeAt + kTileCursors * sizeof(eid_t);
  static constexpr std::size_t kValueAt = kEndAt + kTileCursors * sizeof(eid_t);
  static constexpr std::size_t kSharedBytes = kValueAt + kTileCursors * sizeof(V);
  using Bits = std::conditional_t<sizeof(V) == 4, std::uint32_t, std::uint64_t>;
  __device__ static V empty() { return -V(0); }
  __device__ static bool is_empty(V v) {
    Bits u, e;
    const V z = empty();
    memcpy(&u, &v, sizeof(V));
    memcpy(&e, &z, sizeof(V));
    return u == e;
  }
};

// What the kernel reads and writes for rows [first, last) of A*B.
template <class V>
struct TileJob {
  device::CsrView<V> a, b;
  const float* b_float;  // a double B's values as floats, read where the kernel's BV is float
  const vid_t* min_col;  // the columns the row's products reach (spgemm_detail::RowStats)
  const vid_t* max_col;
  vid_t first, last;
  PruneSpec spec;
  eid_t cap;             // entries a row may stage
  vid_t* stage_col;      // row i's kept entries at (i - first) * cap
  V* stage_val;
  eid_t* kept;           // per row i - first; a left-over row's is set afterwards
  vid_t* overflow_col;   // rows keeping more than cap, at overflow_at[i - first] (-1 elsewhere)
  V* overflow_val;
  eid_t* overflow_at;
  eid_t overflow_cap;
  unsigned long long* overflow_used;
  V* peak;               // per row of the product
  V* squares;
  vid_t* scratch_col;    // scratch_cap entries a block
  V* scratch_val;
  eid_t scratch_cap;
  eid_t* long_resume;    // the cursors of A's rows longer than kTileCursors: long_cap a block
  eid_t* long_end;
  V* long_val;
  eid_t long_cap;
  vid_t* left_over;      // rows for the panel path, *left_count of them
  vid_t* left_count;
  vid_t* next_row;       // the blocks' row counter, from 0
  unsigned long long* entries;  // entries of the product before pruning
  int* error;
};

// BV: the type B's values are loaded as (float where they all are floats: half the bytes).
template <class V, class BV>
__global__ void __launch_bounds__(kTileThreads, 1) tile_prune_kernel(TileJob<V> job) {
  using T = Tile<V>;
  using Group = BlockGroupOf<kTileThreads, kTileBytes>;
  using Scan = cub::BlockScan<unsigned, kTileThreads>;
  extern __shared__ __align__(16) unsigned char smem[];
  V* const tile = reinterpret_cast<V*>(smem);
  __shared__ std::uint8_t touched[T::kChunks];
  __shared__ unsigned present[T::kChunks];
  __shared__ unsigned before[T::kChunks];
  eid_t* const shared_resume = reinterpret_cast<eid_t*>(smem + T::kResumeAt);
  eid_t* const shared_end = reinterpret_cast<eid_t*>(smem + T::kEndAt);
  V* const shared_val = reinterpret_cast<V*>(smem + T::kValueAt);
  __shared__ typename Scan::TempStorage scan;
  __shared__ typename Group::Temp temp;
  __shared__ vid_t s_row;
  __shared__ vid_t s_next;  // the smallest column a product left for later tiles reaches
  const Group g{temp, temp.hist, tile};
  const int lane = int(threadIdx.x & 31), warp = int(threadIdx.x >> 5);
  const device::CsrView<V>& a = job.a;
  const device::CsrView<V>& b = job.b;
  const BV* b_val;
  if constexpr (std::is_same_v<BV, V>)
    b_val = b.val;
  else
    b_val = job.b_float;
  vid_t* const scol = job.scratch_col + eid_t(blockIdx.x) * job.scratch_cap;
  V* const sval = job.scratch_val + eid_t(blockIdx.x) * job.scratch_cap;
  constexpr vid_t kNoColumn = std::numeric_limits<vid_t>::max();
  for (int s = threadIdx.x; s < T::kColumns; s += kTileThreads) tile[s] = T::empty();
  for (int c = threadIdx.x; c < T::kChunks; c += kTileThreads) touched[c] = 0;
  if (threadIdx.x == 0) s_next = kNoColumn;
  const auto leave = [&](vid_t row) {
    if (threadIdx.x == 0) job.left_over[atomicAdd(job.left_count, vid_t(1))] = row;
  };

  while (true) {
    __syncthreads();  // the last row is done with the shared arrays
    if (threadIdx.x == 0) s_row = job.first + atomicAdd(job.next_row, vid_t(1));
    __syncthreads();
    const vid_t row = s_row;
    if (row >= job.last) return;
    const eid_t a0 = a.rowptr[row], a1 = a.rowptr[row + 1];
    const bool long_row = a1 - a0 > kTileCursors;
    const eid_t long_at = eid_t(blockIdx.x) * job.long_cap;
    eid_t* const resume = long_row ? job.long_resume + long_at : shared_resume;
    eid_t* const end = long_row ? job.long_end + long_at : shared_end;
    V* const a_val = long_row ? job.long_val + long_at : shared_val;
    for (eid_t j = a0 + threadIdx.x; j < a1; j += kTileThreads) {
      const vid_t k = a.col[j];
      resume[j - a0] = b.rowptr[k];
      end[j - a0] = b.rowptr[k + 1];
      a_val[j - a0] = a.val[j];
    }

    // 1-2. The row's entries into the scratch, a tile at a time; each tile starts at the
    // smallest column left, so tiles skip the spans no product reaches.
    const int entries = int(a1 - a0);
    const eid_t hi = job.max_col[row];
    eid_t n = 0;
    for (eid_t t0 = job.min_col[row]; t0 <= hi;) {
      const eid_t t1 = std::min<eid_t>(hi + 1, t0 + T::kColumns);
      __syncthreads();  // the cursors are set, the last tile written out, s_next reset
      for (int e = warp; e < entries; e += kTileWarps) {
        const V av = a_val[e];
        const eid_t qe = end[e];
        eid_t q = resume[e];
        while (true) {
          // STEP chunks of 32 entries loaded at once, each value beside its column: one wait
          // a step (a lane past the tile loads again with the next tile).
          constexpr int STEP = kTileStep<BV>;
          vid_t c[STEP];
          BV bv[STEP];
#pragma unroll
          for (int k = 0; k < STEP; ++k) {
            const eid_t p = q + k * 32 + lane;
            const bool real = p < qe;
            c[k] = real ? b.col[p] : kNoColumn;
            bv[k] = real ? b_val[p] : BV(0);
          }
          int took_all = 0;
          bool stop = false;
#pragma unroll
          for (int k = 0; k < STEP; ++k) {
            if (stop) break;  // the same in every lane
            const bool in = eid_t(c[k]) < t1;
            if (in) {
              const unsigned off = unsigned(eid_t(c[k]) - t0);
              spgemm_detail::accumulate<monoid::Plus>(tile + off, av * V(bv[k]));
              touched[off >> 5] = 1;
            }
            const unsigned took = __ballot_sync(kFullWarp, in);  // a prefix of the lanes: B's row is sorted
            took_all += __popc(took);
            if (took != kFullWarp) {
              if (lane == __popc(took) && c[k] != kNoColumn) atomicMin(&s_next, c[k]);
              stop = true;
            }
          }
          q += took_all;
          if (stop) break;
        }
        if (lane == 0) resume[e] = q;
      }
      __syncthreads();
      const eid_t next = s_next;
      const int chunks = int((t1 - t0 + 31) / 32);
      for (int c = warp; c < chunks; c += kTileWarps) {
        unsigned bits = 0;
        if (touched[c]) bits = __ballot_sync(kFullWarp, !T::is_empty(tile[c * 32 + lane]));
        if (lane == 0) present[c] = bits;
      }
      __syncthreads();
      if (threadIdx.x == 0) s_next = kNoColumn;  // read above by every thread
      unsigned at = 0, total = 0;
      Scan(scan).ExclusiveSum(int(threadIdx.x) < chunks ? unsigned(__popc(present[threadIdx.x])) : 0u, at, total);
      if (int(threadIdx.x) < chunks) before[threadIdx.x] = at;
      __syncthreads();
      if (n + total > job.scratch_cap) {  // the scratch holds B's columns: never
        if (threadIdx.x == 0) *job.error = spgemm_detail::kErrorTableFull;
        return;
      }
      for (int c = warp; c < chunks; c += kTileWarps) {
        const unsigned bits = present[c];
        if (bits & (1u << lane)) {
          const eid_t p = n + before[c] + __popc(bits & ((1u << lane) - 1u));
          const int s = c * 32 + lane;
          scol[p] = vid_t(t0 + s);
          sval[p] = tile[s];
          tile[s] = T::empty();
        }
        if (lane == 0) touched[c] = 0;
      }
      n += total;
      t0 = next == kNoColumn ? hi + 1 : next;
    }
    __syncthreads();  // the scratch is written

    // 3. The row pruned in the scratch.
    const auto value = [sval](eid_t p) { return sval[p]; };
    const RowStats s = summarise_row(
        g, value, [scol](eid_t p) { return scol[p]; }, 0, n, row, job.spec.threshold);
    PruneCase how{};
    eid_t kept = 0;
    if (g.leader()) {
      job.peak[row] = n > 0 ? V(s.peak) : V(0);
      job.squares[row] = V(s.squares);
      how = ::spgraph::detail::prune_case(n, s.kept, s.kept_mass, job.spec);
      kept = kept_by_summary(how, s, n);
    }
    how = g.from_leader(how);
    kept = g.from_leader(kept);
    double bar = job.spec.threshold;
    if (needs_bar(how)) {
      bar = row_bar<V>(g, how, value, 0, n, kept, job.spec);
      kept = count_at_least(g, value, 0, n, bar);
    }
    // A row keeping more than its stage holds (ties at its bar) goes to the overflow area while
    // that has room, else to the panels.
    const vid_t i = row - job.first;
    eid_t at = eid_t(i) * job.cap;
    vid_t* out_col = job.stage_col;
    V* out_val = job.stage_val;
    if (kept > job.cap) {
      eid_t reserved = 0;
      if (g.leader()) reserved = eid_t(atomicAdd(job.overflow_used, static_cast<unsigned long long>(kept)));
      at = g.from_leader(reserved);
      out_col = job.overflow_col;
      out_val = job.overflow_val;
    }
    if (kept > job.cap && at + kept > job.overflow_cap) {
      leave(row);
    } else {
      if (how == PruneCase::Loop) {  // the diagonal entry alone, set to 1, where the row holds it
        if (g.leader() && kept > 0) {
          out_col[at] = row;
          out_val[at] = V(1);
        }
      } else {
        const bool all = how == PruneCase::KeepAll;
        g.compact(0, n, [&](eid_t p) { return all || double(sval[p]) >= bar; },
                  [&](eid_t p, eid_t k) {
                    out_col[at + k] = scol[p];
                    out_val[at + k] = sval[p];
                  });
      }
      if (g.leader()) {
        job.kept[i] = kept;
        if (kept > job.cap) job.overflow_at[i] = at;
        atomicAdd(job.entries, static_cast<unsigned long long>(n));  // a left-over row's: the panels count it
      }
    }
    if (needs_bar(how)) {  // the tile held the candidates
      __syncthreads();
      for (int t = threadIdx.x; t < T::kColumns; t += kTileThreads) tile[t] = T::empty();
    }
  }
}

__global__ void longest_row_kernel(const eid_t* rowptr, vid_t n, unsigned long long* longest) {
  unsigned long long mine = 0;
  for (vid_t i = vid_t(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += vid_t(gridDim.x * blockDim.x))
    mine = max(mine, static_cast<unsigned long long>(rowptr[i + 1] - rowptr[i]));
  if (mine > 0) atomicMax(longest, mine);
}

// Where the listed rows of a chunk come from: left_slot[i] >= 0 names row i's place among the
// left-over rows, whose pruned product `left` holds in list order; the others were staged.
template <class V>
__global__ void left_over_counts_kernel(const vid_t* rows, vid_t count, vid_t first, device::CsrView<V> left,
                                        eid_t* kept, int* left_slot) {
  for (vid_t k = vid_t(blockIdx.x * blockDim.x + threadIdx.x); k < count; k += vid_t(gridDim.x * blockDim.x)) {
    const vid_t i = rows[k] - first;
    kept[i] = left.rowptr[k + 1] - left.rowptr[k];
    left_slot[i] = int(k);
  }
}

// The chunk's pruned rows into one CSR (rowptr scanned from kept): a warp a row, from the panels'
// product of the left-over rows, the overflow area or the stage.
template <class V>
__global__ void assemble_kernel(vid_t rows, const eid_t* rowptr, const vid_t* stage_col, const V* stage_val, eid_t cap,
                                const vid_t* overflow_col, const V* overflow_val, const eid_t* overflow_at,
                                const int* left_slot, device::CsrView<V> left, vid_t* col, V* val) {
  const int lane = int(threadIdx.x & 31);
  const eid_t warps = (eid_t(gridDim.x) * blockDim.x) >> 5;
  for (eid_t w = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5; w < rows; w += warps) {
    const vid_t i = vid_t(w);
    const eid_t at = rowptr[i], n = rowptr[i + 1] - at;
    const int slot = left_slot[i];
    const eid_t over = overflow_at[i];
    const eid_t from = slot >= 0 ? left.rowptr[slot] : over >= 0 ? over : eid_t(i) * cap;
    const vid_t* from_col = (slot >= 0 ? left.col : over >= 0 ? overflow_col : stage_col) + from;
    const V* from_val = (slot >= 0 ? left.val : over >= 0 ? overflow_val : stage_val) + from;
    for (eid_t k = lane; k < n; k += 32) {
      col[at + k] = from_col[k];
      val[at + k] = from_val[k];
    }
  }
}

template <class V>
__global__ void sign_bits_kernel(const V* v, eid_t n, int* found) {
  using Bits = typename Tile<V>::Bits;
  constexpr Bits kSign = Bits(1) << (8 * sizeof(V) - 1);
  bool any = false;
  for (eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += eid_t(gridDim.x) * blockDim.x) {
    Bits u;
    memcpy(&u, v + p, sizeof(V));
    any |= (u & kSign) != 0;
  }
  if (__syncthreads_or(any) && threadIdx.x == 0) *found = 1;
}

// Whether a value of m has its sign bit set (-0.0 and negative NaNs included): the tiles then
// cannot tell a column's presence from its value.
template <class V>
bool has_sign_bits(const device::DeviceCsr<V>& m, cudaStream_t stream) {
  if (m.nnz() == 0) return false;
  device::Buffer<int> found(1, stream);
  found.fill_zero();
  constexpr int threads = 256;
  sign_bits_kernel<V><<<spgemm_detail::grid_for(m.nnz(), threads), threads, 0, stream>>>(m.val.data(), m.nnz(),
                                                                                        found.data());
  SPGRAPH_CHECK_LAUNCH("sign_bits_kernel");
  return device::read_value(found.data(), stream) != 0;
}

__global__ void narrow_kernel(const double* v, eid_t n, float* out, int* inexact) {
  bool lost = false;
  for (eid_t p = eid_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += eid_t(gridDim.x) * blockDim.x) {
    const float f = float(v[p]);
    out[p] = f;
    lost |= double(f) != v[p];
  }
  if (__syncthreads_or(lost) && threadIdx.x == 0) *inexact = 1;
}

// m's values as floats where every one is a float (an MCL iterate's, rounded as mcl holds it):
// the tiles then load half the bytes and sum exactly the same products. Empty where one is not.
inline std::optional<device::Buffer<float>> float_values(const device::DeviceCsr<double>& m, cudaStream_t stream) {
  device::Buffer<float> out(m.nnz(), stream);
  device::Buffer<int> inexact(1, stream);
  inexact.fill_zero();
  constexpr int threads = 256;
  if (m.nnz() > 0) {
    narrow_kernel<<<spgemm_detail::grid_for(m.nnz(), threads), threads, 0, stream>>>(m.val.data(), m.nnz(), out.data(),
                                                                                     inexact.data());
    SPGRAPH_CHECK_LAUNCH("narrow_kernel");
  }
  if (device::read_value(inexact.data(), stream) != 0) return std::nullopt;
  return out;
}

// The product's rows the tiles left over (host list, any order), pruned: their CSR in list
// order, peak and squares written at their rows.
template <class V>
using LeftOverRows = std::function<device::DeviceCsr<V>(const std::vector<vid_t>& rows, SpgemmInfo& info)>;

// Bytes of device memory the tiles take besides the stage and the overflow area, which take what
// the caller gives them: the blocks' scratch (a row of B's columns a block) and a double B's
// values as floats.
template <class V>
std::size_t tile_scratch_bytes(vid_t ncols, eid_t b_nnz) {
  const std::size_t as_floats = std::is_same_v<V, double> ? std::size_t(b_nnz) * sizeof(float) : 0;
  return std::size_t(device::multiprocessor_count()) * std::size_t(ncols) * (sizeof(vid_t) + sizeof(V)) + as_floats;
}

// A*B pruned by spec in pieces of consecutive rows, every row through the tiles or left over;
// stats: row_stats(A, B). The stage takes at most stage_room bytes at once (a piece's rows);
// info gets the figures.
template <class V>
std::vector<device::DeviceCsr<V>> tiled_pruned_product(const device::DeviceCsr<V>& A, const device::DeviceCsr<V>& B,
                                                       const spgemm_detail::RowStats& stats, const PruneSpec& spec,
                                                       std::size_t stage_room, V* peak, V* squares,
                                                       const LeftOverRows<V>& left, SpgemmInfo& info,
                                                       cudaStream_t stream) {
  using spgemm_detail::exclusive_scan;
  const vid_t n = A.nrows;
  const eid_t cap = std::max<eid_t>(std::max<eid_t>(spec.select, spec.recover), 1);
  const int blocks = device::multiprocessor_count();
  const eid_t scratch_cap = std::max<eid_t>(B.ncols, 1);
  device::Buffer<vid_t> scratch_col(std::size_t(blocks) * scratch_cap, stream);
  device::Buffer<V> scratch_val(std::size_t(blocks) * scratch_cap, stream);
  // A's rows longer than the shared cursors keep theirs in global memory.
  eid_t long_cap = 0;
  {
    device::Buffer<unsigned long long> longest(1, stream);
    longest.fill_zero();
    constexpr int threads = 256;
    longest_row_kernel<<<spgemm_detail::grid_for(n, threads), threads, 0, stream>>>(A.rowptr.data(), n,
                                                                                   longest.data());
    SPGRAPH_CHECK_LAUNCH("longest_row_kernel");
    const auto a_longest = static_cast<eid_t>(device::read_value(longest.data(), stream));
    if (a_longest > kTileCursors) long_cap = a_longest;
  }
  const std::size_t long_entries = std::size_t(blocks) * long_cap;
  device::Buffer<eid_t> long_resume(long_entries, stream), long_end(long_entries, stream);
  device::Buffer<V> long_val(long_entries, stream);
  // Three quarters of the room to the stage, a quarter to the overflow area.
  constexpr std::size_t kEntry = sizeof(vid_t) + sizeof(V);
  const std::size_t per_row = std::size_t(cap) * kEntry + 2 * sizeof(eid_t) + sizeof(int);
  const vid_t chunk =
      vid_t(std::clamp<std::size_t>(stage_room / 4 * 3 / per_row, 1, std::size_t(std::max<vid_t>(n, 1))));
  const eid_t overflow_cap = eid_t(stage_room / 4 / kEntry);
  device::Buffer<vid_t> stage_col(std::size_t(chunk) * cap, stream), overflow_col(overflow_cap, stream);
  device::Buffer<V> stage_val(std::size_t(chunk) * cap, stream), overflow_val(overflow_cap, stream);
  device::Buffer<eid_t> kept(std::size_t(chunk) + 1, stream), overflow_at(chunk, stream);
  device::Buffer<int> left_slot(chunk, stream);
  device::Buffer<vid_t> left_rows(chunk, stream);
  // Counters: next row and left-over count, the overflow used, then the error word and the
  // entries (8-byte words).
  device::Buffer<unsigned long long> counters(4, stream);
  auto* words = reinterpret_cast<vid_t*>(counters.data());
  auto* overflow_used = counters.data() + 1;
  auto* error = reinterpret_cast<int*>(counters.data() + 2);
  auto* entries = counters.data() + 3;
  SPGRAPH_CUDA(cudaMemsetAsync(counters.data() + 2, 0, 2 * sizeof(unsigned long long), stream));
  std::optional<device::Buffer<float>> narrowed;
  if constexpr (std::is_same_v<V, double>) narrowed = float_values(B, stream);
  auto kernel = tile_prune_kernel<V, V>;
  if constexpr (std::is_same_v<V, double>)
    if (narrowed) kernel = tile_prune_kernel<V, float>;
  SPGRAPH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(Tile<V>::kSharedBytes)));

  std::vector<device::DeviceCsr<V>> pieces;
  for (vid_t first = 0; first < n; first += chunk) {
    const vid_t last = std::min<vid_t>(n, first + chunk), rows = last - first;
    SPGRAPH_CUDA(cudaMemsetAsync(counters.data(), 0, 2 * sizeof(unsigned long long), stream));
    SPGRAPH_CUDA(cudaMemsetAsync(overflow_at.data(), 0xff, std::size_t(rows) * sizeof(eid_t), stream));
    SPGRAPH_CUDA(cudaMemsetAsync(kept.data(), 0, (std::size_t(rows) + 1) * sizeof(eid_t), stream));
    SPGRAPH_CUDA(cudaMemsetAsync(left_slot.data(), 0xff, std::size_t(rows) * sizeof(int), stream));
    const TileJob<V> job{A.view(),
                         B.view(),
                         narrowed ? narrowed->data() : nullptr,
                         stats.min_col.data(),
                         stats.max_col.data(),
                         first,
                         last,
                         spec,
                         cap,
                         stage_col.data(),
                         stage_val.data(),
                         kept.data(),
                         overflow_col.data(),
                         overflow_val.data(),
                         overflow_at.data(),
                         overflow_cap,
                         overflow_used,
                         peak,
                         squares,
                         scratch_col.data(),
                         scratch_val.data(),
                         scratch_cap,
                         long_resume.data(),
                         long_end.data(),
                         long_val.data(),
                         long_cap,
                         left_rows.data(),
                         words + 1,
                         words,
                         entries,
                         error};
    kernel<<<unsigned(blocks), kTileThreads, Tile<V>::kSharedBytes, stream>>>(job);
    SPGRAPH_CHECK_LAUNCH("tile_prune_kernel");
    spgemm_detail::check_kernel_error(device::read_value(error, stream), "mxm_prune_rows (tiles)");
    const vid_t left_count = device::read_value(words + 1, stream);
    device::DeviceCsr<V> left_product;
    if (left_count > 0) {
      std::vector<vid_t> listed(static_cast<std::size_t>(left_count));
      device::copy_to_host(listed.data(), left_rows.data(), listed.size() * sizeof(vid_t), stream);
      left_product = left(listed, info);
      constexpr int threads = 256;
      left_over_counts_kernel<V><<<spgemm_detail::grid_for(left_count, threads), threads, 0, stream>>>(
          left_rows.data(), left_count, first, left_product.view(), kept.data(), left_slot.data());
      SPGRAPH_CHECK_LAUNCH("left_over_counts_kernel");
    }
    device::DeviceCsr<V> piece;
    piece.nrows = rows;
    piece.ncols = B.ncols;
    piece.rowptr = device::Buffer<eid_t>(std::size_t(rows) + 1, stream);
    exclusive_scan(kept.data(), piece.rowptr.data(), eid_t(rows) + 1, stream);
    const eid_t nnz = device::read_value(piece.rowptr.data() + rows, stream);
    piece.col = device::Buffer<vid_t>(nnz, stream);
    piece.val = device::Buffer<V>(nnz, stream);
    if (nnz > 0) {
      constexpr int threads = 256;
      assemble_kernel<V><<<spgemm_detail::grid_for(eid_t(rows) * 32, threads), threads, 0, stream>>>(
          rows, piece.rowptr.data(), stage_col.data(), stage_val.data(), cap, overflow_col.data(), overflow_val.data(),
          overflow_at.data(), left_slot.data(), left_product.view(), piece.col.data(), piece.val.data());
      SPGRAPH_CHECK_LAUNCH("assemble_kernel");
    }
    pieces.push_back(std::move(piece));
  }
  info.panels = int(pieces.size());
  info.nnz += static_cast<eid_t>(device::read_value(entries, stream));
  return pieces;
}

}  // namespace spgraph::gpu::prune_detail
