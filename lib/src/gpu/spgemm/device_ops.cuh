#pragma once
// Device building blocks shared by the SpGEMM kernels: hash-table inserts, atomic accumulation
// under an add monoid, and searches.
// CUDA translation units only.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "gpu/spgemm/internal.hpp"
#include "spgraph/semiring.hpp"
#include "spgraph/types.hpp"

namespace spgraph::gpu::spgemm_detail {

inline constexpr unsigned kEmptyKey = 0xffffffffu;  // column ids are below 2^31
inline constexpr unsigned kFullMask = 0xffffffffu;

// Fibonacci hashing: the top log2_slots bits of key * 2^32/phi spread clustered column ids
// (the usual case in graphs with locality) evenly over the table.
__device__ __forceinline__ unsigned hash_slot(unsigned key, int log2_slots) {
  return (key * 0x9E3779B1u) >> (32 - log2_slots);
}

// Inserts key into an open-addressing table (linear probing). Returns 1 when the key was new,
// 0 when already present, -1 when the table is full.
__device__ __forceinline__ int insert_key(unsigned* keys, int log2_slots, unsigned key) {
  const unsigned mask = (1u << log2_slots) - 1;
  unsigned h = hash_slot(key, log2_slots);
  for (unsigned probe = 0; probe <= mask; ++probe) {
    const unsigned seen = *reinterpret_cast<volatile unsigned*>(keys + h);
    if (seen == key) return 0;
    if (seen == kEmptyKey) {
      const unsigned prev = atomicCAS(keys + h, kEmptyKey, key);
      if (prev == kEmptyKey) return 1;
      if (prev == key) return 0;
    }
    h = (h + 1) & mask;
  }
  return -1;
}

// *p = add(*p, x) atomically under the monoid. *p starts at the monoid's identity, so
// add(identity, x) = x for every monoid (for Any too: add(a, b) returns b).
// On sm_90 a double added in shared memory is a compare-and-swap loop (ATOMS.CAST.SPIN.64 in
// the SASS), which serialises threads hitting one key: rows with a hot key (A*A''s diagonal,
// hub columns) pay this in the block groups. Combining a warp's adds to one slot first cost
// every product what only the hot keys gain (docs/performance/spgemm.md).
template <class Monoid, class V>
__device__ __forceinline__ void accumulate(V* p, V x) {
  if constexpr (std::is_same_v<Monoid, monoid::Any>) {
    // Every product is a valid answer. Exchanged atomically, so threads storing different
    // products do not race (bool, which has no atomics of its size, is stored plainly).
    if constexpr (sizeof(V) == 4 || sizeof(V) == 8) {
      using U = std::conditional_t<sizeof(V) == 4, unsigned int, unsigned long long>;
      U bits;
      memcpy(&bits, &x, sizeof(V));
      atomicExch(reinterpret_cast<U*>(p), bits);
    } else {
      *reinterpret_cast<volatile V*>(p) = x;
    }
  } else if constexpr (std::is_same_v<V, bool>) {
    // bool has no atomics; plus, max and lor are "or" (store true), min is "and" (store false).
    if constexpr (std::is_same_v<Monoid, monoid::Min>) {
      if (!x) *reinterpret_cast<volatile bool*>(p) = false;
    } else {
      static_assert(std::is_same_v<Monoid, monoid::Plus> || std::is_same_v<Monoid, monoid::Max> ||
                        std::is_same_v<Monoid, monoid::Lor>,
                    "unsupported monoid over bool");
      if (x) *reinterpret_cast<volatile bool*>(p) = true;
    }
  } else if constexpr (std::is_same_v<Monoid, monoid::Lor>) {
    if (x != V(0)) *reinterpret_cast<volatile V*>(p) = V(1);
  } else if constexpr (std::is_same_v<Monoid, monoid::Plus> &&
                       (std::is_same_v<V, float> || std::is_same_v<V, double> || std::is_same_v<V, int>)) {
    atomicAdd(p, x);
  } else if constexpr (std::is_same_v<Monoid, monoid::Plus> && std::is_same_v<V, std::int64_t>) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(x));
  } else if constexpr ((std::is_same_v<Monoid, monoid::Min> || std::is_same_v<Monoid, monoid::Max>) &&
                       (std::is_same_v<V, int> || std::is_same_v<V, std::int64_t>)) {
    using A = std::conditional_t<sizeof(V) == 4, int, long long>;
    if constexpr (std::is_same_v<Monoid, monoid::Min>) atomicMin(reinterpret_cast<A*>(p), static_cast<A>(x));
    else atomicMax(reinterpret_cast<A*>(p), static_cast<A>(x));
  } else {
    // Compare-and-swap on the bit pattern; stops once *p already absorbs x (NaN included).
    static_assert(sizeof(V) == 4 || sizeof(V) == 8, "unsupported value size");
    using U = std::conditional_t<sizeof(V) == 4, unsigned int, unsigned long long>;
    U* addr = reinterpret_cast<U*>(p);
    U old = *reinterpret_cast<volatile U*>(addr);
    while (true) {
      V cur;
      memcpy(&cur, &old, sizeof(V));
      const V next = Monoid::add(cur, x);
      U desired;
      memcpy(&desired, &next, sizeof(V));
      if (desired == old) return;
      const U seen = atomicCAS(addr, old, desired);
      if (seen == old) return;
      old = seen;
    }
  }
}

