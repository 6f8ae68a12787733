#pragma once
// Semirings as compile-time types, usable in device code and mapped one-to-one onto
// SuiteSparse:GraphBLAS built-ins by the graphblas backend. A semiring is never replaced by
// plus-times behind the caller's back: a backend that cannot run one throws.
//
// Add monoids:   add(a, b), identity<T>()
// Multiply ops:  apply<T>(a, b, k) with k the inner index (A(i,k) * B(k,j)), used by the
//                positional op SecondI (BFS parents). uses_a / uses_b say whether the op
//                reads A's or B's value, so kernels can skip loading values it ignores.
#include <limits>
#include <type_traits>

#include "spgraph/types.hpp"

namespace spgraph {

namespace monoid {
struct Plus {
  static constexpr const char* name = "plus";
  template <class T> SPGRAPH_HD static constexpr T identity() { return T(0); }
  template <class T> SPGRAPH_HD static constexpr T add(T a, T b) { return a + b; }
};
struct Min {
  static constexpr const char* name = "min";
  template <class T> SPGRAPH_HD static constexpr T identity() {
    if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
  template <class T> SPGRAPH_HD static constexpr T add(T a, T b) { return b < a ? b : a; }
};
struct Max {
  static constexpr const char* name = "max";
  template <class T> SPGRAPH_HD static constexpr T identity() {
    if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
  template <class T> SPGRAPH_HD static constexpr T add(T a, T b) { return a < b ? b : a; }
};
struct Lor {
  static constexpr const char* name = "lor";
  template <class T> SPGRAPH_HD static constexpr T identity() { return T(0); }
  template <class T> SPGRAPH_HD static constexpr T add(T a, T b) { return T((a != T(0)) || (b != T(0))); }
};
// Any value present may be returned; spgraph returns the one seen last by the reduction, so
// results are valid but not unique (compare by validity, not equality, as GraphBLAS documents).
// Its "identity" is not neutral (add(x, id) drops x): it only marks "no value" in a dense
// vector, so it is -1 for signed and floating types, which any.secondi (a vertex id >= 0, BFS's
// parent) and any.pair (1) never produce: vertex 0 is a real parent, -1 none. A valued mask
// reads -1 as true; test the marker, not the value, for "has a parent". 0 for bool and words.
struct Any {
  static constexpr const char* name = "any";
  template <class T> SPGRAPH_HD static constexpr T identity() {
    if constexpr (std::is_signed_v<T>) return T(-1);
    else return T(0);
  }
  template <class T> SPGRAPH_HD static constexpr T add(T, T b) { return b; }
};
// Bitwise or of unsigned words: one bit per BFS source in a 64-bit word.
struct Bor {
  static constexpr const char* name = "bor";
  template <class T> SPGRAPH_HD static constexpr T identity() { return T(0); }
  template <class T> SPGRAPH_HD static constexpr T add(T a, T b) { return T(a | b); }
};
}  // namespace monoid

namespace mult {
struct Times {
  static constexpr const char* name = "times";
  static constexpr bool uses_a = true, uses_b = true;
  template <class T> SPGRAPH_HD static constexpr T apply(T a, T b, vid_t) { return a * b; }
};
struct First {
  static constexpr const char* name = "first";
  static constexpr bool uses_a = true, uses_b = false;
  template <class T> SPGRAPH_HD static constexpr T apply(T a, T, vid_t) { return a; }
};
struct Second {
  static constexpr const char* name = "second";
  static constexpr bool uses_a = false, uses_b = true;
  template <class T> SPGRAPH_HD static constexpr T apply(T, T b, vid_t) { return b; }
};
struct Pair {  // 1 wherever both entries exist (GraphBLAS's PAIR / ONEB)
  static constexpr const char* name = "pair";
  static constexpr bool uses_a = false, uses_b = false;
  template <class T> SPGRAPH_HD static constexpr T apply(T, T, vid_t) { return T(1); }
};
struct Land {
  static constexpr const char* name = "land";
  static constexpr bool uses_a = true, uses_b = true;
  template <class T> SPGRAPH_HD static constexpr T apply(T a, T b, vid_t) { return T((a != T(0)) && (b != T(0))); }
};
struct Plus {  // the multiply of min-plus (shortest paths)
  static constexpr const char* name = "plus";
  static constexpr bool uses_a = true, uses_b = true;
  template <class T> SPGRAPH_HD static constexpr T apply(T a, T b, vid_t) { return a + b; }
};
// The inner index k of A(i,k)*B(k,j): for a frontier row vector q, q*A gives each reached
// vertex j a parent k (GraphBLAS's SECONDI, 0-based).
struct SecondI {
  static constexpr const char* name = "secondi";
  static constexpr bool uses_a = false, uses_b = false;
  template <class T> SPGRAPH_HD static constexpr T apply(T, T, vid_t k) { return T(k); }
};
struct Band {  // bitwise and of unsigned words
  static constexpr const char* name = "band";
  static constexpr bool uses_a = true, uses_b = true;
  template <class T> SPGRAPH_HD static constexpr T apply(T a, T b, vid_t) { return T(a & b); }
};
}  // namespace mult

template <class AddMonoid, class MultiplyOp>
struct Semiring {
  using add_monoid = AddMonoid;
  using multiply_op = MultiplyOp;
  template <class T> SPGRAPH_HD static constexpr T identity() { return AddMonoid::template identity<T>(); }
  template <class T> SPGRAPH_HD static constexpr T add(T a, T b) { return AddMonoid::add(a, b); }
  template <class T> SPGRAPH_HD static constexpr T multiply(T a, T b, vid_t k) { return MultiplyOp::apply(a, b, k); }
};

using PlusTimes = Semiring<monoid::Plus, mult::Times>;
using MinPlus = Semiring<monoid::Min, mult::Plus>;
using MaxTimes = Semiring<monoid::Max, mult::Times>;
using OrAnd = Semiring<monoid::Lor, mult::Land>;
using PlusPair = Semiring<monoid::Plus, mult::Pair>;       // triangle counting
using AnySecondI = Semiring<monoid::Any, mult::SecondI>;   // BFS parents
using PlusFirst = Semiring<monoid::Plus, mult::First>;
using PlusSecond = Semiring<monoid::Plus, mult::Second>;   // PageRank pull: sum of x over in-links
using BorBand = Semiring<monoid::Bor, mult::Band>;         // bit-parallel BFS over std::uint64_t words
using BorSecond = Semiring<monoid::Bor, mult::Second>;     // the same on a pattern matrix (entries read as 1)

}  // namespace spgraph
