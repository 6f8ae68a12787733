#pragma once
// The CPU backend as one type satisfying spgraph::Backend (operations.hpp), for algorithms
// written once over a backend B; gpu::GpuBackend has the same signatures. Call everything
// through B::, so the same template compiles for both; inside a template the names need
// `typename B::template` / `B::template`:
//
//   template <class B, class V>
//   std::vector<V> row_sums(const Csr<V>& graph) {
//     typename B::template Matrix<V> A = B::from_host(graph);
//     typename B::template Vector<V> sums = B::from_host(std::vector<V>(graph.nrows));
//     B::template reduce_rows<monoid::Plus>(sums, A);
//     return B::to_host(sums);
//   }
//   template <class B, class V>
//   void step(typename B::template Vector<V>& y, const typename B::template Matrix<V>& A,
//             const typename B::template Vector<V>& x) {
//     B::mxv(y, nullptr, A, x, PlusSecond{});  // y: A's row count, or empty
//   }
//
//   row_sums<graphblas::GraphBlasBackend, double>(g);
//
// Semantics of each operation: spgraph/graphblas/operations.hpp.
#include <array>
#include <chrono>
#include <type_traits>
#include <vector>

#include "spgraph/error.hpp"
#include "spgraph/graphblas/dense_map_reduce.hpp"
#include "spgraph/graphblas/matrix.hpp"
#include "spgraph/graphblas/mxv_reduce.hpp"
#include "spgraph/graphblas/operations.hpp"
#include "spgraph/inflate_rows_in_steps.hpp"
#include "spgraph/operations.hpp"
#include "spgraph/sum_type.hpp"

namespace spgraph::graphblas {

struct GraphBlasBackend {
  template <class V> using Matrix = graphblas::Matrix<V>;
  template <class V> using Vector = graphblas::Vector<V>;
  static constexpr const char* name = "cpu (SuiteSparse:GraphBLAS)";

  template <class V> static Matrix<V> from_host(const Csr<V>& a) { return graphblas::from_host(a); }
  template <class V> static Csr<V> to_host(const Matrix<V>& a) { return graphblas::to_host(a); }
  template <class V> static Vector<V> from_host(const std::vector<V>& x) { return graphblas::from_host(x); }
  // h's structure as a Matrix<V> whose entries are all 1 (stored iso).
  template <class V, class W> static Matrix<V> pattern_from_host(const Csr<W>& h) {
    Csr<V> pattern;
    pattern.nrows = h.nrows;
    pattern.ncols = h.ncols;
    pattern.rowptr = h.rowptr;
    pattern.col = h.col;
    return graphblas::from_host(pattern);
  }
  template <class V> static std::vector<V> to_host(const Vector<V>& x) { return graphblas::to_host(x); }
  template <class V> static Vector<V> zeros(std::size_t n) { return Vector<V>(n, V{}); }

  template <class SR, class V>
  static void mxm(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
                  const Matrix<V>& B, SR sr, const Descriptor& desc = {}, const MxmOptions& opt = {}) {
    graphblas::mxm(C, mask, A, B, sr, desc, opt);
  }
  // GraphBLAS has no fused form: the masked product is formed, then its rows summed.
  template <class SR, class V>
  static void mxm_reduce_rows(Vector<sum_type_t<V>>& y, const std::type_identity_t<Matrix<V>>& mask,
                              const Matrix<V>& A, const Matrix<V>& B, SR sr, const Descriptor& desc = {}) {
    static_assert(std::is_same_v<typename SR::add_monoid, monoid::Plus>, "mxm_reduce_rows sums: SR's add monoid must be plus");
    if (desc.mask_complement)
      throw Error("graphblas: mxm_reduce_rows: the mask must not be complemented (it chooses the entries of C that are summed)");
    Matrix<V> C;
    graphblas::mxm(C, &mask, A, B, sr, desc);
    graphblas::reduce_rows<monoid::Plus>(y, C);
  }
  template <class SR, class V>
  static void mxm_prune_rows(Matrix<V>& C, Vector<V>& peak, Vector<V>& squares, const Matrix<V>& A,
                             const Matrix<V>& B, SR sr, const PruneSpec& spec, const MxmOptions& opt = {}) {
    graphblas::mxm_prune_rows(C, peak, squares, A, B, sr, spec, opt);
  }
  template <class V>
  static void inflate_rows(Matrix<V>& C, const Matrix<V>& A, const InflateSpec& spec) {
    spgraph::detail::inflate_rows_in_steps<GraphBlasBackend, V>(C, A, spec);
  }
  template <class SR, class V>
  static void mxv(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Matrix<V>& A,
                  const Vector<V>& x, SR sr, const Descriptor& desc = {}, const SpmvOptions& opt = {}) {
    graphblas::mxv(y, mask, A, x, sr, desc, opt);
  }
  template <class SR, class V>
  static void vxm(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x,
                  const Matrix<V>& A, SR sr, const Descriptor& desc = {}, const SpmvOptions& opt = {}) {
    graphblas::vxm(y, mask, x, A, sr, desc, opt);
  }

