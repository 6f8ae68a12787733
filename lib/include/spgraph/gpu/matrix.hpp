#pragma once
// The gpu backend's matrix and vector. A gpu::Matrix is immutable once built: operations
// return new matrices, so formats derived from it (transpose, SELL-P, HYB, COO row ids for
// the SpMV kernels) can be built on first use and cached without invalidation logic.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

#include "spgraph/device/device_csr.hpp"

namespace spgraph::gpu {

template <class V> struct SpmvCache;  // the SpMV family's (lib/src/gpu/spmv/spmv_formats.hpp)
template <class V> class Matrix;
namespace detail {
// The SpMV family's way to a matrix's cache (creates it on first use, thread-safe).
template <class V> SpmvCache<V>& cache_of(const Matrix<V>& A);
// Matrix ids: one counter for every value type, never reused in the process.
inline std::uint64_t next_matrix_id() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace detail

template <class V>
class Matrix {
 public:
  Matrix() = default;
  explicit Matrix(device::DeviceCsr<V>&& csr) : csr_(std::move(csr)) {}
  // A moved-from matrix is empty and takes a new id (its old one goes with the data).
  Matrix(Matrix&& o) noexcept
      : csr_(std::move(o.csr_)), spmv_cache_(std::move(o.spmv_cache_)), id_(std::exchange(o.id_, detail::next_matrix_id())) {}
  Matrix& operator=(Matrix&& o) noexcept {
    csr_ = std::move(o.csr_);
    spmv_cache_ = std::move(o.spmv_cache_);
    id_ = std::exchange(o.id_, detail::next_matrix_id());
    return *this;
  }
  static Matrix from_host(const Csr<V>& h) { return Matrix(device::DeviceCsr<V>::upload(h)); }
  Csr<V> to_host() const { return csr_.download(); }

  const device::DeviceCsr<V>& csr() const { return csr_; }
  vid_t nrows() const { return csr_.nrows; }
  vid_t ncols() const { return csr_.ncols; }
  eid_t nnz() const { return csr_.nnz(); }
  bool is_pattern() const { return csr_.is_pattern(); }
  // The data, leaving this matrix empty: for an operation that rewrites a matrix's values into a
  // new Matrix (gpu/inflate_rows.hpp), so no derived format outlives them.
  device::DeviceCsr<V> release() && {
    spmv_cache_.reset();
    return std::move(csr_);
  }

  // A number no other matrix of this process has had: "the same matrix" for caches outside it
  // (gpu::MxvReducer), where an address may be reused by a matrix built after one is freed.
  std::uint64_t id() const { return id_; }

 private:
  // The derived formats, built on first use by the SpMV family alone (through cache_of, which
  // creates the cache under a lock), so the const interface hands out nothing mutable.
  template <class U> friend SpmvCache<U>& detail::cache_of(const Matrix<U>& A);

  device::DeviceCsr<V> csr_;
  mutable std::shared_ptr<SpmvCache<V>> spmv_cache_;
  std::uint64_t id_ = detail::next_matrix_id();
};

// A dense device vector of length n; absent entries hold the add monoid's identity.
template <class V>
using Vector = device::Buffer<V>;

}  // namespace spgraph::gpu
