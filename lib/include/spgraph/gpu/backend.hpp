#pragma once
// The gpu backend as one type satisfying spgraph::Backend (operations.hpp): this project's
// kernels under the names both backends share, so an algorithm template instantiated with
// GpuBackend or graphblas::GraphBlasBackend runs the same code.
//
// The operations forward to the gpu:: functions of each kernel family (gpu/spmv.hpp,
// gpu/spgemm.hpp, gpu/mxm_prune_rows.hpp, gpu/inflate_rows.hpp, gpu/mxm_reduce_rows.hpp,
// gpu/elementwise.hpp, gpu/select.hpp, gpu/reduce.hpp, gpu/assign.hpp, gpu/transpose.hpp,
// gpu/dense_map_reduce.hpp, gpu/mxv_reduce.hpp, gpu/mxv_loop.hpp), whose headers document
// them. This header compiles as plain C++;
// map_reduce, MxvReducer::start and MxvLoop::run are defined in the matching *_impl.cuh files,
// which the .cu file instantiating an algorithm includes.
#include <array>
#include <type_traits>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/descriptor.hpp"
#include "spgraph/device/memory.hpp"
#include "spgraph/gpu/assign.hpp"
#include "spgraph/gpu/degrees.hpp"
#include "spgraph/gpu/dense_map_reduce.hpp"
#include "spgraph/gpu/elementwise.hpp"
#include "spgraph/gpu/inflate_rows.hpp"
#include "spgraph/gpu/matrix.hpp"
#include "spgraph/gpu/mxm_prune_rows.hpp"
#include "spgraph/gpu/mxm_reduce_rows.hpp"
#include "spgraph/gpu/mxv_loop.hpp"
#include "spgraph/gpu/mxv_reduce.hpp"
#include "spgraph/gpu/reduce.hpp"
#include "spgraph/gpu/select.hpp"
#include "spgraph/gpu/spgemm.hpp"
#include "spgraph/gpu/spmv.hpp"
#include "spgraph/gpu/transpose.hpp"
#include "spgraph/gpu/word_bfs.hpp"
#include "spgraph/gpu/word_expansion.hpp"
#include "spgraph/operations.hpp"

namespace spgraph::gpu {

struct GpuBackend {
  static constexpr const char* name = "gpu";
  template <class V> using Matrix = gpu::Matrix<V>;
  template <class V> using Vector = gpu::Vector<V>;

  template <class V> static Matrix<V> from_host(const Csr<V>& a) { return Matrix<V>::from_host(a); }
  template <class V> static Csr<V> to_host(const Matrix<V>& a) { return a.to_host(); }
  // h's structure as a Matrix<V> without values (entries read as 1).
  template <class V, class W> static Matrix<V> pattern_from_host(const Csr<W>& h) {
    return Matrix<V>(device::DeviceCsr<V>::upload_structure(h));
  }
  template <class V> static Vector<V> from_host(const std::vector<V>& x) {
    Vector<V> v;
    v.upload(x);
    return v;
  }
  template <class V> static std::vector<V> to_host(const Vector<V>& x) { return x.download(); }
  template <class V> static Vector<V> zeros(std::size_t n) {
    Vector<V> v(n);
    v.fill_zero();
    return v;
  }

  // Same signatures as graphblas::GraphBlasBackend's (masks are not deduced, so nullptr is a
  // valid "no mask"); gpu::mxm's SpgemmInfo is for callers that use gpu::mxm directly.
  template <class SR, class V>
  static void mxm(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
                  const Matrix<V>& B, SR sr, const Descriptor& desc = {}, const MxmOptions& opt = {}) {
    gpu::mxm<SR, V>(C, mask, A, B, sr, desc, opt);
  }
  template <class SR, class V>
  static void mxm_reduce_rows(Vector<sum_type_t<V>>& y, const std::type_identity_t<Matrix<V>>& mask,
                              const Matrix<V>& A, const Matrix<V>& B, SR sr, const Descriptor& desc = {}) {
    gpu::mxm_reduce_rows<SR, V>(y, mask, A, B, sr, desc);
  }
  template <class SR, class V>
  static void mxm_prune_rows(Matrix<V>& C, Vector<V>& peak, Vector<V>& squares, const Matrix<V>& A,
                             const Matrix<V>& B, SR sr, const PruneSpec& spec, const MxmOptions& opt = {}) {
    gpu::mxm_prune_rows<SR, V>(C, peak, squares, A, B, sr, spec, opt);
  }
  template <class V>
  static void inflate_rows(Matrix<V>& C, const Matrix<V>& A, const InflateSpec& spec) { gpu::inflate_rows(C, A, spec); }
  template <class SR, class V>
  static void mxv(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Matrix<V>& A,
                  const Vector<V>& x, SR sr, const Descriptor& desc = {}, const SpmvOptions& opt = {}) {
    gpu::mxv<SR, V>(y, mask, A, x, sr, desc, opt);
  }
  template <class SR, class V>
  static void vxm(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x,
                  const Matrix<V>& A, SR sr, const Descriptor& desc = {}, const SpmvOptions& opt = {}) {
    gpu::vxm<SR, V>(y, mask, x, A, sr, desc, opt);
  }
  template <class Op, class V>
  static void ewise_add(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
                        const Matrix<V>& B, const Descriptor& desc = {}) {
    gpu::ewise_add<Op, V>(C, mask, A, B, desc);
  }
  template <class Op, class V>
  static void ewise_add(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x,
                        const Vector<V>& y, const Descriptor& desc = {}) {
    gpu::ewise_add<Op, V>(z, mask, x, y, desc);
  }
  template <class Op, class V>
  static void ewise_mult(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
                         const Matrix<V>& B, const Descriptor& desc = {}) {
    gpu::ewise_mult<Op, V>(C, mask, A, B, desc);
  }
  template <class Op, class V>
  static void ewise_mult(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x,
                         const Vector<V>& y, const Descriptor& desc = {}) {
    gpu::ewise_mult<Op, V>(z, mask, x, y, desc);
  }
  template <class UnaryOp, class V>
  static void apply(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, UnaryOp op = {},
                    const Descriptor& desc = {}) {
    gpu::apply(C, mask, A, op, desc);
  }
  template <class UnaryOp, class V>
  static void apply(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, UnaryOp op = {},
                    const Descriptor& desc = {}) {
    gpu::apply(z, mask, x, op, desc);
  }
  template <class V>
  static void scale_rows(Matrix<V>& C, const Vector<V>& d, const Matrix<V>& A) { gpu::scale_rows(C, d, A); }
  template <class V>
  static void scale_cols(Matrix<V>& C, const Matrix<V>& A, const Vector<V>& d) { gpu::scale_cols(C, A, d); }

