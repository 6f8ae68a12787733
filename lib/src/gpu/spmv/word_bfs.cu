// WordBfs (spgraph/gpu/word_bfs.hpp): a level is one kernel over the vertices, 4 threads a
// vertex splitting its in-links; one 64-bit read-back a level (the OR of every vertex's new
// bits) says which sources still search.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>

#include "spgraph/device/cuda_check.hpp"
#include "spgraph/error.hpp"
#include "spgraph/gpu/word_bfs.hpp"

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

// One level. active: the sources still searching (the frontier holds no other bits). found
// receives the OR of every vertex's new bits.
__global__ void __launch_bounds__(kThreads)
    level_kernel(const eid_t* __restrict__ rowptr, const vid_t* __restrict__ col, vid_t n,
                 const Word* __restrict__ frontier, Word* __restrict__ next, Word* __restrict__ seen, Word active,
                 std::int32_t depth, std::int32_t* __restrict__ levels, Word* found) {
  const int lane = threadIdx.x & 31, sub = lane % kGroup;
  const eid_t warp = (eid_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const eid_t warps = (eid_t(gridDim.x) * blockDim.x) >> 5;
  constexpr int kPerWarp = 32 / kGroup;
  Word found_here = 0;
  for (eid_t base = warp * kPerWarp; base < n; base += warps * kPerWarp) {  // warp-uniform
    const eid_t v = base + lane / kGroup;
    const bool valid = v < n;
    const Word s = valid ? seen[v] : ~Word(0);
    Word acc = 0;
    if ((s & active) != active) {  // a source still searching has not reached v
      const eid_t p1 = rowptr[v + 1];
      for (eid_t p = rowptr[v] + sub; p < p1; p += kGroup) {
        acc |= frontier[col[p]];
        if (((acc | s) & active) == active) break;
      }
    }
    acc |= __shfl_xor_sync(kFullWarp, acc, 1, kGroup);
    acc |= __shfl_xor_sync(kFullWarp, acc, 2, kGroup);
    const Word fresh = acc & ~s & active;
    if (valid && sub == 0) {
      next[v] = fresh;
      if (fresh) {
        seen[v] = s | fresh;
        if (levels)
          for (Word bits = fresh; bits; bits &= bits - 1)
            levels[std::size_t(__ffsll(static_cast<long long>(bits)) - 1) * n + v] = depth;
      }
    }
    found_here |= fresh;
  }
  for (int off = 16; off > 0; off >>= 1) found_here |= __shfl_xor_sync(kFullWarp, found_here, off);
  if (lane == 0 && found_here) atomicOr(found, found_here);
}

// reached[b] += the vertices whose seen word has bit b; *edges += popcount(seen(v)) * degree(v).
__global__ void __launch_bounds__(kThreads)
    tally_kernel(const Word* __restrict__ seen, const vid_t* __restrict__ degree, vid_t n,
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
    if (v < n) my_edges += (unsigned long long)__popcll(s) * unsigned(degree[v]);
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

WordBfs::Result WordBfs::run(const Matrix<std::int32_t>& in_links, const Vector<vid_t>& degree,
                             const std::vector<vid_t>& sources, Vector<std::int32_t>* levels) {
  const vid_t n = in_links.nrows();
  const int k = static_cast<int>(sources.size());
  if (k < 1 || k > kSources)
    throw Error("gpu: WordBfs: " + std::to_string(k) + " sources; one word holds 1 to " + std::to_string(kSources));
  if (in_links.ncols() != n || degree.size() != std::size_t(n))
    throw Error("gpu: WordBfs: in_links must be n x n and degree of length n");
  for (vid_t s : sources)
    if (s < 0 || s >= n) throw Error("gpu: WordBfs: source " + std::to_string(s) + " is not a vertex (0.." + std::to_string(n - 1) + ")");
  device::Buffer<Word> seen(n), frontier(n), next(n), found(1);
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
  start_kernel<<<1, kSources>>>(d_sources.data(), k, n, seen.data(), frontier.data(), lv);
  SPGRAPH_CHECK_LAUNCH("start_kernel");

  Result r;
  r.depth.assign(std::size_t(k), 0);
  Word active = k == kSources ? ~Word(0) : (Word(1) << k) - 1;
  const device::CsrView<std::int32_t> at = in_links.csr().view();
  for (std::int32_t depth = 1; active != 0; ++depth) {
    found.fill_zero();
    level_kernel<<<grid_for(eid_t(n) * kGroup), kThreads>>>(at.rowptr, at.col, n, frontier.data(), next.data(),
                                                            seen.data(), active, depth, lv, found.data());
    SPGRAPH_CHECK_LAUNCH("level_kernel");
    active = found.download()[0];
    for (int b = 0; b < k; ++b)
      if ((active >> b) & 1) r.depth[b] = depth;
    std::swap(frontier, next);
  }
  if (n > 0) {
    tally_kernel<<<grid_for(n), kThreads>>>(seen.data(), degree.data(), n, reached.data(), edges.data());
    SPGRAPH_CHECK_LAUNCH("tally_kernel");
  }
  const std::vector<unsigned long long> counts = reached.download();
  r.reached.assign(counts.begin(), counts.begin() + k);
  r.edges_traversed = static_cast<std::int64_t>(edges.download()[0]);
  return r;
}

}  // namespace spgraph::gpu
