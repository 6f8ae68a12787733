// Matrix and Vector ownership, and moving contents between host containers and GraphBLAS
// without GrB_Matrix_build's sort: host arrays are converted to GraphBLAS's CSR layout and
// packed (GraphBLAS takes the arrays over), and unpacked the other way.
#include <algorithm>
#include <string>

#include "internal.hpp"

namespace spgraph::graphblas {

// ---- Matrix --------------------------------------------------------------------------------

template <class V>
Matrix<V>::Matrix(vid_t nrows, vid_t ncols) {
  if (nrows < 0 || ncols < 0)
    throw Error("graphblas: Matrix dimensions must not be negative, got " + std::to_string(nrows) + " x " +
                std::to_string(ncols));
  initialize();
  check(GrB_Matrix_new(&h_, grb_type<V>(), static_cast<GrB_Index>(nrows), static_cast<GrB_Index>(ncols)),
        "GrB_Matrix_new");
}

template <class V>
void Matrix<V>::reset() noexcept {
  if (h_) GrB_Matrix_free(&h_);
  h_ = nullptr;
}

template <class V>
vid_t Matrix<V>::nrows() const {
  return h_ ? static_cast<vid_t>(internal::nrows(h_)) : 0;
}

template <class V>
vid_t Matrix<V>::ncols() const {
  return h_ ? static_cast<vid_t>(internal::ncols(h_)) : 0;
}

template <class V>
eid_t Matrix<V>::nnz() const {
  if (!h_) return 0;
  GrB_Index n = 0;
  check(GrB_Matrix_nvals(&n, h_), "GrB_Matrix_nvals", h_);
  return static_cast<eid_t>(n);
}

template <class V>
Matrix<V> Matrix<V>::clone() const {
  if (!h_) return Matrix();
  GrB_Matrix copy = nullptr;
  check(GrB_Matrix_dup(&copy, h_), "GrB_Matrix_dup");
  return Matrix(copy);
}

// ---- Vector --------------------------------------------------------------------------------

template <class V>
Vector<V>::Vector(std::size_t n, V value) {
  initialize();
  check(GrB_Vector_new(&h_, grb_type<V>(), n), "GrB_Vector_new");
  V* data = internal::malloc_array<V>(n);
  std::fill_n(data, n, value);
  detail::pack_dense(*this, data, n);
}

template <class V>
void Vector<V>::reset() noexcept {
  if (h_) GrB_Vector_free(&h_);
  h_ = nullptr;
}

template <class V>
std::size_t Vector<V>::size() const {
  return h_ ? static_cast<std::size_t>(internal::size(h_)) : 0;
}

template <class V>
Vector<V> Vector<V>::clone() const {
  if (!h_) return Vector();
  GrB_Vector copy = nullptr;
  check(GrB_Vector_dup(&copy, h_), "GrB_Vector_dup");
  return Vector(copy);
}

namespace detail {

template <class V>
V* unpack_dense(Vector<V>& v, std::size_t& n) {
  internal::require(v.handle(), "with_dense", "the vector");
  GrB_Vector h = v.handle();
  n = internal::size(h);
  if (internal::nvals(h) != n)
    throw Error("graphblas: a dense vector of length " + std::to_string(n) + " has only " +
                std::to_string(internal::nvals(h)) +
                " entries: its array is already out (with_dense on the same vector twice?), or it was not made"
                " by this backend");
  // An iso vector stores one value for all n; callers need all n slots. Allocate them before
  // unpacking so that a failed allocation leaves v as it was.
  bool iso = false;
  check(GxB_Vector_iso(&iso, h), "GxB_Vector_iso", h);
  V* full = iso && n > 1 ? internal::malloc_array<V>(n) : nullptr;
  void* data = nullptr;
  GrB_Index bytes = 0;
  GrB_Info info = GxB_Vector_unpack_Full(h, &data, &bytes, &iso, nullptr);
  if (info != GrB_SUCCESS) std::free(full);
  check(info, "GxB_Vector_unpack_Full", h);
  V* values = static_cast<V*>(data);
  if (full) {
    std::fill_n(full, n, values[0]);
    std::free(values);
    values = full;
  }
  return values;
}

template <class V>
void pack_dense(Vector<V>& v, V* data, std::size_t n) {
  GrB_Vector h = v.handle();
  void* p = data;
  GrB_Info info = GxB_Vector_pack_Full(h, &p, (n ? n : 1) * sizeof(V), /*iso=*/false, nullptr);
  if (info != GrB_SUCCESS) std::free(p);  // pack_dense owns data: do not leak it on failure
  check(info, "GxB_Vector_pack_Full", h);
}

}  // namespace detail

// ---- CSR arrays ----------------------------------------------------------------------------

namespace internal {

template <class V>
void PackedCsr<V>::unpack(GrB_Matrix A) {
  nrows = internal::nrows(A);
  ncols = internal::ncols(A);
  void* x = nullptr;
  // jumbled == nullptr asks GraphBLAS to sort each row's columns first.
  check(GxB_Matrix_unpack_CSR(A, &ap, &aj, &x, &ap_bytes, &aj_bytes, &ax_bytes, &iso, nullptr, nullptr),
        "GxB_Matrix_unpack_CSR", A);
  ax = static_cast<V*>(x);
}

template <class V>
void PackedCsr<V>::pack(GrB_Matrix A) {
  void* x = ax;
  check(GxB_Matrix_pack_CSR(A, &ap, &aj, &x, ap_bytes, aj_bytes, ax_bytes, iso, false, nullptr),
        "GxB_Matrix_pack_CSR", A);
  ax = static_cast<V*>(x);  // null now: A owns the arrays
}

}  // namespace internal

// ---- host conversion -------------------------------------------------------------------------

template <class V>
Matrix<V> from_host(const Csr<V>& a) {
  a.validate(/*require_sorted=*/true);
  Matrix<V> m(a.nrows, a.ncols);
  internal::PackedCsr<V> p;
  p.nrows = static_cast<GrB_Index>(a.nrows);
  p.ncols = static_cast<GrB_Index>(a.ncols);
  const std::size_t nnz = static_cast<std::size_t>(a.nnz());
  p.ap = internal::malloc_array<GrB_Index>(p.nrows + 1);
  p.ap_bytes = (p.nrows + 1) * sizeof(GrB_Index);
  std::copy(a.rowptr.begin(), a.rowptr.end(), p.ap);
  p.aj = internal::malloc_array<GrB_Index>(nnz);
  p.aj_bytes = std::max<std::size_t>(nnz, 1) * sizeof(GrB_Index);
  std::copy(a.col.begin(), a.col.end(), p.aj);
  p.iso = a.is_pattern();
  const std::size_t nvalues = p.iso ? 1 : nnz;
  p.ax = internal::malloc_array<V>(nvalues);
  p.ax_bytes = std::max<std::size_t>(nvalues, 1) * sizeof(V);
  if (p.iso) p.ax[0] = V(1);
  else std::copy(a.val.begin(), a.val.end(), p.ax);  // element-wise: also right for vector<bool>
  p.pack(m.handle());
  return m;
}

template <class V>
Csr<V> to_host(const Matrix<V>& a) {
  internal::require(a.handle(), "to_host", "the matrix");
  Matrix<V> copy = a.clone();  // unpacking empties a matrix; a stays untouched
  internal::PackedCsr<V> p;
  p.unpack(copy.handle());
  Csr<V> out;
  out.nrows = static_cast<vid_t>(p.nrows);
  out.ncols = static_cast<vid_t>(p.ncols);
  const std::size_t nnz = p.nnz();
  out.rowptr.assign(p.ap, p.ap + p.nrows + 1);
  out.col.assign(p.aj, p.aj + nnz);
  if (p.iso) out.val.assign(nnz, p.ax[0]);
  else out.val.assign(p.ax, p.ax + nnz);
  return out;
}

template <class V>
Vector<V> from_host(const std::vector<V>& x) {
  initialize();
  GrB_Vector h = nullptr;
  check(GrB_Vector_new(&h, grb_type<V>(), x.size()), "GrB_Vector_new");
  Vector<V> v(h);
  V* data = internal::malloc_array<V>(x.size());
  std::copy(x.begin(), x.end(), data);
  detail::pack_dense(v, data, x.size());
  return v;
}

template <class V>
std::vector<V> to_host(const Vector<V>& x) {
  internal::require(x.handle(), "to_host", "the vector");
  std::vector<V> out;
  Vector<V> copy = x.clone();
  with_dense(copy, [&](V* data, std::size_t n) { out.assign(data, data + n); });
  return out;
}

#define SPGRAPH_INSTANTIATE_VECTOR(V)                                    \
  template class Vector<V>;                                              \
  template V* detail::unpack_dense<V>(Vector<V>&, std::size_t&);         \
  template void detail::pack_dense<V>(Vector<V>&, V*, std::size_t);      \
  template Vector<V> from_host<V>(const std::vector<V>&);                \
  template std::vector<V> to_host<V>(const Vector<V>&);
#define SPGRAPH_INSTANTIATE(V)                                           \
  SPGRAPH_INSTANTIATE_VECTOR(V)                                          \
  template class Matrix<V>;                                              \
  template struct internal::PackedCsr<V>;                                \
  template Matrix<V> from_host<V>(const Csr<V>&);                        \
  template Csr<V> to_host<V>(const Matrix<V>&);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
SPGRAPH_INSTANTIATE(std::uint64_t)  // words for bitwise semirings
SPGRAPH_INSTANTIATE_VECTOR(std::uint8_t)
#undef SPGRAPH_INSTANTIATE
#undef SPGRAPH_INSTANTIATE_VECTOR

}  // namespace spgraph::graphblas
