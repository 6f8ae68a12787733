#pragma once
// The one list of what spgraph compiles: every explicit instantiation in lib/src (host
// containers, the GraphBLAS backend, the GPU operations) expands these macros, and the tests
// iterate over the same lists, so a type added here is built and tested everywhere.
//
//   SPGRAPH_FOR_EACH_VALUE_TYPE(X)   matrix and vector value types of every operation
//   SPGRAPH_FOR_EACH_COUNT_TYPE(X)   value types whose reductions may also return int64_t
//                                    counts (X(V) is called with each such V)
//   spgraph::value_types<L>          L<float, double, ...>: the same list as a type, for typed
//                                    tests (value_types<::testing::Types>)
// Semiring and type pairs of the SpMV and SpGEMM kernels are listed in gpu/spmv.hpp and
// gpu/spgemm.hpp, one file per pair; word types for bitwise semirings (std::uint64_t, a bit per
// BFS source) are instantiated for mxv and vxm only.
#include <cstdint>
#include <tuple>

#define SPGRAPH_FOR_EACH_VALUE_TYPE(X) X(float) X(double) X(std::int32_t) X(std::int64_t) X(bool)
#define SPGRAPH_FOR_EACH_COUNT_TYPE(X) X(std::int32_t) X(bool)

namespace spgraph {
namespace detail {
#define SPGRAPH_TUPLE_OF_(T) std::tuple<T>{},
using value_type_tuple = decltype(std::tuple_cat(SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_TUPLE_OF_) std::tuple<>{}));
#undef SPGRAPH_TUPLE_OF_
template <template <class...> class L, class Tuple> struct rebind_types;
template <template <class...> class L, class... T> struct rebind_types<L, std::tuple<T...>> {
  using type = L<T...>;
};
}  // namespace detail

template <template <class...> class L>
using value_types = typename detail::rebind_types<L, detail::value_type_tuple>::type;

}  // namespace spgraph
