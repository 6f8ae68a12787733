#pragma once
// Loads and stores that tell L2 how soon their lines are needed again, for passes that stream
// vectors larger than a fraction of L2 between two kernels that reuse some of them. On the host
// (the GraphBLAS backend runs the same functors) they are plain loads and stores.
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

#include "spgraph/types.hpp"

namespace spgraph::device {

// v[i], read for the last time before the vector is written again: evict-first, so that its
// lines leave L2 before those of vectors read again soon.
template <class T>
SPGRAPH_HD T load_last_use(const T* v, std::size_t i) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) return __ldcs(v + i);
  else return v[i];
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

// v[i] through the read-only data path (__ldg) where the type has one: for a vector that no
// store of the kernel changes, so the compiler may issue loads for later indices ahead of
// earlier indices' stores.
template <class T>
SPGRAPH_HD T load_read_only(const T* v, std::size_t i) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) return __ldg(v + i);
  else return v[i];
#else
  return v[i];
#endif
}

// v[i] from L2 (__ldcg), for a vector that an earlier step of the same kernel wrote: the
// read-only path's cache is not kept coherent with the kernel's own stores.
template <class T>
SPGRAPH_HD T load_written_in_kernel(const T* v, std::size_t i) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) return __ldcg(v + i);
  else return v[i];
#else
  return v[i];
#endif
}

// What the fused passes (gpu/fused) hand their functors in place of a vector's pointer, so that
// the functor's v[i] carries the hint its use calls for, and the functor's text stays the same
// on every backend (which hand plain pointers). Each converts to the plain pointer, for a
// functor that takes one and does without the hint.
enum class ReadHint { ReadOnly, LastUse, WrittenInKernel };
template <class T, ReadHint H>
struct ReadView {
  const T* p;
  SPGRAPH_HD T operator[](std::size_t i) const {
    if constexpr (H == ReadHint::ReadOnly) return load_read_only(p, i);
    else if constexpr (H == ReadHint::LastUse) return load_last_use(p, i);
    else return load_written_in_kernel(p, i);
  }
  SPGRAPH_HD operator const T*() const { return p; }
};
template <class T>
using ReadOnlyView = ReadView<T, ReadHint::ReadOnly>;
template <class T>
using LastUseView = ReadView<T, ReadHint::LastUse>;
template <class T>
using WrittenInKernelView = ReadView<T, ReadHint::WrittenInKernel>;

// A vector the pass writes for the next kernel to read (the next product gathers it): every
// store evict-last.
template <class T>
struct ReusedView {
  T* p;
  struct Element {
    T* at;
    SPGRAPH_HD const Element& operator=(T value) const {
      store_for_reuse(at, 0, value);
      return *this;
    }
    SPGRAPH_HD operator T() const { return *at; }
  };
  SPGRAPH_HD Element operator[](std::size_t i) const { return {p + i}; }
  SPGRAPH_HD operator T*() const { return p; }
};

// A row pass's vectors as its functor sees them (the pass after a product, whose next product
// gathers what the pass writes): read for the last time where passed const (evict-first, not
// through the read-only path, whose cache the streamed reads would fill); written for reuse
// where not (4- and 8-byte elements; others as plain pointers).
template <class T>
SPGRAPH_HD LastUseView<T> row_pass_view(const T* v) {
  return {v};
}
template <class T>
SPGRAPH_HD auto row_pass_view(T* v) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) return ReusedView<T>{v};
  else return v;
}
template <class T>
using RowPassView = decltype(row_pass_view(std::declval<T*>()));

}  // namespace spgraph::device
