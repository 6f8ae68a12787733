// The row-length analysis behind the automatic kernel choice, and the cache entry points that
// are not a derived format: statistics, choice, the cached transpose, prepare_spmv.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>

#include "gpu/common/row_ids.hpp"
#include "spgraph/gpu/transpose.hpp"
#include "spmv_cache_internal.hpp"
#include "gpu/spmv/spmv_formats.hpp"

namespace spgraph::gpu {
namespace detail {
namespace {

// Entries of a row past the ELL width: what HYB stores in COO.
struct ExcessOver {
  vid_t width;
  __host__ __device__ eid_t operator()(vid_t len) const { return len > width ? eid_t(len - width) : eid_t(0); }
};

std::mutex& cache_creation_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

template <class V>
SpmvCache<V>& cache_of(const Matrix<V>& A) {
  std::lock_guard lock(cache_creation_mutex());
  std::shared_ptr<SpmvCache<V>>& slot = A.spmv_cache_;
  if (!slot) slot = std::make_shared<SpmvCache<V>>();
  return *slot;
}

template <class V>
void analyse_locked(SpmvCache<V>& cache, const Matrix<V>& A) {
  if (cache.analysed) return;
  const cudaStream_t stream = 0;
  const vid_t n = A.nrows();
  SpmvRowStats s;
  s.nrows = n;
  s.nnz = A.nnz();
  s.mean_row_length = n ? double(s.nnz) / n : 0.0;
  s.value_size = sizeof(V);
  device::Buffer<vid_t> lengths(n, stream);
  if (n > 0) {
    row_lengths(A.csr().rowptr.data(), n, lengths.data(), stream);
    // Sorted lengths give the longest row and HYB's quantile in one pass.
    device::Buffer<vid_t> sorted(n, stream);
    run_cub([&](void* temp, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortKeys(temp, bytes, lengths.data(), sorted.data(), n, 0, 32, stream);
    }, stream);
    s.max_row_length = device::read_value(sorted.data() + (n - 1), stream);
    const double q = hyb_split_quantile(A.is_pattern() ? 0 : sizeof(V));
    const vid_t at = std::min<vid_t>(n - 1, vid_t(std::floor(q * double(n))));
    s.hyb_ell_width = device::read_value(sorted.data() + at, stream);

    device::Buffer<eid_t> total(1, stream);
    run_cub([&](void* temp, std::size_t& bytes) {
      return cub::DeviceReduce::TransformReduce(temp, bytes, lengths.data(), total.data(), n, cuda::std::plus<eid_t>{},
                                                ExcessOver{s.hyb_ell_width}, eid_t(0), stream);
    }, stream);
    s.hyb_coo_nnz = device::read_value(total.data(), stream);

    const eid_t nslices = (eid_t(n) + 31) / 32;
    device::Buffer<eid_t> slots(nslices + 1, stream);
    sellp_slice_slots(lengths.data(), n, slots.data(), stream);
    run_cub([&](void* temp, std::size_t& bytes) {
      return cub::DeviceReduce::Sum(temp, bytes, slots.data(), total.data(), nslices + 1, stream);
    }, stream);
    s.sellp_slots = device::read_value(total.data(), stream);
  }
  cache.row_lengths = std::move(lengths);
  cache.stats = s;
  cache.analysed = true;
}

template <class V>
void count_columns_locked(SpmvCache<V>& cache, const Matrix<V>& A) {
  SpmvRowStats& s = cache.stats;
  if (s.columns_counted) return;
  const cudaStream_t stream = 0;
  const auto& csr = A.csr();
  const double n = double(s.nrows), nnz = double(s.nnz);
  s.amb_segments = amb_segment_count(csr.rowptr.data(), csr.col.data(), s.nrows, s.nnz, stream);
  const double v = A.is_pattern() ? 0.0 : double(sizeof(V)), y = double(sizeof(V));
  const double stream_bytes = nnz * (4 + v) + n * (4 + y);
  const double amb_bytes = nnz * (2 + v) + 4.0 * double(s.amb_segments) + 2.0 * n * y;
  s.amb_byte_ratio = stream_bytes > 0 ? amb_bytes / stream_bytes : 0.0;
  s.columns_counted = true;
}

template <class V>
const device::Buffer<vid_t>& spmv_row_lengths(const Matrix<V>& A) {
  SpmvCache<V>& cache = cache_of(A);
  std::lock_guard lock(cache.mutex);
  analyse_locked(cache, A);
  return cache.row_lengths;
}

}  // namespace detail

template <class V>
const SpmvRowStats& spmv_row_stats(const Matrix<V>& A) {
  SpmvCache<V>& cache = detail::cache_of(A);
  std::lock_guard lock(cache.mutex);
  detail::analyse_locked(cache, A);
  detail::count_columns_locked(cache, A);
  return cache.stats;
}

template <class V>
SpmvKernel choose_spmv_kernel(const Matrix<V>& A) {
  SpmvCache<V>& cache = detail::cache_of(A);
  std::lock_guard lock(cache.mutex);
  detail::analyse_locked(cache, A);
  // The column count decides only between CSR stream and AMB.
  if (choose_spmv_kernel(cache.stats) == SpmvKernel::CsrStream) detail::count_columns_locked(cache, A);
  return choose_spmv_kernel(cache.stats);
}

template <class V>
const Matrix<V>& spmv_transpose(const Matrix<V>& A) {
  SpmvCache<V>& cache = detail::cache_of(A);
  std::lock_guard lock(cache.mutex);
  if (!cache.transpose) cache.transpose = std::make_unique<Matrix<V>>(gpu::transpose(A));
  return *cache.transpose;
}

template <class V>
void prepare_spmv(const Matrix<V>& A, SpmvKernel k) {
  if (k == SpmvKernel::Auto) {
    k = choose_spmv_kernel(A);
  } else {
    SpmvCache<V>& cache = detail::cache_of(A);
    std::lock_guard lock(cache.mutex);
    detail::analyse_locked(cache, A);
  }
  switch (k) {
    case SpmvKernel::CsrMergePath:
      detail::spmv_merge_path_tiles(A);
      detail::spmv_rowptr_low(A);
      break;
    case SpmvKernel::CsrStream:
      // Whether a product reads the values depends on its semiring too, so a valued matrix
      // gets both tilings (one, when they coincide).
      detail::spmv_stream_tiles(A, detail::stream_tile(detail::stream_items_per_thread<V, false>(A.ncols())));
      if (!A.is_pattern())
        detail::spmv_stream_tiles(A, detail::stream_tile(detail::stream_items_per_thread<V, true>(A.ncols())));
      detail::spmv_rowptr_low(A);
      break;
    case SpmvKernel::CooLoadBalanced: detail::spmv_coo_row_ids(A); break;
    case SpmvKernel::SellP: detail::spmv_sellp(A); break;
    case SpmvKernel::Hyb: detail::spmv_hyb(A); break;
    case SpmvKernel::Amb: detail::spmv_amb(A); break;
    case SpmvKernel::CsrVector:
    case SpmvKernel::Auto: break;
  }
}

#define SPGRAPH_SPMV_ANALYSIS_INSTANTIATE(V)                                          \
  template SpmvCache<V>& detail::cache_of(const Matrix<V>&);                         \
  template void detail::analyse_locked(SpmvCache<V>&, const Matrix<V>&);             \
  template void detail::count_columns_locked(SpmvCache<V>&, const Matrix<V>&);       \
  template const device::Buffer<vid_t>& detail::spmv_row_lengths(const Matrix<V>&);  \
  template const SpmvRowStats& spmv_row_stats(const Matrix<V>&);                     \
  template SpmvKernel choose_spmv_kernel(const Matrix<V>&);                          \
  template const Matrix<V>& spmv_transpose(const Matrix<V>&);                        \
  template void prepare_spmv(const Matrix<V>&, SpmvKernel);

SPGRAPH_SPMV_ANALYSIS_INSTANTIATE(float)
SPGRAPH_SPMV_ANALYSIS_INSTANTIATE(double)
SPGRAPH_SPMV_ANALYSIS_INSTANTIATE(std::int32_t)
SPGRAPH_SPMV_ANALYSIS_INSTANTIATE(std::int64_t)
SPGRAPH_SPMV_ANALYSIS_INSTANTIATE(bool)
SPGRAPH_SPMV_ANALYSIS_INSTANTIATE(std::uint64_t)

}  // namespace spgraph::gpu
