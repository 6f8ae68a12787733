// WordBfs (spgraph/gpu/word_bfs.hpp): a pull level is one kernel over the vertices, 4 threads
// a vertex splitting its in-links; a push level is a kernel over the frontier's out-links and
// one settling the vertices. Each level ends with two 64-bit counters read back: the OR of every
// vertex's new bits (which sources still search) and the links out of the new frontier.
// WordExpansion (spgraph/gpu/word_expansion.hpp): the same push and the same pull walk on a
// block, without settling; parents as a list of candidates instead of a vector of k * n.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/word_bfs.hpp"
#include "spgraph/gpu/word_expansion.hpp"

namespace spgraph::gpu {
namespace {

using Word = unsigned long long;
constexpr int kThreads = 256;
constexpr int kGroup = 4;  // threads per vertex
constexpr unsigned kFullWarp = 0xffffffffu;

unsigned grid_for(eid_t items) {
  const eid_t blocks = (items + kThreads - 1) / kThreads;
  return unsigned(blocks < 1 ? 1 : (blocks > (eid_t(1) << 20) ? (eid_t(1) << 20) : blocks));
}

__global__ void start_kernel(const vid_t* __restrict__ sources, int k, vid_t n, Word* seen, Word* frontier,
                             std::int32_t* levels) {
  const int b = threadIdx.x;
  if (b >= k) return;
  atomicOr(seen + sources[b], Word(1) << b);
  atomicOr(frontier + sources[b], Word(1) << b);
  if (levels) levels[std::size_t(b) * n + sources[b]] = 0;
}

__global__ void fill_kernel(std::int32_t* out, std::size_t count, std::int32_t value) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) out[i] = value;
}

struct Counters {
  Word found;                    // OR of the new bits of every vertex
  unsigned long long links;      // links out of the vertices with new bits (the next frontier)
};

// v gets the new bits `fresh`: seen, levels, the next frontier; returns the links it adds.
__device__ __forceinline__ unsigned long long settle(vid_t v, vid_t n, Word s, Word fresh, Word* __restrict__ next,
                                                     Word* __restrict__ seen, std::int32_t depth,
                                                     std::int32_t* __restrict__ levels,
                                                     const eid_t* __restrict__ out_rowptr) {
  next[v] = fresh;
  if (!fresh) return 0;
  seen[v] = s | fresh;
  if (levels)
    for (Word bits = fresh; bits; bits &= bits - 1)
      levels[std::size_t(__ffsll(static_cast<long long>(bits)) - 1) * n + v] = depth;
  return static_cast<unsigned long long>(out_rowptr[v + 1] - out_rowptr[v]);
}

// The warp's found bits and links, into the level's counters.
__device__ __forceinline__ void add_counters(Word found, unsigned long long links, Counters* counters) {
  for (int off = 16; off > 0; off >>= 1) {
    found |= __shfl_xor_sync(kFullWarp, found, off);
    links += __shfl_xor_sync(kFullWarp, links, off);
  }
  if ((threadIdx.x & 31) == 0) {
    if (found) atomicOr(&counters->found, found);
    if (links) atomicAdd(&counters->links, links);
  }
}

// Where a level's parents go: record(v, u, bits) makes u a parent of v for each source of bits.
// The whole graph's search writes them into the vector of k * n (parent[b * n + v]); a block's
// appends candidates to a list, counting past its capacity so that the host can size it and
// walk the level again.
struct ParentVector {
  vid_t* parents;  // null: no parents asked for
  vid_t n;
  __device__ explicit operator bool() const { return parents != nullptr; }
  __device__ void operator()(vid_t v, vid_t u, Word bits) const {
    for (; bits; bits &= bits - 1) parents[std::size_t(__ffsll(static_cast<long long>(bits)) - 1) * n + v] = u;
  }
};
struct ParentList {
  WordParentCandidate* list;
  unsigned long long* count;  // null: no parents asked for
  unsigned long long capacity;
  __device__ explicit operator bool() const { return count != nullptr; }
  __device__ void operator()(vid_t v, vid_t u, Word bits) const {
    unsigned long long at = atomicAdd(count, static_cast<unsigned long long>(__popcll(bits)));
    for (; bits; bits &= bits - 1, ++at)
      if (at < capacity) list[at] = {v, u, __ffsll(static_cast<long long>(bits)) - 1};
  }
};

