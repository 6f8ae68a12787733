#pragma once
// Device-side building blocks for reductions under a semiring's add monoid: partial results,
// warp shuffles of them, atomic merging into an output entry, and the output mask. Used by
// the SpMV kernels (spmv_kernels_impl.cuh); CUDA translation units only.
#include <cuda_runtime.h>

#include <type_traits>

#include "spgraph/device/cache_hints.hpp"
#include "spgraph/semiring.hpp"

namespace spgraph::gpu::detail {

inline constexpr unsigned kFullWarp = 0xffffffffu;

template <class Monoid>
inline constexpr bool is_any_monoid = std::is_same_v<Monoid, monoid::Any>;

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
  __device__ Partial shfl_xor(int lane_mask) const { return {__shfl_xor_sync(kFullWarp, value, lane_mask)}; }
  __device__ Partial shfl_down(int delta) const { return {__shfl_down_sync(kFullWarp, value, delta)}; }
  __device__ Partial shfl_up(int delta) const { return {__shfl_up_sync(kFullWarp, value, delta)}; }
  __device__ Partial shfl(int src_lane) const { return {__shfl_sync(kFullWarp, value, src_lane)}; }
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
    return {__shfl_xor_sync(kFullWarp, value, lane_mask), __shfl_xor_sync(kFullWarp, int(has), lane_mask) != 0};
  }
  __device__ Partial shfl_down(int delta) const {
    return {__shfl_down_sync(kFullWarp, value, delta), __shfl_down_sync(kFullWarp, int(has), delta) != 0};
  }
  __device__ Partial shfl_up(int delta) const {
    return {__shfl_up_sync(kFullWarp, value, delta), __shfl_up_sync(kFullWarp, int(has), delta) != 0};
  }
  __device__ Partial shfl(int src_lane) const {
    return {__shfl_sync(kFullWarp, value, src_lane), __shfl_sync(kFullWarp, int(has), src_lane) != 0};
  }
};

// Bit patterns for compare-and-swap on float/double.
template <class V>
using bits_t = std::conditional_t<sizeof(V) == 4, unsigned int, unsigned long long>;

template <class V>
__device__ __forceinline__ bits_t<V> to_bits(V v) {
  if constexpr (sizeof(V) == 4) return __float_as_uint(v);
  else return static_cast<unsigned long long>(__double_as_longlong(v));
}
template <class V>
__device__ __forceinline__ V from_bits(bits_t<V> b) {
  if constexpr (sizeof(V) == 4) return __uint_as_float(b);
  else return __longlong_as_double(static_cast<long long>(b));
}

// *target = add(*target, p) atomically. Plus has hardware atomics for float and double; any
// stores a present value (every present value is a valid answer); min, max and lor have no
// floating-point atomics and use a compare-and-swap loop, which stops early once the target
// already absorbs p (the common case for min/max after the first few writers).
template <class SR, class V>
__device__ void atomic_merge(V* target, const Partial<SR, V>& p) {
  static_assert(std::is_same_v<V, float> || std::is_same_v<V, double>, "SpMV values are float or double");
  using Monoid = typename SR::add_monoid;
  using U = bits_t<V>;
  if constexpr (is_any_monoid<Monoid>) {
    if (p.present()) atomicExch(reinterpret_cast<U*>(target), to_bits(p.value));
  } else if constexpr (std::is_same_v<Monoid, monoid::Plus>) {
    atomicAdd(target, p.value);
  } else {
    U* addr = reinterpret_cast<U*>(target);
    U old = *reinterpret_cast<volatile U*>(addr);
    while (true) {
      const U desired = to_bits(SR::template add<V>(from_bits<V>(old), p.value));
      if (desired == old) return;
      const U seen = atomicCAS(addr, old, desired);
      if (seen == old) return;
      old = seen;
    }
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
    return values == nullptr || ((__ldg(values + i) != V(0)) != complement);
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
