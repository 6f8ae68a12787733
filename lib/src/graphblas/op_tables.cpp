// spgraph's semirings, binary operators and monoids -> SuiteSparse:GraphBLAS built-ins.
// A missing combination is an error, never a substitute.
#include <string>

#include "internal.hpp"

namespace spgraph::graphblas::internal {
namespace {

using detail::Op;
using detail::Unary;

// Over bool, semiring.hpp's plus (a + b != 0) and max are lor; min and times are land.
Op bool_equivalent(Op op) {
  switch (op) {
    case Op::Plus:
    case Op::Max: return Op::Lor;
    case Op::Min:
    case Op::Times: return Op::Land;
    default: return op;
  }
}

// GxB_<ADD>_<MUL>_<T> for the multiply ops spgraph defines, over one add monoid.
#define SPGRAPH_MULTIPLY_CASES(ADD, T)                 \
  switch (mul) {                                       \
    case Op::Times: return GxB_##ADD##_TIMES_##T;      \
    case Op::First: return GxB_##ADD##_FIRST_##T;      \
    case Op::Second: return GxB_##ADD##_SECOND_##T;    \
    case Op::Pair: return GxB_##ADD##_PAIR_##T;        \
    case Op::Land: return GxB_##ADD##_LAND_##T;        \
    case Op::Plus: return GxB_##ADD##_PLUS_##T;        \
    default: return nullptr;                           \
  }

#define SPGRAPH_NUMERIC_SEMIRING(T)                                    \
  switch (add) {                                                       \
    case Op::Plus: SPGRAPH_MULTIPLY_CASES(PLUS, T)                     \
    case Op::Min: SPGRAPH_MULTIPLY_CASES(MIN, T)                       \
    case Op::Max: SPGRAPH_MULTIPLY_CASES(MAX, T)                       \
    case Op::Any: SPGRAPH_MULTIPLY_CASES(ANY, T)                       \
    default: return nullptr;                                           \
  }

// Positional: the value is the inner index k, which GraphBLAS produces as INT32 or INT64 only.
#define SPGRAPH_SECONDI_SEMIRING(T)                       \
  switch (add) {                                          \
    case Op::Plus: return GxB_PLUS_SECONDI_##T;           \
    case Op::Min: return GxB_MIN_SECONDI_##T;             \
    case Op::Max: return GxB_MAX_SECONDI_##T;             \
    case Op::Any: return GxB_ANY_SECONDI_##T;             \
    default: return nullptr;                              \
  }

template <class V> GrB_Semiring find_semiring(Op add, Op mul);
template <> GrB_Semiring find_semiring<float>(Op add, Op mul) { SPGRAPH_NUMERIC_SEMIRING(FP32) }
template <> GrB_Semiring find_semiring<double>(Op add, Op mul) { SPGRAPH_NUMERIC_SEMIRING(FP64) }
template <> GrB_Semiring find_semiring<std::int32_t>(Op add, Op mul) {
  if (mul == Op::SecondI) SPGRAPH_SECONDI_SEMIRING(INT32)
  SPGRAPH_NUMERIC_SEMIRING(INT32)
}
template <> GrB_Semiring find_semiring<std::int64_t>(Op add, Op mul) {
  if (mul == Op::SecondI) SPGRAPH_SECONDI_SEMIRING(INT64)
  SPGRAPH_NUMERIC_SEMIRING(INT64)
}
template <> GrB_Semiring find_semiring<bool>(Op add, Op mul) {
  mul = bool_equivalent(mul);
  if (mul == Op::Lor) {  // mult::Plus over bool
    switch (bool_equivalent(add)) {
      case Op::Lor: return GxB_LOR_LOR_BOOL;
      case Op::Land: return GxB_LAND_LOR_BOOL;
      case Op::Any: return GxB_ANY_LOR_BOOL;
      default: return nullptr;
    }
  }
  switch (bool_equivalent(add)) {
    case Op::Lor:
      switch (mul) {
        case Op::Land: return GxB_LOR_LAND_BOOL;
        case Op::First: return GxB_LOR_FIRST_BOOL;
        case Op::Second: return GxB_LOR_SECOND_BOOL;
        case Op::Pair: return GxB_LOR_PAIR_BOOL;
        default: return nullptr;
      }
    case Op::Land:
      switch (mul) {
        case Op::Land: return GxB_LAND_LAND_BOOL;
        case Op::First: return GxB_LAND_FIRST_BOOL;
        case Op::Second: return GxB_LAND_SECOND_BOOL;
        case Op::Pair: return GxB_LAND_PAIR_BOOL;
        default: return nullptr;
      }
    case Op::Any:
      switch (mul) {
        case Op::Land: return GxB_ANY_LAND_BOOL;
        case Op::First: return GxB_ANY_FIRST_BOOL;
        case Op::Second: return GxB_ANY_SECOND_BOOL;
        case Op::Pair: return GxB_ANY_PAIR_BOOL;
        default: return nullptr;
      }
    default: return nullptr;
  }
}

// Words (a bit per BFS source): bor.band is a built-in; bor.second is built once from the
// bor monoid and second (GraphBLAS has no predefined one).
template <> GrB_Semiring find_semiring<std::uint64_t>(Op add, Op mul) {
  if (add != Op::Bor) return nullptr;
  if (mul == Op::Band) return GxB_BOR_BAND_UINT64;
  if (mul != Op::Second) return nullptr;
  static const GrB_Semiring bor_second = [] {
    GrB_Semiring s = nullptr;
    check(GrB_Semiring_new(&s, GxB_BOR_UINT64_MONOID, GrB_SECOND_UINT64), "GrB_Semiring_new (bor.second over uint64)");
    return s;
  }();
  return bor_second;
}

#define SPGRAPH_BINARY_OP(T)                     \
  switch (op) {                                  \
    case Op::Plus: return GrB_PLUS_##T;          \
    case Op::Min: return GrB_MIN_##T;            \
    case Op::Max: return GrB_MAX_##T;            \
    case Op::Lor: return GxB_LOR_##T;            \
    case Op::Land: return GxB_LAND_##T;          \
    case Op::Any: return GxB_ANY_##T;            \
    case Op::Times: return GrB_TIMES_##T;        \
    case Op::First: return GrB_FIRST_##T;        \
    case Op::Second: return GrB_SECOND_##T;      \
    case Op::Pair: return GrB_ONEB_##T;          \
    default: return nullptr;                     \
  }

template <class V> GrB_BinaryOp find_binary_op(Op op);
template <> GrB_BinaryOp find_binary_op<float>(Op op) { SPGRAPH_BINARY_OP(FP32) }
template <> GrB_BinaryOp find_binary_op<double>(Op op) { SPGRAPH_BINARY_OP(FP64) }
template <> GrB_BinaryOp find_binary_op<std::int32_t>(Op op) { SPGRAPH_BINARY_OP(INT32) }
template <> GrB_BinaryOp find_binary_op<std::int64_t>(Op op) { SPGRAPH_BINARY_OP(INT64) }
template <> GrB_BinaryOp find_binary_op<bool>(Op op) {
  switch (bool_equivalent(op)) {
    case Op::Lor: return GrB_LOR;
    case Op::Land: return GrB_LAND;
    case Op::Any: return GxB_ANY_BOOL;
    case Op::First: return GrB_FIRST_BOOL;
    case Op::Second: return GrB_SECOND_BOOL;
    case Op::Pair: return GrB_ONEB_BOOL;
    default: return nullptr;
  }
}

// GraphBLAS has lor and land monoids over bool only.
#define SPGRAPH_MONOID(T)                               \
  switch (op) {                                         \
    case Op::Plus: return GrB_PLUS_MONOID_##T;          \
    case Op::Min: return GrB_MIN_MONOID_##T;            \
    case Op::Max: return GrB_MAX_MONOID_##T;            \
    case Op::Any: return GxB_ANY_##T##_MONOID;          \
    default: return nullptr;                            \
  }

template <class V> GrB_Monoid find_monoid(Op op);
template <> GrB_Monoid find_monoid<float>(Op op) { SPGRAPH_MONOID(FP32) }
template <> GrB_Monoid find_monoid<double>(Op op) { SPGRAPH_MONOID(FP64) }
template <> GrB_Monoid find_monoid<std::int32_t>(Op op) { SPGRAPH_MONOID(INT32) }
template <> GrB_Monoid find_monoid<std::int64_t>(Op op) { SPGRAPH_MONOID(INT64) }
template <> GrB_Monoid find_monoid<bool>(Op op) {
  switch (bool_equivalent(op)) {
    case Op::Lor: return GrB_LOR_MONOID_BOOL;
    case Op::Land: return GrB_LAND_MONOID_BOOL;
    case Op::Any: return GxB_ANY_BOOL_MONOID;
    default: return nullptr;
  }
}

#define SPGRAPH_UNARY_OP(T)                     \
  switch (kind) {                               \
    case Unary::Identity: return GrB_IDENTITY_##T; \
    case Unary::Abs: return GrB_ABS_##T;        \
    case Unary::Negate: return GrB_AINV_##T;    \
    case Unary::One: return GxB_ONE_##T;        \
    case Unary::Inverse: return GrB_MINV_##T;   \
    default: return nullptr;                    \
  }

// unary::ToFloat over double has no built-in: a user-defined operator, made once.
void round_to_float(void* z, const void* x) { *static_cast<double*>(z) = double(float(*static_cast<const double*>(x))); }
GrB_UnaryOp to_float_fp64() {
  static GrB_UnaryOp op = [] {
    GrB_UnaryOp made = nullptr;
    check(GrB_UnaryOp_new(&made, round_to_float, GrB_FP64, GrB_FP64), "GrB_UnaryOp_new (round to float)");
    return made;
  }();
  return op;
}

template <class V> GrB_UnaryOp find_unary_op(Unary kind);
template <> GrB_UnaryOp find_unary_op<float>(Unary kind) {
  if (kind == Unary::ToFloat) return GrB_IDENTITY_FP32;
  SPGRAPH_UNARY_OP(FP32)
}
template <> GrB_UnaryOp find_unary_op<double>(Unary kind) {
  if (kind == Unary::ToFloat) return to_float_fp64();
  SPGRAPH_UNARY_OP(FP64)
}
template <> GrB_UnaryOp find_unary_op<std::int32_t>(Unary kind) { SPGRAPH_UNARY_OP(INT32) }
template <> GrB_UnaryOp find_unary_op<std::int64_t>(Unary kind) { SPGRAPH_UNARY_OP(INT64) }
template <> GrB_UnaryOp find_unary_op<bool>(Unary kind) { SPGRAPH_UNARY_OP(BOOL) }

#undef SPGRAPH_UNARY_OP
#undef SPGRAPH_MULTIPLY_CASES
#undef SPGRAPH_NUMERIC_SEMIRING
#undef SPGRAPH_SECONDI_SEMIRING
#undef SPGRAPH_BINARY_OP
#undef SPGRAPH_MONOID

[[noreturn]] void unsupported(const char* what, const std::string& thing, const char* type) {
  throw Error(std::string("graphblas: ") + what + ": " + thing + " over " + type +
              " has no SuiteSparse:GraphBLAS built-in; use another value type or operator, or the gpu backend");
}

}  // namespace

template <class V>
GrB_Semiring semiring(detail::SemiringId id, const char* what) {
  GrB_Semiring s = find_semiring<V>(id.add.op, id.mul.op);
  if (!s) unsupported(what, std::string("semiring ") + id.add.name + "." + id.mul.name, type_name<V>());
  return s;
}

template <class V>
GrB_BinaryOp binary_op(detail::OpId id, const char* what) {
  GrB_BinaryOp op = find_binary_op<V>(id.op);
  if (!op) unsupported(what, std::string("operator ") + id.name, type_name<V>());
  return op;
}

template <class V>
GrB_Monoid monoid(detail::OpId id, const char* what) {
  GrB_Monoid m = find_monoid<V>(id.op);
  if (!m) unsupported(what, std::string("monoid ") + id.name, type_name<V>());
  return m;
}

template <class V>
GrB_UnaryOp unary_op(Unary kind, const char* what) {
  GrB_UnaryOp op = find_unary_op<V>(kind);
  if (!op) unsupported(what, "a user-defined unary operator", type_name<V>());
  return op;
}

#define SPGRAPH_INSTANTIATE(V)                                              \
  template GrB_UnaryOp unary_op<V>(Unary, const char*);                    \
  template GrB_Semiring semiring<V>(detail::SemiringId, const char*);      \
  template GrB_BinaryOp binary_op<V>(detail::OpId, const char*);           \
  template GrB_Monoid monoid<V>(detail::OpId, const char*);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE
template GrB_Semiring semiring<std::uint64_t>(detail::SemiringId, const char*);

}  // namespace spgraph::graphblas::internal
