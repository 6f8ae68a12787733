#pragma once
// Loads and stores that tell L2 how soon their lines are needed again, for passes that stream
// vectors larger than a fraction of L2 between two kernels that reuse some of them. On the host
// (the GraphBLAS backend runs the same functors) they are plain loads and stores.
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "spgraph/types.hpp"

namespace spgraph::device {

// v[i], read for the last time before the vector is written again: evict-first, so that its
// lines leave L2 before those of vectors read again soon.
template <class T>
SPGRAPH_HD T load_last_use(const T* v, std::size_t i) {
#ifdef __CUDA_ARCH__
  return __ldcs(v + i);
#else
  return v[i];
#endif
}

// v[i] = value that one later read takes, soon: evict-first, so that the line does not push
// out of L2 the lines of vectors read again.
template <class T>
SPGRAPH_HD void store_read_once(T* v, std::size_t i, T value) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_same_v<T, bool>) __stcs(reinterpret_cast<unsigned char*>(v + i), static_cast<unsigned char>(value));
  else __stcs(v + i, value);
#else
  v[i] = value;
#endif
}

// v[i] = value for a kernel that reads v next: evict-last, so that the line stays in L2 while
// lines read once stream past it.
template <class T>
SPGRAPH_HD void store_for_reuse(T* v, std::size_t i, T value) {
#ifdef __CUDA_ARCH__
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a 4- or 8-byte element");
  unsigned long long policy;
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  if constexpr (sizeof(T) == 4) {
    unsigned bits;
    std::memcpy(&bits, &value, 4);
    asm volatile("st.global.L2::cache_hint.b32 [%0], %1, %2;" ::"l"(v + i), "r"(bits), "l"(policy) : "memory");
  } else {
    unsigned long long bits;
    std::memcpy(&bits, &value, 8);
    asm volatile("st.global.L2::cache_hint.b64 [%0], %1, %2;" ::"l"(v + i), "l"(bits), "l"(policy) : "memory");
  }
#else
  v[i] = value;
#endif
}

}  // namespace spgraph::device
