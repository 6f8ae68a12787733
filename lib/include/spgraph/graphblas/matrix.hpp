#pragma once
// The graphblas backend's containers: move-only owners of a SuiteSparse:GraphBLAS matrix or
// vector, for value types float, double, int32_t, int64_t and bool; vectors also of uint8_t,
// for compact per-vertex data that map_reduce reads (PageRank's out-degree codes), not for
// operations.
//
// Vectors are dense in this API, as on the gpu backend: every position holds a value, and an
// operation that leaves a position without one fills it with the add monoid's identity.
//
// GraphBLAS is initialised (GrB_init, non-blocking mode) on first use, from any thread; the
// library then uses all cores through OpenMP. One object must not be used by two threads at
// once (reading nnz() may finish pending work, which writes).
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "spgraph/csr.hpp"

// GrB_Matrix and GrB_Vector are pointers to these (GraphBLAS.h); declared here so that
// including this header does not pull in GraphBLAS.h.
struct GB_Matrix_opaque;
struct GB_Vector_opaque;

namespace spgraph::graphblas {

template <class V>
inline constexpr bool is_value_type =
    std::is_same_v<V, float> || std::is_same_v<V, double> || std::is_same_v<V, std::int32_t> ||
    std::is_same_v<V, std::int64_t> || std::is_same_v<V, bool>;
// 64-bit words for bitwise semirings (a bit per BFS source): matrices and vectors, for mxv and
// vxm only.
template <class V>
inline constexpr bool is_word_type = std::is_same_v<V, std::uint64_t>;
template <class V>
inline constexpr bool is_vector_type = is_value_type<V> || is_word_type<V> || std::is_same_v<V, std::uint8_t>;

// GrB_init(GrB_NONBLOCKING) once per process; thread-safe, and called by every constructor,
// so callers need it only before calling GrB_* themselves. Throws spgraph::Error on failure.
void initialize();

// The CPU backend as the apps' backend line names it, the parenthesis left open for a reason:
// "cpu (SuiteSparse:GraphBLAS 7.4.0, 16 threads". Starts GraphBLAS.
std::string description();

template <class V>
class Matrix {
  static_assert(is_value_type<V> || is_word_type<V>,
                "graphblas::Matrix<V>: V must be float, double, int32_t, int64_t, bool or uint64_t");

 public:
  using value_type = V;
  using handle_type = GB_Matrix_opaque*;  // GrB_Matrix

  // No GraphBLAS object (like a moved-from matrix): reads as 0 x 0; operations accept it as
  // an output (and create the result) but reject it as an input.
  Matrix() = default;
  Matrix(vid_t nrows, vid_t ncols);  // nrows x ncols with no entries
  explicit Matrix(handle_type owned) noexcept : h_(owned) {}  // takes ownership of a GrB_Matrix of type V
  Matrix(Matrix&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Matrix& operator=(Matrix&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
  ~Matrix() { reset(); }

  vid_t nrows() const;
  vid_t ncols() const;
  eid_t nnz() const;
  Matrix clone() const;  // deep copy (GrB_Matrix_dup)

  handle_type handle() const { return h_; }  // still owned by this Matrix
  explicit operator bool() const { return h_ != nullptr; }

 private:
  void reset() noexcept;
  handle_type h_ = nullptr;
};

template <class V>
class Vector {
  static_assert(is_vector_type<V>,
                "graphblas::Vector<V>: V must be float, double, int32_t, int64_t, bool, uint64_t or uint8_t");

 public:
  using value_type = V;
  using handle_type = GB_Vector_opaque*;  // GrB_Vector

  Vector() = default;  // no GraphBLAS object, size 0 (see Matrix())
  Vector(std::size_t n, V value);  // n copies of value
  explicit Vector(handle_type owned) noexcept : h_(owned) {}  // takes ownership of a full GrB_Vector of type V
  Vector(Vector&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  Vector& operator=(Vector&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  Vector(const Vector&) = delete;
  Vector& operator=(const Vector&) = delete;
  ~Vector() { reset(); }

  std::size_t size() const;
  Vector clone() const;

  handle_type handle() const { return h_; }
  explicit operator bool() const { return h_ != nullptr; }

 private:
  void reset() noexcept;
  handle_type h_ = nullptr;
};

// Throws spgraph::Error from Csr::validate when a row's columns are not strictly increasing
// (GraphBLAS requires sorted, duplicate-free rows). A pattern Csr gives a matrix whose
// entries are all 1 (stored iso: one value for all entries). O(nnz) copies, no sort.
template <class V> Matrix<V> from_host(const Csr<V>& a);
// Always with values (a pattern input comes back with explicit 1s) and sorted columns.
template <class V> Csr<V> to_host(const Matrix<V>& a);
template <class V> Vector<V> from_host(const std::vector<V>& x);
template <class V> std::vector<V> to_host(const Vector<V>& x);

namespace detail {
// Take v's array out of v (GxB_Vector_unpack_Full) and give it back (GxB_Vector_pack_Full);
// between the two v has no entries. pack_dense owns data from the call on: it frees it when
// GraphBLAS refuses it.
template <class V> V* unpack_dense(Vector<V>& v, std::size_t& n);
template <class V> void pack_dense(Vector<V>& v, V* data, std::size_t n);
}  // namespace detail

// Calls f(V* data, std::size_t n) on v's own array, without copying it, so an algorithm can
// run a fused loop over dense vectors; v's values are what f leaves in the array. The
// array is given back to v even when f throws. f must not use v itself meanwhile.
template <class V, class F>
void with_dense(Vector<V>& v, F&& f) {
  std::size_t n = 0;
  V* data = detail::unpack_dense(v, n);
  try {
    f(data, n);
  } catch (...) {
    try {
      detail::pack_dense(v, data, n);
    } catch (...) {  // the first failure is the one to report
    }
    throw;
  }
  detail::pack_dense(v, data, n);
}
// The same for reading alone: f(const V* data, std::size_t n). The array is taken from v and
// given back as it was (so v is logically const), and f must not use v meanwhile.
template <class V, class F>
void with_dense(const Vector<V>& v, F&& f) {
  with_dense(const_cast<Vector<V>&>(v), [&](V* data, std::size_t n) { f(static_cast<const V*>(data), n); });
}

}  // namespace spgraph::graphblas
