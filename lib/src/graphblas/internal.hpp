#pragma once
// Shared by the graphblas backend's sources: built-in lookups, descriptors, output handling,
// and GraphBLAS's CSR arrays on the host.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

#include "spgraph/error.hpp"
#include "spgraph/instantiations.hpp"
#include "spgraph/graphblas/grb.hpp"
#include "spgraph/graphblas/operations.hpp"

namespace spgraph::graphblas::internal {

// Built-ins for V; each throws spgraph::Error naming the operation and type when GraphBLAS
// has none. `what` names the calling operation for the message.
template <class V> GrB_Semiring semiring(detail::SemiringId id, const char* what);
template <class V> GrB_BinaryOp binary_op(detail::OpId id, const char* what);
template <class V> GrB_Monoid monoid(detail::OpId id, const char* what);
// Identity, Abs, Negate, One, Inverse (the others are binary operators with a bound scalar).
template <class V> GrB_UnaryOp unary_op(detail::Unary kind, const char* what);

// A GrB_Descriptor built from spgraph's, freed on scope exit. in0/in1 transpose GraphBLAS's
// first and second inputs.
class GrbDescriptor {
 public:
  GrbDescriptor(const Descriptor& d, bool transpose_in0, bool transpose_in1);
  GrbDescriptor(const GrbDescriptor&) = delete;
  GrbDescriptor& operator=(const GrbDescriptor&) = delete;
  ~GrbDescriptor();
  GrB_Descriptor get() const { return d_; }

 private:
  GrB_Descriptor d_ = nullptr;
};

// Throws when an input has no GraphBLAS object (default-constructed or moved-from).
void require(const void* handle, const char* operation, const char* argument);

inline GrB_Index nrows(GrB_Matrix A) {
  GrB_Index n = 0;
  check(GrB_Matrix_nrows(&n, A), "GrB_Matrix_nrows");
  return n;
}
inline GrB_Index ncols(GrB_Matrix A) {
  GrB_Index n = 0;
  check(GrB_Matrix_ncols(&n, A), "GrB_Matrix_ncols");
  return n;
}
inline GrB_Index size(GrB_Vector v) {
  GrB_Index n = 0;
  check(GrB_Vector_size(&n, v), "GrB_Vector_size");
  return n;
}
inline GrB_Index nvals(GrB_Vector v) {
  GrB_Index n = 0;
  check(GrB_Vector_nvals(&n, v), "GrB_Vector_nvals", v);
  return n;
}

// Where an operation writes its result: into C itself when C already has the result's
// dimensions (GraphBLAS allows C to alias an input, and a mask needs C's old entries),
// otherwise into a new matrix that replaces C by commit() once the operation has succeeded
// (so C stays intact on failure and an aliased input stays readable during the operation).
template <class V>
class OutputMatrix {
 public:
  OutputMatrix(Matrix<V>& c, GrB_Index nrows, GrB_Index ncols) : c_(c) {
    if (!c_ || graphblas::internal::nrows(c_.handle()) != nrows || graphblas::internal::ncols(c_.handle()) != ncols)
      fresh_ = Matrix<V>(static_cast<vid_t>(nrows), static_cast<vid_t>(ncols));
  }
  GrB_Matrix get() const { return fresh_ ? fresh_.handle() : c_.handle(); }
  void commit() {
    if (fresh_) c_ = std::move(fresh_);
  }

 private:
  Matrix<V>& c_;
  Matrix<V> fresh_;
};

template <class V>
class OutputVector {
 public:
  OutputVector(Vector<V>& z, GrB_Index n) : z_(z) {
    if (!z_ || graphblas::internal::size(z_.handle()) != n) fresh_ = Vector<V>(static_cast<std::size_t>(n), V{});
  }
  GrB_Vector get() const { return fresh_ ? fresh_.handle() : z_.handle(); }
  void commit() {
    if (fresh_) z_ = std::move(fresh_);
  }

 private:
  Vector<V>& z_;
  Vector<V> fresh_;
};

// Fills every position of v that has no entry with value (v<!struct(v)> = value).
template <class V> void fill_absent(GrB_Vector v, V value);

// malloc'd, as GraphBLAS's pack/unpack hand arrays over (GrB_init's allocator is malloc).
// At least one element, so an empty array is still a valid pointer. Throws ResourceError.
template <class T>
T* malloc_array(std::size_t n) {
  std::size_t bytes = (n ? n : 1) * sizeof(T);
  void* p = std::malloc(bytes);
  if (!p) throw ResourceError("graphblas: cannot allocate " + std::to_string(bytes) + " bytes of host memory");
  return static_cast<T*>(p);
}

// A matrix's contents in GraphBLAS's CSR layout, owned here between unpack and pack.
template <class V>
struct PackedCsr {
  GrB_Index nrows = 0, ncols = 0;
  GrB_Index* ap = nullptr;  // nrows + 1 offsets
  GrB_Index* aj = nullptr;  // column ids, sorted within each row
  V* ax = nullptr;          // one value per entry, or one value for all when iso
  GrB_Index ap_bytes = 0, aj_bytes = 0, ax_bytes = 0;
  bool iso = false;

  PackedCsr() = default;
  PackedCsr(const PackedCsr&) = delete;
  PackedCsr& operator=(const PackedCsr&) = delete;
  ~PackedCsr() {
    std::free(ap);
    std::free(aj);
    std::free(ax);
  }
  GrB_Index nnz() const { return ap[nrows]; }
  V value(GrB_Index p) const { return ax[iso ? 0 : p]; }

  // Takes A's contents (sorted); A keeps its type and dimensions and has no entries after.
  void unpack(GrB_Matrix A);
  // Gives the arrays to A, which must have this type and dimensions and no entries.
  void pack(GrB_Matrix A);
};

// A's arrays, taken out of A (no copy) for the caller to rewrite in place, and given back to A by
// give_back(), or on scope exit where the caller throws (A then holds what the caller left).
template <class V>
class UnpackedCsr {
 public:
  explicit UnpackedCsr(GrB_Matrix A) : a_(A) { csr.unpack(A); }
  UnpackedCsr(const UnpackedCsr&) = delete;
  UnpackedCsr& operator=(const UnpackedCsr&) = delete;
  ~UnpackedCsr() {
    if (!a_) return;
    try {
      csr.pack(a_);
    } catch (...) {  // the first failure is the one to report
    }
  }
  void give_back() { csr.pack(std::exchange(a_, nullptr)); }

  PackedCsr<V> csr;

 private:
  GrB_Matrix a_;
};

// Passes of the backend's own loops over fewer entries run on one thread: a parallel region
// costs more than they do (the late iterations of MCL have a few entries a row).
constexpr std::int64_t kParallelEntries = std::int64_t(1) << 18;

}  // namespace spgraph::graphblas::internal
