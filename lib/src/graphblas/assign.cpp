// assign a scalar under a mask (GrB_assign), extract rows and the symmetric permutation
// (GrB_Matrix_extract with index lists), a vector's entries by position, and the order of a
// vector's keys (a parallel counting sort where the keys span a small range, as degrees do),
// and a diagonal matrix from a vector (GxB_Matrix_diag).
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "host/index_checks.hpp"
#include "internal.hpp"

namespace spgraph::graphblas {
namespace {

// w<m> = s over all of w;  C<M> = s over all of C.
GrB_Info assign_scalar(GrB_Vector w, GrB_Vector m, float s, GrB_Index n, GrB_Descriptor d) { return GrB_Vector_assign_FP32(w, m, nullptr, s, GrB_ALL, n, d); }
GrB_Info assign_scalar(GrB_Vector w, GrB_Vector m, double s, GrB_Index n, GrB_Descriptor d) { return GrB_Vector_assign_FP64(w, m, nullptr, s, GrB_ALL, n, d); }
GrB_Info assign_scalar(GrB_Vector w, GrB_Vector m, std::int32_t s, GrB_Index n, GrB_Descriptor d) { return GrB_Vector_assign_INT32(w, m, nullptr, s, GrB_ALL, n, d); }
GrB_Info assign_scalar(GrB_Vector w, GrB_Vector m, std::int64_t s, GrB_Index n, GrB_Descriptor d) { return GrB_Vector_assign_INT64(w, m, nullptr, s, GrB_ALL, n, d); }
GrB_Info assign_scalar(GrB_Vector w, GrB_Vector m, bool s, GrB_Index n, GrB_Descriptor d) { return GrB_Vector_assign_BOOL(w, m, nullptr, s, GrB_ALL, n, d); }
GrB_Info assign_scalar(GrB_Matrix C, GrB_Matrix M, float s, GrB_Index m, GrB_Index n, GrB_Descriptor d) { return GrB_Matrix_assign_FP32(C, M, nullptr, s, GrB_ALL, m, GrB_ALL, n, d); }
GrB_Info assign_scalar(GrB_Matrix C, GrB_Matrix M, double s, GrB_Index m, GrB_Index n, GrB_Descriptor d) { return GrB_Matrix_assign_FP64(C, M, nullptr, s, GrB_ALL, m, GrB_ALL, n, d); }
GrB_Info assign_scalar(GrB_Matrix C, GrB_Matrix M, std::int32_t s, GrB_Index m, GrB_Index n, GrB_Descriptor d) { return GrB_Matrix_assign_INT32(C, M, nullptr, s, GrB_ALL, m, GrB_ALL, n, d); }
GrB_Info assign_scalar(GrB_Matrix C, GrB_Matrix M, std::int64_t s, GrB_Index m, GrB_Index n, GrB_Descriptor d) { return GrB_Matrix_assign_INT64(C, M, nullptr, s, GrB_ALL, m, GrB_ALL, n, d); }
GrB_Info assign_scalar(GrB_Matrix C, GrB_Matrix M, bool s, GrB_Index m, GrB_Index n, GrB_Descriptor d) { return GrB_Matrix_assign_BOOL(C, M, nullptr, s, GrB_ALL, m, GrB_ALL, n, d); }

// GraphBLAS's index type; never an empty array (GraphBLAS rejects a null list even of length 0).
std::vector<GrB_Index> grb_indices(const std::vector<vid_t>& ids) {
  std::vector<GrB_Index> out(std::max<std::size_t>(ids.size(), 1), 0);
  std::copy(ids.begin(), ids.end(), out.begin());
  return out;
}

}  // namespace

template <class V>
void assign(Vector<V>& w, const std::type_identity_t<Vector<V>>* mask, std::type_identity_t<V> s,
            const Descriptor& d) {
  if (mask) internal::require(mask->handle(), "assign", "the mask");
  // w's length is the result's; an empty w takes the mask's.
  std::size_t n = w ? w.size() : 0;
  if (mask) {
    const std::size_t mask_len = internal::size(mask->handle());
    if (n == 0) n = mask_len;
    else if (mask_len != n)
      throw Error("graphblas: assign: the mask has length " + std::to_string(mask_len) + " but w has length " +
                  std::to_string(n));
  }
  if (!w || w.size() != n) w = Vector<V>(n, V(0));
  internal::GrbDescriptor desc(d, false, false);
  check(assign_scalar(w.handle(), mask ? mask->handle() : nullptr, s, n, desc.get()), "GrB_Vector_assign", w.handle());
  internal::fill_absent(w.handle(), V(0));  // positions that replace cleared
}

template <class V>
void assign(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, std::type_identity_t<V> s,
            const Descriptor& d) {
  if (!mask)
    throw Error("graphblas: assign: C<M> = s needs a mask M; without one every position of C would hold s");
  if (d.mask_complement)
    throw Error("graphblas: assign: C<!M> = s is not supported (the result is dense); pass M uncomplemented");
  internal::require(mask->handle(), "assign", "the mask");
  const GrB_Index m = internal::nrows(mask->handle()), n = internal::ncols(mask->handle());
  internal::OutputMatrix<V> out(C, m, n);
  internal::GrbDescriptor desc(d, false, false);
  check(assign_scalar(out.get(), mask->handle(), s, m, n, desc.get()), "GrB_Matrix_assign", out.get());
  out.commit();
}

template <class V>
void extract_rows(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& rows) {
  internal::require(A.handle(), "extract_rows", "A");
  const GrB_Index ncols = internal::ncols(A.handle());
  spgraph::detail::check_row_ids("graphblas: extract_rows", rows, static_cast<vid_t>(internal::nrows(A.handle())));
  const std::vector<GrB_Index> I = grb_indices(rows);
  internal::OutputMatrix<V> out(C, rows.size(), ncols);
  check(GrB_Matrix_extract(out.get(), nullptr, nullptr, A.handle(), I.data(), rows.size(), GrB_ALL, ncols, nullptr),
        "GrB_Matrix_extract", out.get());
  out.commit();
}

template <class V>
void permute(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& p) {
  internal::require(A.handle(), "permute", "A");
  const GrB_Index n = internal::nrows(A.handle());
  if (internal::ncols(A.handle()) != n)
    throw Error("graphblas: permute: A is " + std::to_string(n) + " x " + std::to_string(internal::ncols(A.handle())) +
                "; P A P' needs a square A");
  spgraph::detail::check_permutation("graphblas: permute", p, static_cast<vid_t>(n));
  const std::vector<GrB_Index> P = grb_indices(p);
  internal::OutputMatrix<V> out(C, n, n);
  check(GrB_Matrix_extract(out.get(), nullptr, nullptr, A.handle(), P.data(), n, P.data(), n, nullptr),
        "GrB_Matrix_extract (permute)", out.get());
  out.commit();
}

template <class V>
void permute(Matrix<V>& C, const Matrix<V>& A, const Vector<vid_t>& p) {
  internal::require(p.handle(), "permute", "p");
  permute(C, A, to_host(p));
}

template <class V>
void extract(Vector<V>& w, const Vector<V>& x, const std::vector<vid_t>& ids) {
  internal::require(x.handle(), "extract", "x");
  spgraph::detail::check_positions("graphblas: extract", ids, x.size());
  const std::vector<V> all = to_host(x);
  std::vector<V> out(ids.size());
  for (std::size_t k = 0; k < ids.size(); ++k) out[k] = all[ids[k]];
  w = from_host(out);
}

namespace {

// Stable counting sort of positions by bucket(key) in 0..buckets-1, on all threads: each thread
// counts its slice, the counts are laid out bucket by bucket and thread by thread, then each
// thread places its slice in order.
template <class Bucket>
std::vector<vid_t> counting_order(const std::vector<vid_t>& keys, std::size_t buckets, Bucket bucket) {
  const std::size_t n = keys.size();
  const int threads = std::max(1, std::min<int>(omp_get_max_threads(), int(n / 65536) + 1));
  std::vector<std::int64_t> start(std::size_t(threads) * buckets, 0);
  std::vector<vid_t> order(n);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const std::size_t lo = n * t / threads, hi = n * (t + 1) / threads;
    std::int64_t* mine = start.data() + std::size_t(t) * buckets;
    for (std::size_t i = lo; i < hi; ++i) ++mine[bucket(keys[i])];
#pragma omp barrier
#pragma omp single
    {
      std::int64_t sum = 0;
      for (std::size_t b = 0; b < buckets; ++b)
        for (int u = 0; u < threads; ++u) {
          const std::int64_t c = start[std::size_t(u) * buckets + b];
          start[std::size_t(u) * buckets + b] = sum;
          sum += c;
        }
    }
    for (std::size_t i = lo; i < hi; ++i) order[mine[bucket(keys[i])]++] = vid_t(i);
  }
  return order;
}

}  // namespace

