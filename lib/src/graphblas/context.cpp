// Library start-up, error translation and descriptors.
#include <mutex>
#include <sstream>
#include <string>

#include "internal.hpp"

namespace spgraph::graphblas {

void initialize() {
  static std::once_flag once;
  // call_once retries on the next call when the first attempt throws.
  std::call_once(once, [] { check(GrB_init(GrB_NONBLOCKING), "GrB_init"); });
}

std::string description() {
  initialize();
  std::int32_t threads = 0;
  check(GxB_Global_Option_get_INT32(GxB_GLOBAL_NTHREADS, &threads), "GxB_Global_Option_get_INT32");
  return "cpu (" GxB_IMPLEMENTATION_NAME " " + std::to_string(GxB_IMPLEMENTATION_MAJOR) + "." +
         std::to_string(GxB_IMPLEMENTATION_MINOR) + "." + std::to_string(GxB_IMPLEMENTATION_SUB) + ", " +
         std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

template <> const char* type_name<float>() { return "float"; }
template <> const char* type_name<double>() { return "double"; }
template <> const char* type_name<std::int32_t>() { return "int32"; }
template <> const char* type_name<std::int64_t>() { return "int64"; }
template <> const char* type_name<bool>() { return "bool"; }
template <> const char* type_name<std::uint8_t>() { return "uint8"; }
template <> const char* type_name<std::uint64_t>() { return "uint64"; }

namespace {

const char* info_name(GrB_Info info) {
  switch (info) {
    case GrB_SUCCESS: return "GrB_SUCCESS";
    case GrB_NO_VALUE: return "GrB_NO_VALUE";
    case GxB_EXHAUSTED: return "GxB_EXHAUSTED";
    case GrB_UNINITIALIZED_OBJECT: return "GrB_UNINITIALIZED_OBJECT";
    case GrB_NULL_POINTER: return "GrB_NULL_POINTER";
    case GrB_INVALID_VALUE: return "GrB_INVALID_VALUE";
    case GrB_INVALID_INDEX: return "GrB_INVALID_INDEX";
    case GrB_DOMAIN_MISMATCH: return "GrB_DOMAIN_MISMATCH";
    case GrB_DIMENSION_MISMATCH: return "GrB_DIMENSION_MISMATCH";
    case GrB_OUTPUT_NOT_EMPTY: return "GrB_OUTPUT_NOT_EMPTY";
    case GrB_NOT_IMPLEMENTED: return "GrB_NOT_IMPLEMENTED";
    case GrB_PANIC: return "GrB_PANIC";
    case GrB_OUT_OF_MEMORY: return "GrB_OUT_OF_MEMORY";
    case GrB_INSUFFICIENT_SPACE: return "GrB_INSUFFICIENT_SPACE";
    case GrB_INVALID_OBJECT: return "GrB_INVALID_OBJECT";
    case GrB_INDEX_OUT_OF_BOUNDS: return "GrB_INDEX_OUT_OF_BOUNDS";
    case GrB_EMPTY_OBJECT: return "GrB_EMPTY_OBJECT";
  }
  return "unknown GrB_Info";
}

// GrB_error's report is several lines, starting with the code and the function, which the
// message already names; apps print what() as one line.
std::string one_line(const char* report) {
  std::string out, line;
  std::istringstream lines(report);
  while (std::getline(lines, line)) {
    if (line.empty() || line.rfind("GraphBLAS error:", 0) == 0 || line.rfind("function:", 0) == 0) continue;
    if (!out.empty()) out += out.back() == ':' ? " " : "; ";
    out += line;
  }
  return out;
}

[[noreturn]] void fail(GrB_Info info, const char* call, const char* report) {
  std::string msg = std::string("graphblas: ") + call + " failed (" + info_name(info) + ")";
  if (report && *report) {
    const std::string detail = one_line(report);
    if (!detail.empty()) msg += ": " + detail;
  }
  if (info == GrB_OUT_OF_MEMORY) throw ResourceError(msg);
  throw Error(msg);
}

}  // namespace

void check(GrB_Info info, const char* call) {
  if (info != GrB_SUCCESS) fail(info, call, nullptr);
}

void check(GrB_Info info, const char* call, GrB_Matrix written) {
  if (info == GrB_SUCCESS) return;
  const char* detail = nullptr;
  if (written == nullptr || GrB_Matrix_error(&detail, written) != GrB_SUCCESS) detail = nullptr;
  fail(info, call, detail);
}

void check(GrB_Info info, const char* call, GrB_Vector written) {
  if (info == GrB_SUCCESS) return;
  const char* detail = nullptr;
  if (written == nullptr || GrB_Vector_error(&detail, written) != GrB_SUCCESS) detail = nullptr;
  fail(info, call, detail);
}

namespace internal {

void require(const void* handle, const char* operation, const char* argument) {
  if (!handle)
    throw Error(std::string("graphblas: ") + operation + ": " + argument +
                " has no GraphBLAS object (it was default-constructed or moved from)");
}

GrbDescriptor::GrbDescriptor(const Descriptor& d, bool transpose_in0, bool transpose_in1) {
  check(GrB_Descriptor_new(&d_), "GrB_Descriptor_new");
  try {
    if (d.replace) check(GrB_Descriptor_set(d_, GrB_OUTP, GrB_REPLACE), "GrB_Descriptor_set(GrB_OUTP)");
    int mask = (d.mask_structural ? GrB_STRUCTURE : 0) + (d.mask_complement ? GrB_COMP : 0);
    if (mask)
      check(GrB_Descriptor_set(d_, GrB_MASK, static_cast<GrB_Desc_Value>(mask)), "GrB_Descriptor_set(GrB_MASK)");
    if (transpose_in0) check(GrB_Descriptor_set(d_, GrB_INP0, GrB_TRAN), "GrB_Descriptor_set(GrB_INP0)");
    if (transpose_in1) check(GrB_Descriptor_set(d_, GrB_INP1, GrB_TRAN), "GrB_Descriptor_set(GrB_INP1)");
  } catch (...) {
    GrB_Descriptor_free(&d_);
    throw;
  }
}

GrbDescriptor::~GrbDescriptor() { GrB_Descriptor_free(&d_); }

}  // namespace internal
}  // namespace spgraph::graphblas
