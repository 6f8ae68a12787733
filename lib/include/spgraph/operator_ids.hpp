#pragma once
// Run-time ids of the built-in operators, monoids, semirings and unary operators, so that a
// backend compiles each operation once per value type and dispatches on the operator at run
// time (GraphBLAS does the same with its built-ins). An operator type without an id maps to
// Unknown, which every backend refuses with an Error naming it: nothing falls back to
// another operator.
#include <type_traits>

#include "spgraph/semiring.hpp"
#include "spgraph/unary_ops.hpp"

namespace spgraph::detail {

enum class Op : unsigned char { Unknown, Plus, Min, Max, Lor, Any, Times, First, Second, Pair, Land, SecondI, Bor, Band };

struct OpId {
  Op op;
  const char* name;  // for messages
};

// monoid:: and mult:: types (mult::Plus and monoid::Plus are the same operator).
template <class T>
constexpr OpId op_id() {
  const char* name = "user-defined";
  if constexpr (requires { T::name; }) name = T::name;
  Op op = Op::Unknown;
  if constexpr (std::is_same_v<T, monoid::Plus> || std::is_same_v<T, mult::Plus>) op = Op::Plus;
  else if constexpr (std::is_same_v<T, monoid::Min>) op = Op::Min;
  else if constexpr (std::is_same_v<T, monoid::Max>) op = Op::Max;
  else if constexpr (std::is_same_v<T, monoid::Lor>) op = Op::Lor;
  else if constexpr (std::is_same_v<T, monoid::Any>) op = Op::Any;
  else if constexpr (std::is_same_v<T, monoid::Bor>) op = Op::Bor;
  else if constexpr (std::is_same_v<T, mult::Times>) op = Op::Times;
  else if constexpr (std::is_same_v<T, mult::First>) op = Op::First;
  else if constexpr (std::is_same_v<T, mult::Second>) op = Op::Second;
  else if constexpr (std::is_same_v<T, mult::Pair>) op = Op::Pair;
  else if constexpr (std::is_same_v<T, mult::Land>) op = Op::Land;
  else if constexpr (std::is_same_v<T, mult::SecondI>) op = Op::SecondI;
  else if constexpr (std::is_same_v<T, mult::Band>) op = Op::Band;
  return {op, name};
}

// What a dense vector holds where an element-wise result (ewise, apply) leaves a position
// without a value (replace, or a new vector's positions the mask does not allow): the
// operator's identity when it is a monoid (plus, min, max, lor, any, bor), else 0.
template <class V>
constexpr V absent_value(Op op) {
  switch (op) {
    case Op::Min: return monoid::Min::identity<V>();
    case Op::Max: return monoid::Max::identity<V>();
    default: return V(0);
  }
}

struct SemiringId {
  OpId add, mul;
};

template <class SR>
constexpr SemiringId semiring_id() {
  return {op_id<typename SR::add_monoid>(), op_id<typename SR::multiply_op>()};
}

enum class Unary : unsigned char { Unknown, Identity, Abs, Negate, One, Inverse, Scale, AddScalar, Pow, ToFloat };

struct UnaryId {
  Unary kind;
  double scalar;  // s of Scale and AddScalar, e of Pow
};

template <class U>
constexpr UnaryId unary_id(const U& u) {
  if constexpr (std::is_same_v<U, unary::Identity>) return {Unary::Identity, 0};
  else if constexpr (std::is_same_v<U, unary::Abs>) return {Unary::Abs, 0};
  else if constexpr (std::is_same_v<U, unary::Negate>) return {Unary::Negate, 0};
  else if constexpr (std::is_same_v<U, unary::One>) return {Unary::One, 0};
  else if constexpr (std::is_same_v<U, unary::Inverse>) return {Unary::Inverse, 0};
  else if constexpr (std::is_same_v<U, unary::Scale>) return {Unary::Scale, u.s};
  else if constexpr (std::is_same_v<U, unary::AddScalar>) return {Unary::AddScalar, u.s};
  else if constexpr (std::is_same_v<U, unary::Pow>) return {Unary::Pow, u.e};
  else if constexpr (std::is_same_v<U, unary::ToFloat>) return {Unary::ToFloat, 0};
  else return {Unary::Unknown, 0};
}

}  // namespace spgraph::detail