// For each bit of fresh, the first in-link u of v whose frontier word has it becomes v's parent
// for that source.
template <class Record>
__device__ void pull_parents(const eid_t* __restrict__ in_rowptr, const vid_t* __restrict__ in_col, vid_t v,
                             const Word* __restrict__ frontier, Word fresh, const Record& record) {
  for (eid_t p = in_rowptr[v]; fresh && p < in_rowptr[v + 1]; ++p) {
    const vid_t u = in_col[p];
    const Word hit = frontier[u] & fresh;
    if (!hit) continue;
    record(v, u, hit);
    fresh &= ~hit;
  }
}

// The pull walk, every thread of a warp (warp-uniform): the OR of frontier(u) over v's in-links,
// kGroup threads a vertex, cut short once acc | s holds every active source; the group's OR.
__device__ __forceinline__ Word pull_word(const eid_t* __restrict__ in_rowptr, const vid_t* __restrict__ in_col,
                                          eid_t v, Word s, const Word* __restrict__ frontier, Word active, int sub) {
  Word acc = 0;
  if ((s & active) != active) {  // a source still searching has not reached v (never true past the end)
    const eid_t p1 = in_rowptr[v + 1];
    for (eid_t p = in_rowptr[v] + sub; p < p1; p += kGroup) {
      acc |= frontier[in_col[p]];
      if (((acc | s) & active) == active) break;
    }
  }
  acc |= __shfl_xor_sync(kFullWarp, acc, 1, kGroup);
  acc |= __shfl_xor_sync(kFullWarp, acc, 2, kGroup);
  return acc;
}

// The pull walk over `rows` vertices, kGroup threads a vertex (warp-uniform); for each vertex v,
// its group's first thread records v's parents (when asked for) and calls
// on_fresh(v, seen(v), fresh) with fresh = the active sources that reached v new.
template <class Record, class OnFresh>
__device__ __forceinline__ void pull_rows(const eid_t* __restrict__ in_rowptr, const vid_t* __restrict__ in_col,
                                          vid_t rows, const Word* __restrict__ frontier, const Word* seen, Word active,
                                          const Record& parents, OnFresh on_fresh) {
  const int lane = threadIdx.x & 31, sub = lane % kGroup;
  const eid_t warp = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const eid_t warps = (eid_t(gridDim.x) * blockDim.x) >> 5;
  constexpr int kPerWarp = 32 / kGroup;
  for (eid_t base = warp * kPerWarp; base < rows; base += warps * kPerWarp) {
    const eid_t v = base + lane / kGroup;
    const bool valid = v < rows;
    const Word s = valid ? seen[v] : ~Word(0);
    const Word fresh = pull_word(in_rowptr, in_col, v, s, frontier, active, sub) & ~s & active;
    if (valid && sub == 0) {
      if (parents && fresh) pull_parents(in_rowptr, in_col, vid_t(v), frontier, fresh, parents);
      on_fresh(vid_t(v), s, fresh);
    }
  }
}

// A pull level. active: the sources still searching (the frontier holds no other bits).
__global__ void __launch_bounds__(kThreads)
    pull_kernel(const eid_t* __restrict__ in_rowptr, const vid_t* __restrict__ in_col,
                const eid_t* __restrict__ out_rowptr, vid_t n, const Word* __restrict__ frontier,
                Word* __restrict__ next, Word* __restrict__ seen, Word active, std::int32_t depth,
                std::int32_t* __restrict__ levels, ParentVector parents, Counters* counters) {
  Word found = 0;
  unsigned long long links = 0;
  pull_rows(in_rowptr, in_col, n, frontier, seen, active, parents, [&](vid_t v, Word s, Word fresh) {
    links += settle(v, n, s, fresh, next, seen, depth, levels, out_rowptr);
    found |= fresh;
  });
  add_counters(found, links, counters);
}

// A pull on a block of `rows` rows: next(v) as the pull level finds it, nothing settled.
__global__ void __launch_bounds__(kThreads)
    pull_block_kernel(const eid_t* __restrict__ in_rowptr, const vid_t* __restrict__ in_col, vid_t rows,
                      const Word* __restrict__ frontier, const Word* __restrict__ seen, Word active,
                      Word* __restrict__ next, ParentList parents) {
  pull_rows(in_rowptr, in_col, rows, frontier, seen, active, parents, [&](vid_t v, Word, Word fresh) { next[v] = fresh; });
}

