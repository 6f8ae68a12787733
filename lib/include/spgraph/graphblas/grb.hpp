#pragma once
// Raw SuiteSparse:GraphBLAS access, for code that calls GrB_* directly on a Matrix/Vector's
// handle() (this backend's sources, benchmarks against GraphBLAS). Algorithms do not need it:
// matrix.hpp and operations.hpp keep GraphBLAS.h out of their includes.
//
// C++ has no C11 _Generic, so GraphBLAS's polymorphic macros (GrB_free, GrB_apply, ...) do
// not exist here: call the typed names (GrB_Matrix_free, GrB_Matrix_apply_BinaryOp2nd_FP64).
#include <cstdint>

// GraphBLAS.h 7.4 declares its functions without extern "C" for C++ (its own C++ parts are
// already wrapped in extern "C++"), so without this every GrB_ call would fail to link.
extern "C" {
#include <GraphBLAS.h>
}

#include "spgraph/graphblas/matrix.hpp"

namespace spgraph::graphblas {

template <class V> GrB_Type grb_type();
template <> inline GrB_Type grb_type<float>() { return GrB_FP32; }
template <> inline GrB_Type grb_type<double>() { return GrB_FP64; }
template <> inline GrB_Type grb_type<std::int32_t>() { return GrB_INT32; }
template <> inline GrB_Type grb_type<std::int64_t>() { return GrB_INT64; }
template <> inline GrB_Type grb_type<bool>() { return GrB_BOOL; }
template <> inline GrB_Type grb_type<std::uint8_t>() { return GrB_UINT8; }
template <> inline GrB_Type grb_type<std::uint64_t>() { return GrB_UINT64; }

// For messages: "float", "double", "int32", "int64", "bool", "uint8", "uint64".
template <class V> const char* type_name();

// Throws unless info is GrB_SUCCESS: spgraph::Error (ResourceError for GrB_OUT_OF_MEMORY)
// reading "graphblas: CALL failed (GrB_CODE): <GrB_error text of obj>". Pass the object the
// call wrote to: GraphBLAS keeps the detailed message on it.
void check(GrB_Info info, const char* call);
void check(GrB_Info info, const char* call, GrB_Matrix written);
void check(GrB_Info info, const char* call, GrB_Vector written);

}  // namespace spgraph::graphblas
