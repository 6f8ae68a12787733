#pragma once
// Device-side building blocks for reductions under a semiring's add monoid: partial results,
// warp shuffles of them, atomic merging into an output entry, and the output mask. Used by
// the SpMV kernels (spmv_kernels_impl.cuh); CUDA translation units only.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "device/cache_hints.hpp"
#include "spgraph/semiring.hpp"

namespace spgraph::gpu::detail {

inline constexpr unsigned kFullWarp = 0xffffffffu;

template <class Monoid>
inline constexpr bool is_any_monoid = std::is_same_v<Monoid, monoid::Any>;

// Loads of a value through the read-only cache (ldg), evict-first (ldcs) or cached in L1
// (ldca); bool, which the intrinsics do not take, as its byte.
template <class V>
__device__ __forceinline__ V ldg(const V* p) {
  if constexpr (std::is_same_v<V, bool>) return __ldg(reinterpret_cast<const unsigned char*>(p)) != 0;
  else return __ldg(p);
}
template <class V>
__device__ __forceinline__ V ldcs(const V* p) {
  if constexpr (std::is_same_v<V, bool>) return __ldcs(reinterpret_cast<const unsigned char*>(p)) != 0;
  else return __ldcs(p);
}
template <class V>
__device__ __forceinline__ V ldca(const V* p) {
  if constexpr (std::is_same_v<V, bool>) return __ldca(reinterpret_cast<const unsigned char*>(p)) != 0;
  else return __ldca(p);
}

// A warp shuffle shfl(x) (a __shfl*_sync call) of a value; types narrower than int travel as int.
template <class V, class Shfl>
__device__ __forceinline__ V shuffle(V v, Shfl shfl) {
  if constexpr (sizeof(V) < sizeof(int)) return static_cast<V>(shfl(static_cast<int>(v)));
  else return shfl(v);
}

// A partial reduction under SR's add monoid. Plus, min, max and lor have a neutral identity,
// so an empty partial is the identity itself. Any's identity (0) only marks "absent" in a dense
// vector and is not neutral (add(x, 0) returns 0 and would drop x), so Any carries a presence
// bit and a merge keeps the present side.
template <class SR, class V, bool Any = is_any_monoid<typename SR::add_monoid>>
struct Partial {
  V value;

  __device__ static Partial empty() { return {SR::template identity<V>()}; }
  __device__ void add(V x) { value = SR::template add<V>(value, x); }
  // `later` covers entries after this one's (order matters to nothing but Any).
  __device__ void merge(const Partial& later) { value = SR::template add<V>(value, later.value); }
  __device__ bool present() const { return true; }  // merging the identity is harmless
  __device__ V result() const { return value; }
  __device__ Partial shfl_xor(int lane_mask) const { return {shuffle(value, [&](auto v) { return __shfl_xor_sync(kFullWarp, v, lane_mask); })}; }
  __device__ Partial shfl_down(int delta) const { return {shuffle(value, [&](auto v) { return __shfl_down_sync(kFullWarp, v, delta); })}; }
  __device__ Partial shfl_up(int delta) const { return {shuffle(value, [&](auto v) { return __shfl_up_sync(kFullWarp, v, delta); })}; }
  __device__ Partial shfl(int src_lane) const { return {shuffle(value, [&](auto v) { return __shfl_sync(kFullWarp, v, src_lane); })}; }
};

template <class SR, class V>
struct Partial<SR, V, true> {
  V value;
  bool has;