// A push level, first half: next(v) |= frontier(u) & ~seen(v) for every link u -> v of a
// frontier vertex u of the `rows` rows (next is zero on entry), 4 threads a vertex; the u that
// sets a bit first is v's parent for that source.
template <class Record>
__global__ void __launch_bounds__(kThreads)
    push_kernel(const eid_t* __restrict__ out_rowptr, const vid_t* __restrict__ out_col, vid_t rows,
                const Word* __restrict__ frontier, const Word* __restrict__ seen, Word* __restrict__ next,
                Record parents) {
  const eid_t stride = eid_t(gridDim.x) * blockDim.x / kGroup;
  const int sub = threadIdx.x % kGroup;
  for (eid_t u = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) / kGroup; u < rows; u += stride) {
    const Word f = frontier[u];
    if (!f) continue;
    const eid_t p1 = out_rowptr[u + 1];
    for (eid_t p = out_rowptr[u] + sub; p < p1; p += kGroup) {
      const vid_t v = out_col[p];
      const Word add = f & ~seen[v];
      if (!add) continue;
      const Word first = add & ~atomicOr(next + v, add);
      if (parents && first) parents(v, vid_t(u), first);
    }
  }
}

// A push level, second half: every vertex keeps the bits of next it had not seen.
__global__ void __launch_bounds__(kThreads)
    settle_kernel(const eid_t* __restrict__ out_rowptr, vid_t n, Word* __restrict__ next, Word* __restrict__ seen,
                  std::int32_t depth, std::int32_t* __restrict__ levels, Counters* counters) {
  Word found = 0;
  unsigned long long links = 0;
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t base = eid_t(blockIdx.x) * blockDim.x + (threadIdx.x & ~31); base < n; base += stride) {  // warp-uniform
    const eid_t v = base + (threadIdx.x & 31);
    if (v < n) {
      const Word s = seen[v], fresh = next[v] & ~s;
      links += settle(vid_t(v), n, s, fresh, next, seen, depth, levels, out_rowptr);
      found |= fresh;
    }
  }
  add_counters(found, links, counters);
}

// reached[b] += the vertices whose seen word has bit b; *edges += popcount(seen(v)) * (the links
// out of v).
__global__ void __launch_bounds__(kThreads)
    tally_kernel(const Word* __restrict__ seen, const eid_t* __restrict__ out_rowptr, vid_t n,
                 unsigned long long* reached, unsigned long long* edges) {
  __shared__ unsigned counts[64];
  for (int b = threadIdx.x; b < 64; b += blockDim.x) counts[b] = 0;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  unsigned long long my_edges = 0;
  const eid_t stride = eid_t(gridDim.x) * blockDim.x;
  for (eid_t base = eid_t(blockIdx.x) * blockDim.x + (threadIdx.x & ~31); base < n; base += stride) {
    const eid_t v = base + lane;
    const Word s = v < n ? seen[v] : 0;
    if (v < n) my_edges += (unsigned long long)__popcll(s) * (unsigned long long)(out_rowptr[v + 1] - out_rowptr[v]);
    const Word any = [&] {
      Word o = s;
      for (int off = 16; off > 0; off >>= 1) o |= __shfl_xor_sync(kFullWarp, o, off);
      return o;
    }();
    for (Word bits = any; bits; bits &= bits - 1) {
      const int b = __ffsll(static_cast<long long>(bits)) - 1;
      const unsigned votes = __ballot_sync(kFullWarp, (s >> b) & 1);
      if (lane == 0) atomicAdd(&counts[b], unsigned(__popc(votes)));
    }
  }
  for (int off = 16; off > 0; off >>= 1) my_edges += __shfl_xor_sync(kFullWarp, my_edges, off);
  if (lane == 0 && my_edges) atomicAdd(edges, my_edges);
  __syncthreads();
  for (int b = threadIdx.x; b < 64; b += blockDim.x)
    if (counts[b]) atomicAdd(reached + b, (unsigned long long)counts[b]);
}

}  // namespace

