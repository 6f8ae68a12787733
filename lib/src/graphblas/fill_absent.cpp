// Keeps vectors dense: GraphBLAS leaves a position empty where a product or reduction has no
// term; this backend's vectors hold the monoid's identity there instead.
#include "internal.hpp"

namespace spgraph::graphblas::internal {
namespace {

GrB_Info assign(GrB_Vector w, float x, GrB_Index n) { return GrB_Vector_assign_FP32(w, w, nullptr, x, GrB_ALL, n, GrB_DESC_SC); }
GrB_Info assign(GrB_Vector w, double x, GrB_Index n) { return GrB_Vector_assign_FP64(w, w, nullptr, x, GrB_ALL, n, GrB_DESC_SC); }
GrB_Info assign(GrB_Vector w, std::int32_t x, GrB_Index n) { return GrB_Vector_assign_INT32(w, w, nullptr, x, GrB_ALL, n, GrB_DESC_SC); }
GrB_Info assign(GrB_Vector w, std::int64_t x, GrB_Index n) { return GrB_Vector_assign_INT64(w, w, nullptr, x, GrB_ALL, n, GrB_DESC_SC); }
GrB_Info assign(GrB_Vector w, bool x, GrB_Index n) { return GrB_Vector_assign_BOOL(w, w, nullptr, x, GrB_ALL, n, GrB_DESC_SC); }
GrB_Info assign(GrB_Vector w, std::uint64_t x, GrB_Index n) { return GrB_Vector_assign_UINT64(w, w, nullptr, x, GrB_ALL, n, GrB_DESC_SC); }

}  // namespace

template <class V>
void fill_absent(GrB_Vector v, V value) {
  const GrB_Index n = size(v);
  if (nvals(v) == n) return;
  // v<!struct(v)> = value: the mask (v's own pattern, complemented) selects the empty slots.
  check(assign(v, value, n), "GrB_Vector_assign (fill empty positions)", v);
}

template void fill_absent<float>(GrB_Vector, float);
template void fill_absent<double>(GrB_Vector, double);
template void fill_absent<std::int32_t>(GrB_Vector, std::int32_t);
template void fill_absent<std::int64_t>(GrB_Vector, std::int64_t);
template void fill_absent<bool>(GrB_Vector, bool);
template void fill_absent<std::uint64_t>(GrB_Vector, std::uint64_t);

}  // namespace spgraph::graphblas::internal