  __device__ static Partial empty() { return {SR::template identity<V>(), false}; }
  __device__ void add(V x) {
    value = x;
    has = true;
  }
  __device__ void merge(const Partial& later) {
    if (later.has) *this = later;
  }
  __device__ bool present() const { return has; }
  __device__ V result() const { return has ? value : SR::template identity<V>(); }
  __device__ Partial shfl_xor(int lane_mask) const {
    return {shuffle(value, [&](auto v) { return __shfl_xor_sync(kFullWarp, v, lane_mask); }), __shfl_xor_sync(kFullWarp, int(has), lane_mask) != 0};
  }
  __device__ Partial shfl_down(int delta) const {
    return {shuffle(value, [&](auto v) { return __shfl_down_sync(kFullWarp, v, delta); }), __shfl_down_sync(kFullWarp, int(has), delta) != 0};
  }
  __device__ Partial shfl_up(int delta) const {
    return {shuffle(value, [&](auto v) { return __shfl_up_sync(kFullWarp, v, delta); }), __shfl_up_sync(kFullWarp, int(has), delta) != 0};
  }
  __device__ Partial shfl(int src_lane) const {
    return {shuffle(value, [&](auto v) { return __shfl_sync(kFullWarp, v, src_lane); }), __shfl_sync(kFullWarp, int(has), src_lane) != 0};
  }
};

// Bit patterns for compare-and-swap on 4- and 8-byte values.
template <class V>
using bits_t = std::conditional_t<sizeof(V) == 4, unsigned int, unsigned long long>;

template <class V>
__device__ __forceinline__ bits_t<V> to_bits(V v) {
  bits_t<V> b;
  memcpy(&b, &v, sizeof(V));
  return b;
}
template <class V>
__device__ __forceinline__ V from_bits(bits_t<V> b) {
  V v;
  memcpy(&v, &b, sizeof(V));
  return v;
}

// *target = add(*target, x) under SR by compare-and-swap: on the value's own bits, or for
// another 1-byte value on the aligned 32-bit word holding it. Stops once the target absorbs x
// (the common case for min/max after the first few writers).
template <class SR, class V>
__device__ void cas_merge(V* target, V x) {
  if constexpr (std::is_same_v<V, bool>) {
    // Every bool monoid here (lor, land, any) either sets the byte whatever it held or leaves
    // it: a plain byte store, and no read of the word around it (which can pass the end of
    // the vector).
    const bool if_false = SR::template add<V>(false, x), if_true = SR::template add<V>(true, x);
    if (if_false == if_true) *reinterpret_cast<volatile bool*>(target) = if_false;
    if (if_false == if_true || (!if_false && if_true)) return;
  }
  if constexpr (sizeof(V) == 1) {
    const auto address = reinterpret_cast<std::uintptr_t>(target);
    unsigned* word = reinterpret_cast<unsigned*>(address & ~std::uintptr_t(3));
    const unsigned shift = unsigned(address & 3) * 8;
    unsigned old = *reinterpret_cast<volatile unsigned*>(word);
    while (true) {
      V current;
      const unsigned char byte = static_cast<unsigned char>(old >> shift);
      memcpy(&current, &byte, 1);
      const V merged = SR::template add<V>(current, x);
      unsigned char merged_byte;
      memcpy(&merged_byte, &merged, 1);
      const unsigned desired = (old & ~(0xffu << shift)) | (unsigned(merged_byte) << shift);
      if (desired == old) return;
      const unsigned seen = atomicCAS(word, old, desired);
      if (seen == old) return;
      old = seen;
    }
  } else {
    using U = bits_t<V>;
    U* addr = reinterpret_cast<U*>(target);
    U old = *reinterpret_cast<volatile U*>(addr);
    while (true) {
      const U desired = to_bits(SR::template add<V>(from_bits<V>(old), x));
      if (desired == old) return;
      const U seen = atomicCAS(addr, old, desired);
      if (seen == old) return;
      old = seen;
    }
  }
}

// *target = add(*target, p) atomically. Any stores a present value (every present value is a
// valid answer); plus, min, max and bor use hardware atomics where the type has them (plus on
// float, double and integers, whose two's-complement sums are the same unsigned; min and max on
// 32- and 64-bit integers; bor on words); the rest a compare-and-swap loop.
template <class SR, class V>
__device__ void atomic_merge(V* target, const Partial<SR, V>& p) {
  static_assert(sizeof(V) == 1 || sizeof(V) == 4 || sizeof(V) == 8, "SpMV values of 1, 4 or 8 bytes");
  using Monoid = typename SR::add_monoid;
  constexpr bool integer = std::is_integral_v<V> && !std::is_same_v<V, bool>;
  if constexpr (is_any_monoid<Monoid>) {
    if (!p.present()) return;
    if constexpr (sizeof(V) == 1) *reinterpret_cast<volatile V*>(target) = p.value;  // a byte store is whole
    else atomicExch(reinterpret_cast<bits_t<V>*>(target), to_bits(p.value));
  } else if constexpr (std::is_same_v<Monoid, monoid::Plus> && (std::is_floating_point_v<V> || integer)) {
    if constexpr (integer) atomicAdd(reinterpret_cast<bits_t<V>*>(target), to_bits(p.value));
    else atomicAdd(target, p.value);
  } else if constexpr (std::is_same_v<Monoid, monoid::Bor> && integer) {
    atomicOr(reinterpret_cast<bits_t<V>*>(target), to_bits(p.value));
  } else if constexpr ((std::is_same_v<Monoid, monoid::Min> || std::is_same_v<Monoid, monoid::Max>) && integer) {
    using S = std::conditional_t<std::is_signed_v<V>, std::conditional_t<sizeof(V) == 4, int, long long>,
                                 std::conditional_t<sizeof(V) == 4, unsigned, unsigned long long>>;
    if constexpr (std::is_same_v<Monoid, monoid::Min>) atomicMin(reinterpret_cast<S*>(target), static_cast<S>(p.value));
    else atomicMax(reinterpret_cast<S*>(target), static_cast<S>(p.value));
  } else {
    cas_merge<SR>(target, p.value);
  }
}

// Which outputs a product may write. A dense mask vector allows i when mask[i] != 0 (valued)
// and complement inverts that; values == nullptr allows every i (no mask, or a structural mask
// on a dense vector, whose every entry exists). Positions not allowed keep y's old value,
// or take the identity with replace.
template <class V>
struct OutputMask {
  const V* values = nullptr;
  bool complement = false;
  bool replace = false;

  __device__ bool allows(vid_t i) const {
    return values == nullptr || ((ldg(values + i) != V(0)) != complement);
  }
};

// ReadOnce: y is read once, soon after (device::store_read_once).
template <class SR, bool ReadOnce = false, class V>
__device__ __forceinline__ void write_output(V* y, vid_t i, bool allowed, const Partial<SR, V>& p,
                                             const OutputMask<V>& mask) {
  auto put = [&](V value) {
    if constexpr (ReadOnce) device::store_read_once(y, i, value);
    else y[i] = value;
  };
  if (allowed) put(p.result());
  else if (mask.replace) put(SR::template identity<V>());
}

}  // namespace spgraph::gpu::detail