  template <class Op, class V>
  static void ewise_add(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
                        const Matrix<V>& B, const Descriptor& desc = {}) {
    graphblas::ewise_add<Op, V>(C, mask, A, B, desc);
  }
  template <class Op, class V>
  static void ewise_add(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x,
                        const Vector<V>& y, const Descriptor& desc = {}) {
    graphblas::ewise_add<Op, V>(z, mask, x, y, desc);
  }
  template <class Op, class V>
  static void ewise_mult(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
                         const Matrix<V>& B, const Descriptor& desc = {}) {
    graphblas::ewise_mult<Op, V>(C, mask, A, B, desc);
  }
  template <class Op, class V>
  static void ewise_mult(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x,
                         const Vector<V>& y, const Descriptor& desc = {}) {
    graphblas::ewise_mult<Op, V>(z, mask, x, y, desc);
  }
  template <class UnaryOp, class V>
  static void apply(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, UnaryOp op = {},
                    const Descriptor& desc = {}) {
    graphblas::apply(C, mask, A, op, desc);
  }
  template <class UnaryOp, class V>
  static void apply(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, UnaryOp op = {},
                    const Descriptor& desc = {}) {
    graphblas::apply(z, mask, x, op, desc);
  }
  template <class V>
  static void scale_rows(Matrix<V>& C, const Vector<V>& d, const Matrix<V>& A) { graphblas::scale_rows(C, d, A); }
  template <class V>
  static void scale_cols(Matrix<V>& C, const Matrix<V>& A, const Vector<V>& d) { graphblas::scale_cols(C, A, d); }

  template <class V>
  static void select(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
                     const SelectSpec& spec, const Descriptor& desc = {}) {
    graphblas::select(C, mask, A, spec, desc);
  }

  template <class Monoid, class T, class V>
  static void reduce_rows(Vector<T>& y, const Matrix<V>& A) { graphblas::reduce_rows<Monoid>(y, A); }
  template <class Monoid, class T, class V>
  static void reduce_cols(Vector<T>& y, const Matrix<V>& A) { graphblas::reduce_cols<Monoid>(y, A); }
  template <class Monoid, class T = void, class V>
  static std::conditional_t<std::is_void_v<T>, V, T> reduce_scalar(const Matrix<V>& A) {
    return graphblas::reduce_scalar<Monoid, T>(A);
  }
  template <class Monoid, class T = void, class V>
  static std::conditional_t<std::is_void_v<T>, V, T> reduce_scalar(const Vector<V>& x) {
    return graphblas::reduce_scalar<Monoid, T>(x);
  }

  template <class V>
  static void assign(Vector<V>& w, const std::type_identity_t<Vector<V>>* mask, std::type_identity_t<V> s,
                     const Descriptor& desc = {}) {
    graphblas::assign(w, mask, s, desc);
  }
  template <class V>
  static void assign(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, std::type_identity_t<V> s,
                     const Descriptor& desc = {}) {
    graphblas::assign(C, mask, s, desc);
  }
  template <class V>
  static void extract_rows(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& rows) {
    graphblas::extract_rows(C, A, rows);
  }
  template <class V>
  static void permute(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& p) { graphblas::permute(C, A, p); }
  template <class V>
  static void permute(Matrix<V>& C, const Matrix<V>& A, const Vector<vid_t>& p) { graphblas::permute(C, A, p); }
  template <class V>
  static void extract(Vector<V>& w, const Vector<V>& x, const std::vector<vid_t>& ids) { graphblas::extract(w, x, ids); }
  static void sort_order(Vector<vid_t>& p, const Vector<vid_t>& keys, bool ascending) {
    graphblas::sort_order(p, keys, ascending);
  }

  template <class V>
  static void transpose(Matrix<V>& C, const Matrix<V>& A) { graphblas::transpose(C, A); }
  template <class V>
  static void row_degrees(Vector<vid_t>& d, const Matrix<V>& A) { graphblas::row_degrees(d, A); }
  template <class V>
  static void diag(Matrix<V>& C, const Vector<V>& v) { graphblas::diag(C, v); }

  // The fused dense-vector pass (graphblas/dense_map_reduce.hpp).
  template <int R, class F, class... Vs>
  static std::array<double, R> map_reduce(F f, Vs&... vectors) {
    return graphblas::map_reduce<R>(f, vectors...);
  }
  // The same pass, repeated with its scratch kept and its sums read later (start/finish).
  template <int R> using MapReducer = graphblas::MapReducer<R>;
  // mxv fused with a pass over the product's rows (graphblas/mxv_reduce.hpp).
  template <class V, int R> using MxvReducer = graphblas::MxvReducer<V, R>;

  // Seconds of the operations between start() and seconds(): they run on the calling thread,
  // so the host's clock measures them.
  class Stopwatch {
   public:
    void start() { begin_ = std::chrono::steady_clock::now(); }
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count(); }

   private:
    std::chrono::steady_clock::time_point begin_ = std::chrono::steady_clock::now();
  };
};

static_assert(Backend<GraphBlasBackend>);
static_assert(FusedMxvReduce<GraphBlasBackend>);

}  // namespace spgraph::graphblas
