#pragma once
#include <cstdint>
#include <type_traits>

namespace spgraph {

// The type a plus-reduction over V accumulates in: V for floating point, int64_t for integers
// and bool, so that counts (triangles) stay exact past 2^31.
template <class V>
using sum_type_t = std::conditional_t<std::is_floating_point_v<V>, V, std::int64_t>;

}  // namespace spgraph
