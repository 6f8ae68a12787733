#pragma once
// One fused pass over dense vectors: for every index i, update several vectors and add to a few
// sums, in one kernel. Iterative algorithms need this between their SpMVs (PageRank computes
// the new ranks, the L1 change, the next SpMV input and the dangling mass in one pass); done
// as separate element-wise operations and reductions it would read and write the vectors
// several times over.
//
//   std::array<double, R> sums = gpu::map_reduce<R>(f, v1, v2, ...);
//
// calls f(i, acc, v1.data(), v2.data(), ...) for every i in [0, n), where n is the vectors'
// common length (a mismatch throws spgraph::Error) and acc is a double[R] that f adds its
// contributions to; returns the totals of acc. Contract for f (an SPGRAPH_HD functor, copied
// to the device by value): it may write only element i of each vector, and read element j != i
// only of vectors that no call writes, since indices run concurrently and in no fixed order.
// The sums are deterministic for a given device (per-block partials added on the host in
// block order). Runs on the first vector's stream and returns when the pass is complete.
//
// Declared here so host code (gpu/backend.hpp) can name it; defined in
// dense_map_reduce_impl.cuh, which the .cu file that instantiates it includes.
#include <array>

#include "spgraph/gpu/matrix.hpp"

namespace spgraph::gpu {

template <int R, class F, class... V>
std::array<double, R> map_reduce(F f, Vector<V>&... vectors);

}  // namespace spgraph::gpu