  template <class V>
  static void select(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
                     const SelectSpec& spec, const Descriptor& desc = {}) {
    gpu::select(C, mask, A, spec, desc);
  }

  template <class Monoid, class T, class V>
  static void reduce_rows(Vector<T>& y, const Matrix<V>& A) { gpu::reduce_rows<Monoid>(y, A); }
  template <class Monoid, class T, class V>
  static void reduce_cols(Vector<T>& y, const Matrix<V>& A) { gpu::reduce_cols<Monoid>(y, A); }
  template <class Monoid, class T = void, class V>
  static std::conditional_t<std::is_void_v<T>, V, T> reduce_scalar(const Matrix<V>& A) {
    return gpu::reduce_scalar<Monoid, T>(A);
  }
  template <class Monoid, class T = void, class V>
  static std::conditional_t<std::is_void_v<T>, V, T> reduce_scalar(const Vector<V>& x) {
    return gpu::reduce_scalar<Monoid, T>(x);
  }

  template <class V>
  static void assign(Vector<V>& w, const std::type_identity_t<Vector<V>>* mask, std::type_identity_t<V> s,
                     const Descriptor& desc = {}) {
    gpu::assign(w, mask, s, desc);
  }
  template <class V>
  static void assign(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, std::type_identity_t<V> s,
                     const Descriptor& desc = {}) {
    gpu::assign(C, mask, s, desc);
  }
  template <class V>
  static void extract_rows(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& rows) {
    gpu::extract_rows(C, A, rows);
  }
  template <class V>
  static void permute(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& p) { gpu::permute(C, A, p); }
  template <class V>
  static void permute(Matrix<V>& C, const Matrix<V>& A, const Vector<vid_t>& p) { gpu::permute(C, A, p); }
  template <class V>
  static void extract(Vector<V>& w, const Vector<V>& x, const std::vector<vid_t>& ids) { gpu::extract(w, x, ids); }
  static void sort_order(Vector<vid_t>& p, const Vector<vid_t>& keys, bool ascending) {
    gpu::sort_order(p, keys, ascending);
  }

  // C = A', output first as in graphblas::transpose.
  template <class V> static void transpose(Matrix<V>& C, const Matrix<V>& A) { C = gpu::transpose(A); }
  template <class V> static void row_degrees(Vector<vid_t>& d, const Matrix<V>& A) { gpu::row_degrees(d, A); }
  template <class V> static void diag(Matrix<V>& C, const Vector<V>& v) { gpu::diag(C, v); }

  template <int R, class F, class... Vs>
  static std::array<double, R> map_reduce(F f, Vs&... vectors) {
    return gpu::map_reduce<R>(f, vectors...);
  }
  // The same pass, repeated with its scratch kept and its sums read later (start/finish).
  template <int R> using MapReducer = gpu::MapReducer<R>;
  // mxv fused with a pass over the product's rows (gpu/mxv_reduce.hpp).
  template <class V, int R> using MxvReducer = gpu::MxvReducer<V, R>;
  // Many such iterations in one kernel, the stopping test on the device (gpu/mxv_loop.hpp);
  // this backend only: algorithms test for it with `requires`.
  template <class V, int R> using MxvLoop = gpu::MxvLoop<V, R>;
  // Breadth-first search from up to 64 sources, a bit each in a word per vertex (gpu/word_bfs.hpp).
  using WordBfs = gpu::WordBfs;
  // One level of it on one block of a distributed graph, the words on the host (dist::WordBfs).
  using WordExpansion = gpu::WordExpansion;

  // Device seconds of the operations queued between start() and seconds(), by CUDA events on
  // the default stream the operations run on; gaps where the device waited for the host count.
  // seconds() waits for that work to finish.
  class Stopwatch {
   public:
    void start() { begin_.record(0); }
    double seconds() {
      end_.record(0);
      return end_.elapsed_since(begin_) * 1e-3;
    }

   private:
    device::Event begin_, end_;
  };
};

static_assert(Backend<GpuBackend>);
static_assert(DeviceLoop<GpuBackend>);
static_assert(WordFrontierBfs<GpuBackend>);

}  // namespace spgraph::gpu
