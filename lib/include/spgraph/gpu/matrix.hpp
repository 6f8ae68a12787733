#pragma once
// The gpu backend's matrix and vector. A gpu::Matrix is immutable once built: operations
// return new matrices, so formats derived from it (transpose, SELL-P, HYB, COO row ids for
// the SpMV kernels) can be built on first use and cached without invalidation logic.
#include <memory>
#include <mutex>

#include "spgraph/device/device_csr.hpp"

namespace spgraph::gpu {

template <class V> struct SpmvCache;  // defined by the SpMV family (gpu/spmv.hpp)

template <class V>
class Matrix {
 public:
  Matrix() = default;
  explicit Matrix(device::DeviceCsr<V>&& csr) : csr_(std::move(csr)) {}
  static Matrix from_host(const Csr<V>& h) { return Matrix(device::DeviceCsr<V>::upload(h)); }
  Csr<V> to_host() const { return csr_.download(); }

  const device::DeviceCsr<V>& csr() const { return csr_; }
  vid_t nrows() const { return csr_.nrows; }
  vid_t ncols() const { return csr_.ncols; }
  eid_t nnz() const { return csr_.nnz(); }
  bool is_pattern() const { return csr_.is_pattern(); }

  // Built on first use by the SpMV family; shared by copies of the handle.
  std::shared_ptr<SpmvCache<V>>& spmv_cache() const { return spmv_cache_; }

 private:
  device::DeviceCsr<V> csr_;
  mutable std::shared_ptr<SpmvCache<V>> spmv_cache_;
};

// A dense device vector of length n; absent entries hold the add monoid's identity.
template <class V>
using Vector = device::Buffer<V>;

}  // namespace spgraph::gpu