WordBfs::Result WordBfs::run(const Matrix<std::int32_t>& out_links, const Matrix<std::int32_t>& in_links,
                             const std::vector<vid_t>& sources, Vector<std::int32_t>* levels,
                             Vector<vid_t>* parents) {
  const vid_t n = out_links.nrows();
  const int k = static_cast<int>(sources.size());
  if (k < 1 || k > kSources)
    throw Error("gpu: WordBfs: " + std::to_string(k) + " sources; one word holds 1 to " + std::to_string(kSources));
  if (out_links.ncols() != n || in_links.nrows() != n || in_links.ncols() != n || in_links.nnz() != out_links.nnz())
    throw Error("gpu: WordBfs: out_links and in_links must be n x n, one the transpose of the other");
  for (vid_t s : sources)
    if (s < 0 || s >= n)
      throw Error("gpu: WordBfs: source " + std::to_string(s) + " is not a vertex (0.." + std::to_string(n - 1) + ")");
  device::Buffer<Word> seen(n), frontier(n), next(n);
  device::Buffer<Counters> counters(1);
  device::Buffer<vid_t> d_sources;
  d_sources.upload(sources);
  device::Buffer<unsigned long long> reached(kSources), edges(1);
  seen.fill_zero();
  frontier.fill_zero();
  reached.fill_zero();
  edges.fill_zero();
  std::int32_t* lv = nullptr;
  if (levels) {
    *levels = Vector<std::int32_t>(std::size_t(k) * std::size_t(n));
    lv = levels->data();
    if (k * std::size_t(n) > 0) {
      fill_kernel<<<grid_for(eid_t(k) * n), kThreads>>>(lv, std::size_t(k) * std::size_t(n), -1);
      SPGRAPH_CHECK_LAUNCH("fill_kernel");
    }
  }
  vid_t* pv = nullptr;
  if (parents) {
    *parents = Vector<vid_t>(std::size_t(k) * std::size_t(n));
    pv = parents->data();
    if (k * std::size_t(n) > 0) {
      fill_kernel<<<grid_for(eid_t(k) * n), kThreads>>>(pv, std::size_t(k) * std::size_t(n), -1);
      SPGRAPH_CHECK_LAUNCH("fill_kernel");
    }
  }
  start_kernel<<<1, kSources>>>(d_sources.data(), k, n, seen.data(), frontier.data(), lv);
  SPGRAPH_CHECK_LAUNCH("start_kernel");

  Result r;
  r.depth.assign(std::size_t(k), 0);
  Word active = k == kSources ? ~Word(0) : (Word(1) << k) - 1;
  const device::CsrView<std::int32_t> out = out_links.csr().view(), in = in_links.csr().view();
  const unsigned long long all_links = static_cast<unsigned long long>(out.nnz);
  bool push = true;  // the first frontier is the sources alone
  for (std::int32_t depth = 1; active != 0; ++depth) {
    counters.fill_zero();
    ++(push ? r.push_levels : r.pull_levels);
    if (push) {
      next.fill_zero();
      push_kernel<<<grid_for(eid_t(n) * kGroup), kThreads>>>(out.rowptr, out.col, n, frontier.data(), seen.data(),
                                                              next.data(), ParentVector{pv, n});
      SPGRAPH_CHECK_LAUNCH("push_kernel");
      settle_kernel<<<grid_for(n), kThreads>>>(out.rowptr, n, next.data(), seen.data(), depth, lv, counters.data());
      SPGRAPH_CHECK_LAUNCH("settle_kernel");
    } else {
      pull_kernel<<<grid_for(eid_t(n) * kGroup), kThreads>>>(in.rowptr, in.col, out.rowptr, n, frontier.data(),
                                                              next.data(), seen.data(), active, depth, lv,
                                                              ParentVector{pv, n}, counters.data());
      SPGRAPH_CHECK_LAUNCH("pull_kernel");
    }
    const Counters c = counters.download()[0];
    active = c.found;
    push = c.links * 14 < all_links;  // Beamer's alpha
    for (int b = 0; b < k; ++b)
      if ((active >> b) & 1) r.depth[b] = depth;
    std::swap(frontier, next);
  }
  if (n > 0) {
    tally_kernel<<<grid_for(n), kThreads>>>(seen.data(), out.rowptr, n, reached.data(), edges.data());
    SPGRAPH_CHECK_LAUNCH("tally_kernel");
  }
  const std::vector<unsigned long long> counts = reached.download();
  r.reached.assign(counts.begin(), counts.begin() + k);
  r.edges_traversed = static_cast<std::int64_t>(edges.download()[0]);
  return r;
}

