#pragma once
// The CSR stream kernel (after CSR-Stream in CSR-Adaptive, Greathouse & Daga 2014): each block
// takes the whole rows that end in one tile of the merge path (row ends and nonzeros,
// stream_tile(J) items), streams their nonzeros into shared memory with every load
// issued before any is used, then reduces each row from shared memory and writes it once. It
// reads the matrix exactly once, needs no row ids, no atomics and no second pass, and sums every
// row in the same order on every run. A tile's first row, when too long for the stage, is
// reduced straight from global memory by the whole block. Included by the explicit-instantiation
// files in lib/src/gpu/spmv only.

#include <cuda_pipeline.h>

#include "device/dependent_launch.hpp"
#include "gpu/spmv/spmv_kernels_impl.cuh"
#include "gpu/spmv/spmv_formats.hpp"

namespace spgraph::gpu::detail {

// After staging, a thread sums a row of at most kStreamThreadRow entries on its own; a warp
// takes each longer one. A tile holds at most tile / (kStreamThreadRow + 1) longer rows.
// 64 against 16 gained 5-22% (benchmark geometric mean 1.29x -> 1.36x on the H200); 8 and 32
// were slower, 128 level (docs/performance/spmv.md). A warp's rows run side by side.
inline constexpr int kStreamThreadRow = 64;

// The whole block reduces one row straight from global memory; the total is thread 0's.
template <class SR, class V, class Product>
__device__ __noinline__ Partial<SR, V> csr_stream_block_row(const eid_t* __restrict__ rowptr,
                                                            const vid_t* __restrict__ col, vid_t row, bool allowed,
                                                            Product product) {
  using P = Partial<SR, V>;
  constexpr int kWarps = kStreamThreads / 32;
  __shared__ P s_part[kWarps];
  const int tid = int(threadIdx.x);
  P acc = P::empty();
  if (allowed)
    accumulate_run(acc, __ldg(rowptr + row) + tid, __ldg(rowptr + row + 1), kStreamThreads,
                   [](eid_t p) { return p; }, col, product);
  acc = warp_merge<SR>(acc, 32);
  if ((tid & 31) == 0) s_part[tid >> 5] = acc;
  __syncthreads();
  if (tid == 0)
    for (int w = 1; w < kWarps; ++w) acc.merge(s_part[w]);
  __syncthreads();  // s_part is free again when this returns
  return acc;
}

// A product whose x is read by ordinary loads, for a block that waited for the kernel writing
// x (csr_stream_kernel launched as a dependent).
template <class Product>
struct GathersAfterWait {
  Product product;
  __device__ auto operator()(eid_t slot, vid_t k) const {
    return product.times(product.matrix_value(slot), product.vector_value_after_wait(k), k);
  }
};

// Four consecutive entries, loaded as one 16-byte vector (two for double) from an address
// aligned to four entries: a quarter of the load instructions of one entry per load, which is
// what keeps enough bytes in flight per SM.
template <class T>
struct Quad {
  T v[4];
};
template <class T>
__device__ __forceinline__ Quad<T> load_quad(const T* p) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 4 || sizeof(T) == 8);
  Quad<T> q;
  if constexpr (sizeof(T) == 1) {  // bool: the quad is one 4-byte word
    const unsigned u = __ldcs(reinterpret_cast<const unsigned*>(p));
    memcpy(q.v, &u, 4);
  } else if constexpr (sizeof(T) == 4) {
    const uint4 u = __ldcs(reinterpret_cast<const uint4*>(p));
    const unsigned w[4] = {u.x, u.y, u.z, u.w};
#pragma unroll
    for (int e = 0; e < 4; ++e) memcpy(&q.v[e], &w[e], sizeof(T));
  } else {
    const double2 a = __ldcs(reinterpret_cast<const double2*>(p));
    const double2 b = __ldcs(reinterpret_cast<const double2*>(p) + 1);
    const double w[4] = {a.x, a.y, b.x, b.y};
#pragma unroll
    for (int e = 0; e < 4; ++e) memcpy(&q.v[e], &w[e], sizeof(T));
  }
  return q;
}

// cp.async of one element, and of the quad at an address aligned to four entries (16 bytes, or
// two copies of 16 for double), from global to shared memory.
template <class T>
__device__ __forceinline__ void copy_async(T* shared, const T* global) {
  __pipeline_memcpy_async(shared, global, sizeof(T));
}
template <class T>
__device__ __forceinline__ void copy_quad_async(T* shared, const T* global) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 4 || sizeof(T) == 8);
  if constexpr (sizeof(T) == 1) {
    __pipeline_memcpy_async(shared, global, 4);
  } else {
    constexpr int kPer16 = 16 / int(sizeof(T));
#pragma unroll
    for (int h = 0; h < 4 / kPer16; ++h) __pipeline_memcpy_async(shared + kPer16 * h, global + kPer16 * h, 16);
  }
}