void sort_order(Vector<vid_t>& p, const Vector<vid_t>& keys, bool ascending) {
  internal::require(keys.handle(), "sort_order", "keys");
  const std::vector<vid_t> k = to_host(keys);
  std::vector<vid_t> order;
  if (!k.empty()) {
    const auto [lo, hi] = std::minmax_element(k.begin(), k.end());
    const std::int64_t low = *lo, high = *hi;
    const std::size_t buckets = std::size_t(high - low + 1);
    if (buckets <= (std::size_t(1) << 20)) {
      order = ascending ? counting_order(k, buckets, [&](vid_t key) { return std::size_t(key - low); })
                        : counting_order(k, buckets, [&](vid_t key) { return std::size_t(high - key); });
    } else {
      order.resize(k.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](vid_t a, vid_t b) { return ascending ? k[a] < k[b] : k[a] > k[b]; });
    }
  }
  p = from_host(order);
}

template <class V>
void diag(Matrix<V>& C, const Vector<V>& v) {
  internal::require(v.handle(), "diag", "v");
  const GrB_Index n = internal::size(v.handle());
  internal::OutputMatrix<V> out(C, n, n);
  check(GxB_Matrix_diag(out.get(), v.handle(), 0, nullptr), "GxB_Matrix_diag", out.get());
  out.commit();
}

#define SPGRAPH_INSTANTIATE(V)                                                                        \
  template void assign<V>(Vector<V>&, const Vector<V>*, V, const Descriptor&);                        \
  template void assign<V>(Matrix<V>&, const Matrix<V>*, V, const Descriptor&);                        \
  template void extract_rows<V>(Matrix<V>&, const Matrix<V>&, const std::vector<vid_t>&);             \
  template void permute<V>(Matrix<V>&, const Matrix<V>&, const std::vector<vid_t>&);                   \
  template void permute<V>(Matrix<V>&, const Matrix<V>&, const Vector<vid_t>&);                        \
  template void extract<V>(Vector<V>&, const Vector<V>&, const std::vector<vid_t>&);                   \
  template void diag<V>(Matrix<V>&, const Vector<V>&);
SPGRAPH_FOR_EACH_VALUE_TYPE(SPGRAPH_INSTANTIATE)
#undef SPGRAPH_INSTANTIATE

}  // namespace spgraph::graphblas