namespace {

void check_words(const char* what, const WordExpansion& e, std::size_t frontier, std::size_t frontier_want,
                 std::size_t seen, std::size_t next, std::size_t reached_want) {
  if (frontier != frontier_want || seen != reached_want || next != reached_want)
    throw Error(std::string("gpu: WordExpansion::") + what + ": a " + std::to_string(e.rows()) + " x " +
                std::to_string(e.cols()) + " block needs " + std::to_string(frontier_want) + " frontier words and " +
                std::to_string(reached_want) + " seen and next words; got " + std::to_string(frontier) + ", " +
                std::to_string(seen) + " and " + std::to_string(next));
}

void upload_words(device::Buffer<Word>& to, std::span<const WordExpansion::Word> from) {
  static_assert(sizeof(Word) == sizeof(WordExpansion::Word));
  to.upload(reinterpret_cast<const Word*>(from.data()), from.size());
}

// Both directions: the words checked and uploaded, the kernel, then next and the parent
// candidates read back. Where the list of candidates was too short, it grows (to twice its
// length, or to the count the kernel reached) and the level runs again, next rebuilt from zero:
// a level's parents cost one read-back of a counter once the list is long enough.
struct LevelBuffers {
  device::Buffer<Word>& frontier;
  device::Buffer<Word>& seen;
  device::Buffer<Word>& next;
  device::Buffer<WordParentCandidate>& candidates;
  device::Buffer<unsigned long long>& count;
};
template <class Launch>
void expand_block(const char* what, const WordExpansion& e, std::span<const WordExpansion::Word> frontier,
                  std::size_t frontier_want, std::span<const WordExpansion::Word> seen,
                  std::span<WordExpansion::Word> next, std::size_t reached_want, LevelBuffers d,
                  std::vector<WordParentCandidate>* parents, Launch launch) {
  check_words(what, e, frontier.size(), frontier_want, seen.size(), next.size(), reached_want);
  upload_words(d.frontier, frontier);
  upload_words(d.seen, seen);
  if (d.next.size() != next.size()) d.next.reset(next.size());
  for (;;) {
    d.next.fill_zero();
    if (parents) d.count.fill_zero();
    launch(parents ? ParentList{d.candidates.data(), d.count.data(), d.candidates.size()}
                   : ParentList{nullptr, nullptr, 0});
    if (!parents) break;
    const unsigned long long found = device::read_value(d.count.data());
    if (found <= d.candidates.size()) {
      const std::size_t before = parents->size();
      parents->resize(before + found);
      if (found)
        device::copy_to_host(parents->data() + before, d.candidates.data(), found * sizeof(WordParentCandidate), 0);
      break;
    }
    d.candidates.reset(std::max<std::size_t>(found, 2 * d.candidates.size()));
  }
  if (!next.empty()) device::copy_to_host(next.data(), d.next.data(), next.size() * sizeof(Word), 0);
}

}  // namespace

WordExpansion::WordExpansion(const Matrix<std::int32_t>& out_block, const Matrix<std::int32_t>& in_block)
    : out_(out_block), in_(in_block), count_(1) {
  if (in_.nrows() != out_.nrows() || in_.ncols() != out_.ncols())
    throw Error("gpu: WordExpansion: the out_links block is " + std::to_string(out_.nrows()) + " x " +
                std::to_string(out_.ncols()) + " and the in_links one " + std::to_string(in_.nrows()) + " x " +
                std::to_string(in_.ncols()) + "; they must be the blocks of the same rows and columns");
}

std::vector<std::int64_t> WordExpansion::out_row_lengths() const {
  const std::vector<eid_t> rowptr = out_.csr().rowptr.download();
  std::vector<std::int64_t> lengths(std::size_t(rows()), 0);
  for (std::size_t r = 0; r < lengths.size() && r + 1 < rowptr.size(); ++r) lengths[r] = rowptr[r + 1] - rowptr[r];
  return lengths;
}

void WordExpansion::push(std::span<const Word> frontier, std::span<const Word> seen, std::span<Word> next,
                         std::vector<WordParentCandidate>* parents) {
  const device::CsrView<std::int32_t> out = out_.csr().view();
  expand_block("push", *this, frontier, std::size_t(rows()), seen, next, std::size_t(cols()),
               {frontier_, seen_, next_, candidates_, count_}, parents, [&](ParentList list) {
                 push_kernel<<<grid_for(eid_t(out.nrows) * kGroup), kThreads>>>(
                     out.rowptr, out.col, out.nrows, frontier_.data(), seen_.data(), next_.data(), list);
                 SPGRAPH_CHECK_LAUNCH("push_kernel");
               });
}

void WordExpansion::pull(std::span<const Word> frontier, std::span<const Word> seen, Word active, std::span<Word> next,
                         std::vector<WordParentCandidate>* parents) {
  const device::CsrView<std::int32_t> in = in_.csr().view();
  expand_block("pull", *this, frontier, std::size_t(cols()), seen, next, std::size_t(rows()),
               {frontier_, seen_, next_, candidates_, count_}, parents, [&](ParentList list) {
                 pull_block_kernel<<<grid_for(eid_t(in.nrows) * kGroup), kThreads>>>(
                     in.rowptr, in.col, in.nrows, frontier_.data(), seen_.data(), active, next_.data(), list);
                 SPGRAPH_CHECK_LAUNCH("pull_block_kernel");
               });
}

}  // namespace spgraph::gpu