// Block t takes rows [tile_rows[t], tile_rows[t+1]), those whose row end lies in path items
// [t * tile, (t+1) * tile) for tile = stream_tile(J). Only the first of them can start before
// the tile; the others' nonzeros lie inside it, so they fit the stage. When the first row's do
// not as well, the whole block sums it from global memory first.
// The stage holds the quads that cover the staged nonzeros, from the aligned address at or below
// the first (shift entries before it), so it has room for 4 entries more than a tile.
// ValuesFirst: load every matrix value of the stage before any x (faster with values, slower
// without; gpu/spmv.hpp has the measurements). With kStreamStageAsync<V>, row ends and matrix
// values go from global to shared memory by cp.async and hold no registers while in flight;
// registers then carry only the columns and the x values they address. Otherwise (double) the
// values go through registers, and the row ends by cp.async only when values are loaded.
// Dependent (launched as gpu::MxvReducer's product, below): y is stored evict-first, since the
// chain's pass reads it once right after, so that it does not push out of L2 the x that later
// tiles gather (about 1% off a PageRank iteration on the H100; docs/performance/spmv.md).
template <class SR, class V, int J, bool ValuesFirst, class Product, bool Dependent = false>
__global__ void __launch_bounds__(kStreamThreads, kStreamMinBlocks)
    csr_stream_kernel(const eid_t* __restrict__ rowptr, const unsigned* __restrict__ rowptr_low,
                      const vid_t* __restrict__ col, eid_t nnz_total, const vid_t* __restrict__ tile_rows,
                      const eid_t* __restrict__ tile_base, Product product, V* __restrict__ y, OutputMask<V> mask) {
  using P = Partial<SR, V>;
  static_assert(J % 4 == 0, "the stage is loaded in quads");
  constexpr bool kAsyncValues = kStreamStageAsync<V>;
  constexpr int kStage = kStreamThreads * J;
  constexpr int kItems = stream_tile(J);
  __shared__ __align__(32) V s_term[kStage];
  // Row ends as rowptr mod 2^32: offsets within the stage are below 2^32, so the difference
  // from the first row's start gives them exactly.
  __shared__ unsigned s_end[kItems];
  __shared__ int s_warp_rows[kItems / (kStreamThreadRow + 1) + 1];
  __shared__ int s_nwarp_rows;
  const int tid = int(threadIdx.x);
  vid_t r0 = __ldg(tile_rows + blockIdx.x);
  const vid_t r1 = __ldg(tile_rows + blockIdx.x + 1);
  eid_t base = __ldg(tile_base + blockIdx.x);
  const eid_t end = __ldg(tile_base + blockIdx.x + 1);  // rowptr[r1]
  if (r0 == r1) return;  // a tile inside a long row; the tile where it ends takes it
  if (end - base > kItems) {
    if constexpr (Dependent) device::wait_for_previous_kernel();  // (see below)
    const bool allowed = mask.allows(r0);  // block-uniform
    const P total = [&] {
      if constexpr (Dependent)
        return csr_stream_block_row<SR, V>(rowptr, col, r0, allowed, GathersAfterWait<Product>{product});
      else
        return csr_stream_block_row<SR, V>(rowptr, col, r0, allowed, product);
    }();
    if (tid == 0) write_output<SR, Dependent>(y, r0, allowed, total, mask);
    ++r0;
    base = __ldg(rowptr + r0);
  }
  const int nrows = int(r1 - r0);
  const int nnz = int(end - base);
  if (tid == 0) s_nwarp_rows = 0;
  const eid_t aligned = base & ~eid_t(3);
  const int shift = int(base - aligned);
  const int nquads = (shift + nnz + 3) / 4;
  // Row ends by cp.async too when the values are loaded (double valued, J = 4: 1-4% faster),
  // not for double pattern (J = 8: about 8% slower; docs/performance/spmv.md).
  constexpr bool kAsyncEnds = kAsyncValues || ValuesFirst;
  unsigned ends[kAsyncEnds ? 1 : J];
  if constexpr (kAsyncEnds) {
    for (int k = tid; k < nrows; k += kStreamThreads) copy_async(&s_end[k], rowptr_low + r0 + 1 + k);
  } else {
#pragma unroll
    for (int s = 0; s < J; ++s) {
      const int k = tid + kStreamThreads * s;
      ends[s] = k < nrows ? __ldg(rowptr_low + r0 + 1 + k) : 0u;
    }
  }
  // Quad q holds entries aligned + 4q .. + 3; those outside [base, base + nnz) belong to the
  // neighbouring tiles and are neither multiplied nor summed. The matrix's last quad may run
  // past its arrays, so it is loaded entry by entry.
  constexpr int kQuads = J / 4;
  Quad<vid_t> cols[kQuads];
  Quad<V> terms[kQuads];  // the matrix values, then the products
#pragma unroll
  for (int c = 0; c < kQuads; ++c) {
    const int q = tid + kStreamThreads * c;
    if (q < nquads && aligned + 4 * q + 4 <= nnz_total) {
      cols[c] = load_quad(col + aligned + 4 * q);
      if constexpr (ValuesFirst && kAsyncValues) copy_quad_async(s_term + 4 * q, product.val + aligned + 4 * q);
      else if constexpr (ValuesFirst) terms[c] = load_quad(product.val + aligned + 4 * q);
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int k = 4 * q + e - shift;
        const bool staged = q < nquads && k >= 0 && k < nnz;
        cols[c].v[e] = staged ? __ldcs(col + base + k) : 0;
        if constexpr (ValuesFirst && kAsyncValues) {
          if (staged) copy_async(s_term + 4 * q + e, product.val + base + k);
        } else if constexpr (ValuesFirst) {
          terms[c].v[e] = staged ? product.matrix_value(base + k) : V(0);
        }
      }
    }
  }
  if constexpr (kAsyncEnds) {
    __pipeline_commit();
  } else {
    // Stored before the x loads, so the ends' registers are free while those are in flight.
#pragma unroll
    for (int s = 0; s < J; ++s) {
      const int k = tid + kStreamThreads * s;
      if (k < nrows) s_end[k] = ends[s];
    }
  }
  // Launched as a dependent of the kernel before it (device/dependent_launch.hpp; gpu::
  // MxvReducer's chain, whose pass writes x and reads y), the block has read only the matrix so
  // far, and those loads stay in flight while it waits. It lets the next kernel start only
  // after its wait, so whatever that kernel reads before waiting in turn was complete by then.
  // A kernel of its own (Dependent): executed in every launch, the wait cost 5%, and a runtime
  // choice between the two ways of loading x below up to 8% (docs/performance/spmv.md). After
  // the wait x comes by ordinary loads: the read-only path assumes x does not change while the
  // kernel runs (with the wait under a runtime branch and x read by it,
  // MxvReducerGpu.EachProductReadsWhatThePassBeforeItWrote saw the rows its pass writes late
  // read stale).
  if constexpr (Dependent) {
    device::wait_for_previous_kernel();
    device::let_next_kernel_start();
  }
  Quad<V> xs[kQuads];