// Inserts key and accumulates x into its value. Returns as insert_key.
template <class Monoid, class V>
__device__ __forceinline__ int insert_accumulate(unsigned* keys, V* vals, int log2_slots, unsigned key, V x) {
  const unsigned mask = (1u << log2_slots) - 1;
  unsigned h = hash_slot(key, log2_slots);
  for (unsigned probe = 0; probe <= mask; ++probe) {
    const unsigned seen = *reinterpret_cast<volatile unsigned*>(keys + h);
    if (seen == key) {
      accumulate<Monoid>(vals + h, x);
      return 0;
    }
    if (seen == kEmptyKey) {
      const unsigned prev = atomicCAS(keys + h, kEmptyKey, key);
      if (prev == kEmptyKey || prev == key) {
        accumulate<Monoid>(vals + h, x);
        return prev == kEmptyKey ? 1 : 0;
      }
    }
    h = (h + 1) & mask;
  }
  return -1;
}

SPGRAPH_HD constexpr int exact_log2(std::uint64_t x) {
  int b = 0;
  while (x > 1) {
    ++b;
    x >>= 1;
  }
  return b;
}

SPGRAPH_HD int bit_width(std::uint64_t x) {
  int b = 0;
  while (x) {
    ++b;
    x >>= 1;
  }
  return b;
}

// Index of the last element <= x in the sorted range [first, last) (first - 1 if none).
template <class T>
__device__ __forceinline__ eid_t last_not_greater(const T* a, eid_t first, eid_t last, T x) {
  eid_t lo = first, hi = last;  // answer in [first - 1, last - 1]
  while (lo < hi) {
    const eid_t mid = lo + (hi - lo) / 2;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

// Index of the first element >= x in the sorted range [first, last) (last if none).
template <class T>
__device__ __forceinline__ eid_t lower_bound(const T* a, eid_t first, eid_t last, T x) {
  eid_t lo = first, hi = last;
  while (lo < hi) {
    const eid_t mid = lo + (hi - lo) / 2;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Grid size for a grid-stride loop over n items (capped; the loop covers the rest).
inline unsigned grid_for(eid_t n, int threads) {
  const eid_t blocks = (n + threads - 1) / threads;
  const eid_t cap = eid_t(1) << 20;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > cap ? cap : blocks));
}

}  // namespace spgraph::gpu::spgemm_detail