#pragma unroll
  for (int c = 0; c < kQuads; ++c) {
    const int q = tid + kStreamThreads * c;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int k = 4 * q + e - shift;
      if (q < nquads && k >= 0 && k < nnz)
        xs[c].v[e] = Dependent ? product.vector_value_after_wait(cols[c].v[e]) : product.vector_value(cols[c].v[e]);
    }
  }
  if constexpr (kAsyncEnds) __pipeline_wait_prior(0);  // this thread's copies; the barrier publishes all
#pragma unroll
  for (int c = 0; c < kQuads; ++c) {
    const int q = tid + kStreamThreads * c;
    if (q >= nquads) continue;
    if constexpr (ValuesFirst && kAsyncValues) terms[c] = *reinterpret_cast<const Quad<V>*>(s_term + 4 * q);
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int k = 4 * q + e - shift;
      if (k >= 0 && k < nnz)
        terms[c].v[e] = product.times(ValuesFirst ? terms[c].v[e] : V(1), xs[c].v[e], cols[c].v[e]);
    }
    *reinterpret_cast<Quad<V>*>(s_term + 4 * q) = terms[c];
  }
  __syncthreads();

  // Row r's entries are stage slots [shift + row_start(r), shift + row_start(r + 1)).
  const unsigned base_low = unsigned(base);
  auto row_start = [&](int r) { return r == 0 ? 0 : int(s_end[r - 1] - base_low); };

  // A thread per short row (consecutive rows, so the writes coalesce); longer rows are listed
  // for the warps, so one long row does not hold up the 31 other rows of its warp.
  for (int r = tid; r < nrows; r += kStreamThreads) {
    const int first = row_start(r);
    const int last = row_start(r + 1);
    if (last - first > kStreamThreadRow) {
      s_warp_rows[atomicAdd(&s_nwarp_rows, 1)] = r;
      continue;
    }
    const bool allowed = mask.allows(r0 + r);
    P acc = P::empty();
    if (allowed)
      for (int k = first; k < last; ++k) acc.add(s_term[shift + k]);
    write_output<SR, Dependent>(y, r0 + r, allowed, acc, mask);
  }
  __syncthreads();
  const int nwarp_rows = s_nwarp_rows;
  const int lane = tid & 31;
  for (int w = tid >> 5; w < nwarp_rows; w += kStreamThreads / 32) {
    const int r = s_warp_rows[w];
    const bool allowed = mask.allows(r0 + r);  // warp-uniform
    P acc = P::empty();
    if (allowed)
      for (int k = row_start(r) + lane; k < row_start(r + 1); k += 32) acc.add(s_term[shift + k]);
    acc = warp_merge<SR>(acc, 32);
    if (lane == 0) write_output<SR, Dependent>(y, r0 + r, allowed, acc, mask);
  }
}

}  // namespace spgraph::gpu::detail
