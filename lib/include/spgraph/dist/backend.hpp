#pragma once
// dist::Backend<Local>: the operations contract (operations.hpp) over a pr x pc grid of ranks,
// each rank's block held in Local's containers (graphblas::GraphBlasBackend on CPU ranks,
// gpu::GpuBackend on GPU ranks). The same algorithm templates run on it as on one process:
//
//   dist::MpiSession mpi(&argc, &argv);
//   auto world = dist::MpiCommunicator::world();
//   dist::ProcessGrid grid(*world);                  // the most nearly square pr x pc
//   dist::GridScope scope(grid);                     // from_host and zeros make blocks on it
//   using B = dist::Backend<graphblas::GraphBlasBackend>;
//   Graph<B> g(dist::load_graph<...>(...));           // or Graph<B>(host_csr) on every rank
//   auto r = algorithms::pagerank_on_graph<B, double>(g, options);
//
// Every operation is collective over the grid. Layout: dist/layout.hpp. How each is done:
//   mxv, vxm          x gathered along the grid's columns (rows for vxm), the local product,
//                     the partial results reduce-scattered along the rows (columns)
//   mxm               Sparse SUMMA: for each stage of the inner dimension, A's panel broadcast
//                     along the grid rows and B's along the columns, multiplied locally (the mask
//                     applied inside each product) and added into C's block
//   mxm_reduce_rows   where the operands fit each rank, every rank takes them whole and sums
//                     its rows of an equal share of the work (dist/replicated_product.hpp);
//                     else the masked product's rows summed (reduce_rows)
//   mxm_prune_rows    where the operands fit each rank, every rank takes B whole and prunes its
//                     rows of A B with the local backend's own pruned product
//                     (dist/replicated_product.hpp); else in phases of rows sized from a memory
//                     estimate (dist/pruned_product.hpp): each phase's product by SUMMA, each
//                     rank's rows of it gathered whole along the grid row and pruned before the
//                     next phase
//   inflate_rows      on each block where the grid has one column, else apply, reduce_rows and
//                     scale_rows (spgraph/inflate_rows_in_steps.hpp)
//   ewise_*, apply,   on each block (a transposed operand transposed first)
//   assign, select    positional selects shifted by the block's offset; top-k per row (column)
//                     on the whole row (column), gathered along the grid row (column)
//   reductions        local, then combined by allreduce (scalars) or reduce-scatter (rows, cols)
//   transpose,        every entry sent to its new owner (all-to-all)
//   permute, diag
//   from_host         each rank keeps its block of the host object, which every rank passes
//                     alike (as algorithms compute it from what every rank has)
//   to_host           the whole object on every rank (all-gather)
//   extract, sort_order, extract_rows
//                     on the whole vector (all-gathered): what they serve (sampling, relabeling)
//                     reads it whole
//   WordBfs           msbfs's bit-parallel form (WordFrontierBfs): each level's frontier words
//                     gathered along the grid, the block expanded, the partial words OR-reduced
//                     (dist/word_bfs.hpp)
// Indices reaching a functor of map_reduce or MxvReducer are local to the rank's piece; every
// vector a pass takes has the same layout, so they agree.
//
// On a grid of one rank the block is the whole matrix and the piece the whole vector: there each
// operation is the local backend's own on them, with no exchange and no host copy, and the
// local backend's MxvLoop and WordBfs run where it has them, so that `mpirun -n 1` costs what a
// run without mpirun does.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "spgraph/csr.hpp"
#include "spgraph/descriptor.hpp"
#include "spgraph/dist/containers.hpp"
#include "spgraph/dist/exchange.hpp"
#include "spgraph/dist/layout.hpp"
#include "spgraph/dist/pruned_product.hpp"
#include "spgraph/dist/replicated_product.hpp"
#include "spgraph/dist/word_bfs.hpp"
#include "spgraph/error.hpp"
#include "spgraph/immediate_map_reducer.hpp"
#include "spgraph/inflate_rows_in_steps.hpp"
#include "spgraph/operation_options.hpp"
#include "spgraph/operations.hpp"
#include "spgraph/pass_with_totals.hpp"
#include "spgraph/semiring.hpp"
#include "spgraph/sum_type.hpp"
#include "spgraph/unary_ops.hpp"

namespace spgraph::dist {

namespace detail {

template <class A>
const ProcessGrid& grid_of(const A& a, const char* op) {
  if (!a.grid()) throw Error(std::string("dist::Backend::") + op + ": an input belongs to no process grid (it is empty)");
  return *a.grid();
}

// A descriptor keeping only what applies to the mask (for merging a result into its output).
inline Descriptor mask_part(const Descriptor& d) {
  return Descriptor{.mask_structural = d.mask_structural, .mask_complement = d.mask_complement, .replace = d.replace};
}

}  // namespace detail

template <class Local>
struct Backend {
  template <class V> using Matrix = dist::Matrix<Local, V>;
  template <class V> using Vector = dist::Vector<Local, V>;
  template <class V> using LocalMatrix = typename Local::template Matrix<V>;
  template <class V> using LocalVector = typename Local::template Vector<V>;
  static constexpr const char* name = "distributed";

  // ---- host transfers ------------------------------------------------------------------------
  template <class V>
  static Matrix<V> from_host(const Csr<V>& h) {
    const ProcessGrid& g = current_grid();
    if (solo(g)) return Matrix<V>(g, h.nrows, h.ncols, Local::from_host(h));
    const BlockRange rows = matrix_row_block(h.nrows, g.shape(), g.row());
    const BlockRange cols = matrix_col_block(h.ncols, g.shape(), g.col());
    return Matrix<V>(g, h.nrows, h.ncols, Local::from_host(detail::host_block(h, rows.begin, rows.end, cols.begin, cols.end)));
  }
  template <class V, class W>
  static Matrix<V> pattern_from_host(const Csr<W>& h) {
    const ProcessGrid& g = current_grid();
    if (solo(g)) return Matrix<V>(g, h.nrows, h.ncols, Local::template pattern_from_host<V>(h));
    const BlockRange rows = matrix_row_block(h.nrows, g.shape(), g.row());
    const BlockRange cols = matrix_col_block(h.ncols, g.shape(), g.col());
    Csr<W> pattern{h.nrows, h.ncols, h.rowptr, h.col, {}};
    return Matrix<V>(g, h.nrows, h.ncols,
                     Local::template pattern_from_host<V>(detail::host_block(pattern, rows.begin, rows.end, cols.begin, cols.end)));
  }
  template <class V>
  static Csr<V> to_host(const Matrix<V>& A) {
    const ProcessGrid& g = detail::grid_of(A, "to_host");
    if (solo(g)) return Local::to_host(A.block());
    const detail::Entries<V> all = detail::allgather_entries(g.world(), detail::block_entries(A));
    std::vector<vid_t> row(all.row.begin(), all.row.end()), col(all.col.begin(), all.col.end());
    // A pattern comes back as its local backend gave it (only the GPU's has no values).
    return detail::csr_from_local_entries<V>(vid_t(A.nrows()), vid_t(A.ncols()), row, col, all.val, all.pattern);
  }
  // For a Graph built from a matrix already distributed (Graph(Matrix<double>)): its pattern,
  // and its values in another type, block by block.
  template <class V, class W>
  static Matrix<V> pattern_of(const Matrix<W>& A) {
    const Csr<W> h = Local::to_host(A.block());
    return Matrix<V>(detail::grid_of(A, "pattern_of"), A.nrows(), A.ncols(),
                     Local::template pattern_from_host<V>(Csr<W>{h.nrows, h.ncols, h.rowptr, h.col, {}}));
  }
  template <class V, class W>
  static Matrix<V> convert_values(const Matrix<W>& A) {
    const Csr<W> h = Local::to_host(A.block());
    return Matrix<V>(detail::grid_of(A, "convert_values"), A.nrows(), A.ncols(),
                     Local::from_host(Csr<V>{h.nrows, h.ncols, h.rowptr, h.col, std::vector<V>(h.val.begin(), h.val.end())}));
  }
  template <class V>
  static Vector<V> from_host(const std::vector<V>& x) {
    const ProcessGrid& g = current_grid();
    if (solo(g)) return Vector<V>(g, std::int64_t(x.size()), Local::from_host(x));
    const BlockRange r = vector_piece(std::int64_t(x.size()), g.shape(), g.world().rank());
    return Vector<V>(g, std::int64_t(x.size()),
                     Local::from_host(std::vector<V>(x.begin() + r.begin, x.begin() + r.end)));
  }
  template <class V>
  static std::vector<V> to_host(const Vector<V>& x) {
    const ProcessGrid& g = detail::grid_of(x, "to_host");
    if (solo(g)) return Local::to_host(x.piece());
    const auto counts = detail::piece_sizes(std::int64_t(x.size()), g.shape(), 0, g.world().size());
    const auto mine = detail::to_wire(Local::to_host(x.piece()));
    std::vector<detail::wire_t<V>> all(x.size());
    g.world().allgatherv(mine.data(), all.data(), counts, detail::offsets_of(counts));
    return detail::from_wire<V>(std::move(all));
  }
  template <class V>
  static Vector<V> zeros(std::size_t n) {
    const ProcessGrid& g = current_grid();
    return Vector<V>(g, std::int64_t(n), Local::template zeros<V>(std::size_t(vector_piece(std::int64_t(n), g.shape(), g.world().rank()).size())));
  }

  // ---- products --------------------------------------------------------------------------------
  template <class SR, class V>
  static void mxv(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Matrix<V>& A, const Vector<V>& x,
                  SR sr, const Descriptor& desc = {}, const SpmvOptions& opt = {}) {
    if (desc.transpose_a) return vxm(y, mask, x, A, sr, Descriptor{desc.mask_structural, desc.mask_complement, desc.replace}, opt);
    const ProcessGrid& g = detail::grid_of(A, "mxv");
    check_size(A.ncols(), x, "mxv: x");
    if (solo(g) && has_area(A))
      return Local::mxv(output_piece(y, g, A.nrows()), mask ? &mask->piece() : nullptr, A.block(), x.piece(), sr, desc, opt);
    auto xb = detail::local_vector<Local, V>(detail::col_block_values(x));
    LocalVector<V> partial = identities<V>(A.row_range().size(), SR::template identity<V>());
    if (has_area(A)) Local::mxv(partial, nullptr, A.block(), xb, sr, Descriptor{}, opt);
    auto piece = detail::reduce_row_partials(g, A.nrows(), detail::to_wire(Local::to_host(partial)),
                                             detail::reduce_op_of<typename SR::add_monoid>());
    merge(y, mask, g, A.nrows(), detail::local_vector<Local, V>(std::move(piece)), desc, SR::template identity<V>());
  }
  template <class SR, class V>
  static void vxm(Vector<V>& y, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, const Matrix<V>& A,
                  SR sr, const Descriptor& desc = {}, const SpmvOptions& opt = {}) {
    if (desc.transpose_b) return mxv(y, mask, A, x, sr, Descriptor{desc.mask_structural, desc.mask_complement, desc.replace}, opt);
    const ProcessGrid& g = detail::grid_of(A, "vxm");
    check_size(A.nrows(), x, "vxm: x");
    if (solo(g) && has_area(A))
      return Local::vxm(output_piece(y, g, A.ncols()), mask ? &mask->piece() : nullptr, x.piece(), A.block(), sr, desc, opt);
    auto xb = detail::local_vector<Local, V>(detail::row_block_values(x));
    LocalVector<V> partial = identities<V>(A.col_range().size(), SR::template identity<V>());
    if (has_area(A)) Local::vxm(partial, nullptr, xb, A.block(), sr, Descriptor{}, opt);
    auto piece = detail::reduce_col_partials(g, A.ncols(), detail::to_wire(Local::to_host(partial)),
                                             detail::reduce_op_of<typename SR::add_monoid>());
    merge(y, mask, g, A.ncols(), detail::local_vector<Local, V>(std::move(piece)), desc, SR::template identity<V>());
  }

  template <class SR, class V>
  static void mxm(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, const Matrix<V>& B,
                  SR sr, const Descriptor& desc = {}, const MxmOptions& opt = {}) {
    if (solo(detail::grid_of(A, "mxm"))) {
      LocalMatrix<V>& c = output_block(C, *A.grid(), {transposed_dims(A, desc.transpose_a).first,
                                                      transposed_dims(B, desc.transpose_b).second});
      return Local::mxm(c, mask ? &mask->block() : nullptr, A.block(), B.block(), sr, desc, opt);
    }
    if (desc.transpose_a || desc.transpose_b) {
      Matrix<V> At, Bt;
      if (desc.transpose_a) transpose(At, A);
      if (desc.transpose_b) transpose(Bt, B);
      return mxm(C, mask, desc.transpose_a ? At : A, desc.transpose_b ? Bt : B, sr, detail::mask_part(desc), opt);
    }
    const ProcessGrid& g = detail::grid_of(A, "mxm");
    if (A.ncols() != B.nrows())
      throw Error("dist::Backend::mxm: A is " + dims(A) + " and B " + dims(B) + "; A's columns must equal B's rows");
    if (mask && (mask->nrows() != A.nrows() || mask->ncols() != B.ncols()))
      throw Error("dist::Backend::mxm: the mask is " + dims(*mask) + "; the product is " + std::to_string(A.nrows()) +
                  " x " + std::to_string(B.ncols()));
    LocalMatrix<V> sum = summa(g, mask, A, B, sr, desc, opt);
    merge(C, mask, g, A.nrows(), B.ncols(), std::move(sum), desc);
  }

  // Where the operands fit the budget (MxmOptions::memory_budget, or mxm_prune_rows' default)
  // on every rank, each rank takes them whole and sums its share of the rows
  // (dist/replicated_product.hpp); else SUMMA's masked product, its rows summed.
  template <class SR, class V>
  static void mxm_reduce_rows(Vector<sum_type_t<V>>& y, const std::type_identity_t<Matrix<V>>& mask, const Matrix<V>& A,
                              const Matrix<V>& B, SR sr, const Descriptor& desc = {}, const MxmOptions& opt = {}) {
    static_assert(std::is_same_v<typename SR::add_monoid, monoid::Plus>, "mxm_reduce_rows sums: SR's add monoid must be plus");
    if (desc.mask_complement)
      throw Error("dist::Backend::mxm_reduce_rows: the mask must not be complemented (it chooses the entries of C that are summed)");
    const ProcessGrid& g = detail::grid_of(A, "mxm_reduce_rows");
    if (solo(g))
      return Local::mxm_reduce_rows(output_piece(y, g, desc.transpose_a ? A.ncols() : A.nrows()), mask.block(),
                                    A.block(), B.block(), sr, desc);
    if (!desc.transpose_a) {
      const std::int64_t inner = desc.transpose_b ? B.ncols() : B.nrows(), cols = desc.transpose_b ? B.nrows() : B.ncols();
      if (A.ncols() != inner || mask.nrows() != A.nrows() || mask.ncols() != cols)
        throw Error("dist::Backend::mxm_reduce_rows: A is " + dims(A) + ", B" + (desc.transpose_b ? "' " : " ") +
                    std::to_string(inner) + " x " + std::to_string(cols) + " and the mask " + dims(mask) +
                    "; A's columns must equal B's rows and the mask be of the product's shape");
      const std::size_t budget = opt.memory_budget ? opt.memory_budget : detail::default_phase_budget(g.world());
      if (detail::replicated_bytes<V>(mask, A, B) <= budget) {
        y = detail::replicated_reduce_rows(g, mask, A, B, sr, desc);
        return;
      }
    }
    Matrix<V> C;
    mxm(C, &mask, A, B, sr, desc);
    reduce_rows<monoid::Plus>(y, C);
  }

  // Where A and B fit the budget (MxmOptions::memory_budget, or a quarter of the host's memory
  // shared by its ranks) on every rank, on replicated operands by the local backend's pruned
  // product (dist/replicated_product.hpp); else HipMCL's way: the product in phases of rows, each
  // formed by SUMMA and pruned before the next (dist/pruned_product.hpp).
  template <class SR, class V>
  static void mxm_prune_rows(Matrix<V>& C, Vector<V>& peak, Vector<V>& squares, const Matrix<V>& A, const Matrix<V>& B,
                             SR sr, const PruneSpec& spec, const MxmOptions& opt = {}) {
    detail::grid_of(A, "mxm_prune_rows");
    detail::grid_of(B, "mxm_prune_rows");
    if (A.ncols() != B.nrows())
      throw Error("dist::Backend::mxm_prune_rows: A is " + dims(A) + " and B " + dims(B) + "; A's columns must equal B's rows");
    if (solo(*A.grid())) {
      const ProcessGrid& g = *A.grid();
      return Local::mxm_prune_rows(output_block(C, g, {A.nrows(), B.ncols()}), output_piece(peak, g, A.nrows()),
                                   output_piece(squares, g, A.nrows()), A.block(), B.block(), sr, spec, opt);
    }
    MxmOptions phased = opt;  // the default budget asked of the ranks once, for both choices
    if (!phased.memory_budget) phased.memory_budget = detail::default_phase_budget(A.grid()->world());
    if (detail::replicated_bytes<V>(A, B) <= phased.memory_budget)
      detail::replicated_pruned_product(C, peak, squares, A, B, sr, spec, opt);
    else
      detail::pruned_product(C, peak, squares, A, B, sr, spec, phased);
  }

  // On a grid of one column each rank's block holds whole rows: the local backend's own pass on
  // it. Else the contract's steps, whose row sums cross the grid row.
  template <class V>
  static void inflate_rows(Matrix<V>& C, const Matrix<V>& A, const InflateSpec& spec) {
    if (detail::grid_of(A, "inflate_rows").cols() == 1) return Local::inflate_rows(output_block(C, A), A.block(), spec);
    spgraph::detail::inflate_rows_in_steps<Backend, V>(C, A, spec);
  }

  // ---- element-wise --------------------------------------------------------------------------
  template <class Op, class V>
  static void ewise_add(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
                        const Matrix<V>& B, const Descriptor& desc = {}) {
    blockwise(C, mask, A, B, desc, [](auto& c, auto* m, const auto& a, const auto& b, const Descriptor& d) {
      Local::template ewise_add<Op>(c, m, a, b, d);
    });
  }
  template <class Op, class V>
  static void ewise_add(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x,
                        const Vector<V>& y, const Descriptor& desc = {}) {
    check_same(x, y, "ewise_add");
    Local::template ewise_add<Op>(output_piece(z, x), mask ? &mask->piece() : nullptr, x.piece(), y.piece(), desc);
  }
  template <class Op, class V>
  static void ewise_mult(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
                         const Matrix<V>& B, const Descriptor& desc = {}) {
    blockwise(C, mask, A, B, desc, [](auto& c, auto* m, const auto& a, const auto& b, const Descriptor& d) {
      Local::template ewise_mult<Op>(c, m, a, b, d);
    });
  }
  template <class Op, class V>
  static void ewise_mult(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x,
                         const Vector<V>& y, const Descriptor& desc = {}) {
    check_same(x, y, "ewise_mult");
    Local::template ewise_mult<Op>(output_piece(z, x), mask ? &mask->piece() : nullptr, x.piece(), y.piece(), desc);
  }
  template <class UnaryOp, class V>
  static void apply(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A, UnaryOp op = {},
                    const Descriptor& desc = {}) {
    if (solo(detail::grid_of(A, "apply")))
      return Local::apply(output_block(C, *A.grid(), transposed_dims(A, desc.transpose_a)), mask ? &mask->block() : nullptr,
                          A.block(), op, desc);
    if (desc.transpose_a) {
      Matrix<V> At;
      transpose(At, A);
      return apply(C, mask, At, op, detail::mask_part(desc));
    }
    detail::grid_of(A, "apply");
    Local::apply(output_block(C, A), mask ? &mask->block() : nullptr, A.block(), op, desc);
  }
  template <class UnaryOp, class V>
  static void apply(Vector<V>& z, const std::type_identity_t<Vector<V>>* mask, const Vector<V>& x, UnaryOp op = {},
                    const Descriptor& desc = {}) {
    detail::grid_of(x, "apply");
    Local::apply(output_piece(z, x), mask ? &mask->piece() : nullptr, x.piece(), op, desc);
  }
  template <class V>
  static void scale_rows(Matrix<V>& C, const Vector<V>& d, const Matrix<V>& A) {
    const ProcessGrid& g = detail::grid_of(A, "scale_rows");
    check_size(A.nrows(), d, "scale_rows: d");
    LocalMatrix<V> out;
    if (solo(g)) Local::scale_rows(out, d.piece(), A.block());
    else Local::scale_rows(out, detail::local_vector<Local, V>(detail::row_block_values(d)), A.block());
    C = Matrix<V>(g, A.nrows(), A.ncols(), std::move(out));
  }
  template <class V>
  static void scale_cols(Matrix<V>& C, const Matrix<V>& A, const Vector<V>& d) {
    const ProcessGrid& g = detail::grid_of(A, "scale_cols");
    check_size(A.ncols(), d, "scale_cols: d");
    LocalMatrix<V> out;
    if (solo(g)) Local::scale_cols(out, A.block(), d.piece());
    else Local::scale_cols(out, A.block(), detail::local_vector<Local, V>(detail::col_block_values(d)));
    C = Matrix<V>(g, A.nrows(), A.ncols(), std::move(out));
  }

  template <class V>
  static void select(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, const Matrix<V>& A,
                     const SelectSpec& spec, const Descriptor& desc = {}) {
    using Kind = SelectSpec::Kind;
    if (solo(detail::grid_of(A, "select")))
      return Local::select(output_block(C, *A.grid(), transposed_dims(A, desc.transpose_a)), mask ? &mask->block() : nullptr,
                           A.block(), spec, desc);
    if (desc.transpose_a) {
      Matrix<V> At;
      transpose(At, A);
      return select(C, mask, At, spec, detail::mask_part(desc));
    }
    const ProcessGrid& g = detail::grid_of(A, "select");
    if (spec.kind == Kind::TopKPerRow || spec.kind == Kind::TopKPerCol) return select_top_k(C, mask, A, spec, desc);
    SelectSpec local = spec;
    if (spec.kind == Kind::Lower || spec.kind == Kind::Upper || spec.kind == Kind::Diagonal || spec.kind == Kind::OffDiagonal)
      // Global (j - i) is the block's (j - i) plus (c0 - r0): the same test on the offset less that.
      local.offset = spec.offset - (A.col_range().begin - A.row_range().begin);
    Local::select(output_block(C, A), mask ? &mask->block() : nullptr, A.block(), local, desc);
  }

  // ---- reductions ----------------------------------------------------------------------------
  template <class Monoid, class T, class V>
  static void reduce_rows(Vector<T>& y, const Matrix<V>& A) {
    const ProcessGrid& g = detail::grid_of(A, "reduce_rows");
    if (solo(g) && has_area(A)) {
      LocalVector<T> out;
      Local::template reduce_rows<Monoid>(out, A.block());
      y = Vector<T>(g, A.nrows(), std::move(out));
      return;
    }
    auto partial = identities<T>(A.row_range().size(), Monoid::template identity<T>());
    if (has_area(A)) Local::template reduce_rows<Monoid>(partial, A.block());
    y = Vector<T>(g, A.nrows(),
                  detail::local_vector<Local, T>(detail::reduce_row_partials(
                      g, A.nrows(), detail::to_wire(Local::to_host(partial)), detail::reduce_op_of<Monoid>())));
  }
  template <class Monoid, class T, class V>
  static void reduce_cols(Vector<T>& y, const Matrix<V>& A) {
    const ProcessGrid& g = detail::grid_of(A, "reduce_cols");
    if (solo(g) && has_area(A)) {
      LocalVector<T> out;
      Local::template reduce_cols<Monoid>(out, A.block());
      y = Vector<T>(g, A.ncols(), std::move(out));
      return;
    }
    auto partial = identities<T>(A.col_range().size(), Monoid::template identity<T>());
    if (has_area(A)) Local::template reduce_cols<Monoid>(partial, A.block());
    y = Vector<T>(g, A.ncols(),
                  detail::local_vector<Local, T>(detail::reduce_col_partials(
                      g, A.ncols(), detail::to_wire(Local::to_host(partial)), detail::reduce_op_of<Monoid>())));
  }
  template <class Monoid, class T = void, class V>
  static std::conditional_t<std::is_void_v<T>, V, T> reduce_scalar(const Matrix<V>& A) {
    using R = std::conditional_t<std::is_void_v<T>, V, T>;
    return combine<Monoid>(detail::grid_of(A, "reduce_scalar"), Local::template reduce_scalar<Monoid, R>(A.block()));
  }
  template <class Monoid, class T = void, class V>
  static std::conditional_t<std::is_void_v<T>, V, T> reduce_scalar(const Vector<V>& x) {
    using R = std::conditional_t<std::is_void_v<T>, V, T>;
    return combine<Monoid>(detail::grid_of(x, "reduce_scalar"), Local::template reduce_scalar<Monoid, R>(x.piece()));
  }

  // ---- assignment, extraction, permutation -----------------------------------------------------
  template <class V>
  static void assign(Vector<V>& w, const std::type_identity_t<Vector<V>>* mask, std::type_identity_t<V> s,
                     const Descriptor& desc = {}) {
    const ProcessGrid& g = w.grid() ? *w.grid() : detail::grid_of(*mask, "assign");
    const std::int64_t n = w.grid() ? std::int64_t(w.size()) : std::int64_t(mask->size());
    Local::assign(w.piece(), mask ? &mask->piece() : nullptr, s, desc);
    w = Vector<V>(g, n, std::move(w.piece()));
  }
  template <class V>
  static void assign(Matrix<V>& C, const std::type_identity_t<Matrix<V>>* mask, std::type_identity_t<V> s,
                     const Descriptor& desc = {}) {
    const Matrix<V>& shape = C.grid() ? C : *mask;
    const ProcessGrid& g = detail::grid_of(shape, "assign");
    const std::int64_t n = shape.nrows(), m = shape.ncols();
    Local::assign(C.block(), mask ? &mask->block() : nullptr, s, desc);
    C = Matrix<V>(g, n, m, std::move(C.block()));
  }
  template <class V>
  static void extract_rows(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& rows) {
    const ProcessGrid& g = detail::grid_of(A, "extract_rows");
    if (solo(g)) {
      LocalMatrix<V> out;
      Local::extract_rows(out, A.block(), rows);
      C = Matrix<V>(g, std::int64_t(rows.size()), A.ncols(), std::move(out));
      return;
    }
    // Each output row k takes row rows[k] of A: the entries of A's block in a chosen row go to
    // the owners of their new positions.
    std::vector<std::vector<std::int64_t>> picks_of(std::size_t(A.row_range().size()));
    for (std::size_t k = 0; k < rows.size(); ++k) {
      if (rows[k] < 0 || rows[k] >= A.nrows())
        throw Error("dist::Backend::extract_rows: row " + std::to_string(rows[k]) + " of a matrix of " +
                    std::to_string(A.nrows()) + " rows");
      if (rows[k] >= A.row_range().begin && rows[k] < A.row_range().end)
        picks_of[std::size_t(rows[k] - A.row_range().begin)].push_back(std::int64_t(k));
    }
    const detail::Entries<V> mine = detail::block_entries(A);
    detail::Entries<V> moved;
    moved.pattern = mine.pattern;
    for (std::size_t e = 0; e < mine.size(); ++e)
      for (std::int64_t k : picks_of[std::size_t(mine.row[e] - A.row_range().begin)]) {
        moved.push(k, mine.col[e]);
        moved.val.push_back(mine.val[e]);
      }
    C = detail::matrix_from_entries<Local, V>(g, std::int64_t(rows.size()), A.ncols(), moved);
  }
  template <class V>
  static void permute(Matrix<V>& C, const Matrix<V>& A, const std::vector<vid_t>& p) {
    const ProcessGrid& g = detail::grid_of(A, "permute");
    if (A.nrows() != A.ncols() || std::int64_t(p.size()) != A.nrows())
      throw Error("dist::Backend::permute: a permutation of " + std::to_string(p.size()) + " for a " + dims(A) + " matrix");
    if (solo(g)) return local_permute(C, g, A, p);
    std::vector<std::int64_t> inverse(p.size(), -1);
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (p[i] < 0 || std::size_t(p[i]) >= p.size() || inverse[std::size_t(p[i])] >= 0)
        throw Error("dist::Backend::permute: p is not a permutation of 0.." + std::to_string(p.size() - 1));
      inverse[std::size_t(p[i])] = std::int64_t(i);
    }
    detail::Entries<V> e = detail::block_entries(A);
    for (std::size_t k = 0; k < e.size(); ++k) {
      e.row[k] = inverse[std::size_t(e.row[k])];
      e.col[k] = inverse[std::size_t(e.col[k])];
    }
    C = detail::matrix_from_entries<Local, V>(g, A.nrows(), A.ncols(), e);
  }
  template <class V>
  static void permute(Matrix<V>& C, const Matrix<V>& A, const Vector<vid_t>& p) {
    const ProcessGrid& g = detail::grid_of(A, "permute");
    if (solo(g) && std::int64_t(p.size()) == A.nrows() && A.nrows() == A.ncols()) return local_permute(C, g, A, p.piece());
    permute(C, A, to_host(p));
  }
  template <class V>
  static void extract(Vector<V>& w, const Vector<V>& x, const std::vector<vid_t>& ids) {
    const ProcessGrid& g = detail::grid_of(x, "extract");
    if (solo(g)) {
      LocalVector<V> out;
      Local::extract(out, x.piece(), ids);
      w = Vector<V>(g, std::int64_t(ids.size()), std::move(out));
      return;
    }
    const std::vector<V> all = to_host(x);
    const BlockRange mine = vector_piece(std::int64_t(ids.size()), g.shape(), g.world().rank());
    std::vector<V> out;
    for (std::int64_t k = mine.begin; k < mine.end; ++k) {
      if (ids[std::size_t(k)] < 0 || std::size_t(ids[std::size_t(k)]) >= all.size())
        throw Error("dist::Backend::extract: index " + std::to_string(ids[std::size_t(k)]) + " of a vector of " +
                    std::to_string(all.size()));
      out.push_back(all[std::size_t(ids[std::size_t(k)])]);
    }
    w = Vector<V>(g, std::int64_t(ids.size()), Local::from_host(out));
  }
  static void sort_order(Vector<vid_t>& p, const Vector<vid_t>& keys, bool ascending) {
    const ProcessGrid& g = detail::grid_of(keys, "sort_order");
    if (solo(g)) {
      LocalVector<vid_t> out;
      Local::sort_order(out, keys.piece(), ascending);
      p = Vector<vid_t>(g, std::int64_t(keys.size()), std::move(out));
      return;
    }
    const std::vector<vid_t> k = to_host(keys);
    std::vector<vid_t> order(k.size());
    std::iota(order.begin(), order.end(), vid_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](vid_t a, vid_t b) { return ascending ? k[std::size_t(a)] < k[std::size_t(b)] : k[std::size_t(b)] < k[std::size_t(a)]; });
    GridScope scope(g);
    p = from_host(order);
  }
  template <class V>
  static void transpose(Matrix<V>& C, const Matrix<V>& A) {
    const ProcessGrid& g = detail::grid_of(A, "transpose");
    if (solo(g)) {
      LocalMatrix<V> out;
      Local::transpose(out, A.block());
      C = Matrix<V>(g, A.ncols(), A.nrows(), std::move(out));
      return;
    }
    detail::Entries<V> e = detail::block_entries(A);
    std::swap(e.row, e.col);
    C = detail::matrix_from_entries<Local, V>(g, A.ncols(), A.nrows(), e);
  }
  template <class V>
  static void row_degrees(Vector<vid_t>& d, const Matrix<V>& A) {
    const ProcessGrid& g = detail::grid_of(A, "row_degrees");
    if (solo(g) && has_area(A)) {
      LocalVector<vid_t> out;
      Local::row_degrees(out, A.block());
      d = Vector<vid_t>(g, A.nrows(), std::move(out));
      return;
    }
    auto partial = identities<vid_t>(A.row_range().size(), 0);
    if (has_area(A)) Local::row_degrees(partial, A.block());
    d = Vector<vid_t>(g, A.nrows(),
                      Local::from_host(detail::reduce_row_partials(g, A.nrows(), Local::to_host(partial), ReduceOp::Sum)));
  }
  template <class V>
  static void diag(Matrix<V>& C, const Vector<V>& v) {
    const ProcessGrid& g = detail::grid_of(v, "diag");
    if (solo(g)) {
      LocalMatrix<V> out;
      Local::diag(out, v.piece());
      C = Matrix<V>(g, std::int64_t(v.size()), std::int64_t(v.size()), std::move(out));
      return;
    }
    const auto values = detail::to_wire(Local::to_host(v.piece()));
    detail::Entries<V> e;
    const BlockRange r = v.range();
    for (std::int64_t i = r.begin; i < r.end; ++i) {
      e.push(i, i);
      e.val.push_back(values[std::size_t(i - r.begin)]);
    }
    C = detail::matrix_from_entries<Local, V>(g, std::int64_t(v.size()), std::int64_t(v.size()), e);
  }

  // ---- the fused passes (FusedMxvReduce) ------------------------------------------------------
  // map_reduce over the vectors' pieces, the sums added across ranks.
  // Read-only vectors may be passed const; f then sees const pointers for them.
  template <int R, class F, class... Vs>
  static std::array<double, R> map_reduce(F f, Vs&... vectors) {
    const ProcessGrid* grids[] = {vectors.grid()...};
    if (!grids[0]) throw Error("dist::Backend::map_reduce: a vector belongs to no process grid");
    std::array<double, R> mine = Local::template map_reduce<R>(f, vectors.piece()...), all{};
    if (solo(*grids[0])) return mine;
    grids[0]->world().allreduce(mine.data(), all.data(), R, ReduceOp::Sum);
    return all;
  }
  struct MapReduce {  // map_reduce above as a MapReducer (immediate_map_reducer.hpp)
    static constexpr const char* name = "dist";
    template <int R, class F, class... Vs>
    static std::array<double, R> run(F f, Vs&... vectors) {
      return Backend::template map_reduce<R>(f, vectors...);
    }
  };
  template <int R>
  using MapReducer = spgraph::detail::ImmediateMapReducer<R, MapReduce>;
  // mxv, then a pass over its rows with the previous pass's totals (the seed first), as
  // graphblas::MxvReducer. On a grid of one rank it is the local backend's MxvReducer on the
  // blocks, deferred where that one is; across ranks each pass runs when started and its sums
  // wait for finish(), so that a caller may start one pass ahead as with a deferred reducer.
  template <class V, int R>
  class MxvReducer {
    using LocalPass = typename Local::template MxvReducer<V, R>;

   public:
    static constexpr bool deferred = LocalPass::deferred;
    void seed(const std::array<double, R>& totals) {
      if (!unfinished_.empty()) throw Error("dist::MxvReducer::seed: a pass is still unfinished (finish() it first)");
      prev_ = totals;
      if (local_) local_->seed(totals);
    }
    void prepare(const Matrix<V>& A, const SpmvOptions& options) {
      if (solo(detail::grid_of(A, "MxvReducer::prepare"))) local().prepare(A.block(), options);
    }
    template <class SR, class F, class... Vs>
    void start(F f, const Matrix<V>& A, const Vector<V>& x, SR sr, const SpmvOptions& options, Vs&... vectors) {
      if (solo(detail::grid_of(A, "MxvReducer::start")))
        return local().start(f, A.block(), x.piece(), sr, options, vectors.piece()...);
      if (unfinished_.size() == (deferred ? 2 : 1))
        throw Error("dist::MxvReducer::start: " + std::to_string(unfinished_.size()) +
                    " passes are unfinished already (finish() one first)");
      Backend::mxv(product_, nullptr, A, x, sr, Descriptor{}, options);
      spgraph::detail::PassWithTotals<R, V, F> pass{f, {}};
      for (int r = 0; r < R; ++r) pass.prev[r] = prev_[std::size_t(r)];
      prev_ = Backend::map_reduce<R>(pass, product_, vectors...);
      unfinished_.push_back(prev_);
    }
    std::array<double, R> finish() {
      if (local_) return local_->finish();
      if (unfinished_.empty()) throw Error("dist::MxvReducer::finish: no pass is unfinished");
      const std::array<double, R> sums = unfinished_.front();
      unfinished_.erase(unfinished_.begin());
      return sums;
    }

   private:
    LocalPass& local() {
      if (!local_) local_.emplace().seed(prev_);
      return *local_;
    }
    std::array<double, R> prev_{};
    std::vector<std::array<double, R>> unfinished_;  // sums of the passes run and not yet finished
    Vector<V> product_;
    std::optional<LocalPass> local_;  // on a grid of one rank
  };

  // Every iteration in one kernel, where the local backend has it (gpu::MxvLoop): on a grid of
  // one rank only, as a kernel cannot wait for another rank's exchange. suits() is false on
  // larger grids, where the algorithms iterate from the host (MxvReducer) instead.
  template <class V, int R>
    requires requires { typename Local::template MxvLoop<V, R>; }
  class MxvLoop {
   public:
    template <class SR>
    static bool suits(const Matrix<V>& A) {
      return A.grid() && solo(*A.grid()) && Local::template MxvLoop<V, R>::template suits<SR>(A.block());
    }
    void prepare(const Matrix<V>& A) { loop_.prepare(one_rank(A).block()); }
    template <class SR, class F, class Stop, class... Vs>
    auto run(F f, Stop stop, const Matrix<V>& A, Vector<V>& x0, Vector<V>& x1, SR sr, int max_iterations,
             const std::array<double, R>& seed, Vs&... vectors) {
      return loop_.run(f, stop, one_rank(A).block(), x0.piece(), x1.piece(), sr, max_iterations, seed, vectors.piece()...);
    }

   private:
    static const Matrix<V>& one_rank(const Matrix<V>& A) {
      if (!(A.grid() && solo(*A.grid())))
        throw Error("dist::Backend::MxvLoop runs on a grid of one rank only; across ranks the iterations are queued "
                    "from the host (PageRank's loop Auto or Host, not Device)");
      return A;
    }
    typename Local::template MxvLoop<V, R> loop_;
  };

  // ---- the bit-parallel BFS (WordFrontierBfs) -------------------------------------------------
  using WordBfs = dist::WordBfs<Local>;

  // The local backend's clock: every operation is collective, so each rank's reads about the same.
  using Stopwatch = typename Local::Stopwatch;

 private:
  // A block's partial result before its local operation: n copies of the identity, which is
  // also the result where the block has no rows or no columns (the local backends are not
  // asked to work on a matrix of no area, nor to size an empty output).
  static bool solo(const ProcessGrid& g) { return g.world().size() == 1; }
  template <class T>
  static typename Local::template Vector<T> identities(std::int64_t n, T identity) {
    return Local::from_host(std::vector<T>(std::size_t(n), identity));
  }
  template <class V>
  static bool has_area(const Matrix<V>& A) { return A.row_range().size() > 0 && A.col_range().size() > 0; }
  template <class M>
  static std::string dims(const M& a) { return std::to_string(a.nrows()) + " x " + std::to_string(a.ncols()); }
  template <class V>
  static void check_size(std::int64_t n, const Vector<V>& x, const char* what) {
    if (!x.grid() || std::int64_t(x.size()) != n)
      throw Error(std::string("dist::Backend::") + what + " has " + std::to_string(x.size()) + " elements; " +
                  std::to_string(n) + " are needed");
  }
  template <class V>
  static void check_same(const Vector<V>& x, const Vector<V>& y, const char* op) {
    if (!x.grid() || !y.grid() || x.size() != y.size())
      throw Error(std::string("dist::Backend::") + op + ": vectors of " + std::to_string(x.size()) + " and " +
                  std::to_string(y.size()) + " elements");
  }
  // The output's piece (block), made empty first where the output is not of the input's shape
  // (the local backend then sizes it, as for a replaced output). The output may be an input
  // too (z = op(z)): it is then of the input's shape and used as it is.
  template <class V>
  static LocalVector<V>& output_piece(Vector<V>& out, const ProcessGrid& g, std::int64_t n) {
    if (!(out.grid() && std::int64_t(out.size()) == n)) out = Vector<V>(g, n, LocalVector<V>());
    return out.piece();
  }
  template <class V, class W>
  static LocalVector<V>& output_piece(Vector<V>& out, const Vector<W>& like) {
    return output_piece(out, *like.grid(), std::int64_t(like.size()));
  }
  template <class V>
  static LocalMatrix<V>& output_block(Matrix<V>& out, const ProcessGrid& g, std::pair<std::int64_t, std::int64_t> dims) {
    if (!(out.grid() && out.nrows() == dims.first && out.ncols() == dims.second))
      out = Matrix<V>(g, dims.first, dims.second, LocalMatrix<V>());
    return out.block();
  }
  template <class V, class W>
  static LocalMatrix<V>& output_block(Matrix<V>& out, const Matrix<W>& like) {
    return output_block(out, *like.grid(), {like.nrows(), like.ncols()});
  }
  template <class V>
  static std::pair<std::int64_t, std::int64_t> transposed_dims(const Matrix<V>& A, bool transposed) {
    return transposed ? std::pair{A.ncols(), A.nrows()} : std::pair{A.nrows(), A.ncols()};
  }
  template <class V, class P>
  static void local_permute(Matrix<V>& C, const ProcessGrid& g, const Matrix<V>& A, const P& p) {
    LocalMatrix<V> out;
    Local::permute(out, A.block(), p);
    C = Matrix<V>(g, A.nrows(), A.ncols(), std::move(out));
  }
  // y<mask> = t (t: this rank's piece of an n-vector; `absent` the semiring's identity, what a
  // position without a value holds). The mask may be y itself.
  template <class V>
  static void merge(Vector<V>& y, const Vector<V>* mask, const ProcessGrid& g, std::int64_t n, LocalVector<V> t,
                    const Descriptor& desc, V absent) {
    if (!mask && !desc.mask_complement) {
      y = Vector<V>(g, n, std::move(t));
      return;
    }
    const Descriptor keep = Descriptor{.mask_structural = desc.mask_structural, .mask_complement = desc.mask_complement};
    if (desc.replace || !(y.grid() && std::int64_t(y.size()) == n)) {
      const std::size_t len = std::size_t(vector_piece(n, g.shape(), g.world().rank()).size());
      LocalVector<V> out = Local::from_host(std::vector<V>(len, absent));
      Local::apply(out, mask ? &mask->piece() : nullptr, t, unary::Identity{}, keep);
      y = Vector<V>(g, n, std::move(out));
    } else {
      Local::apply(y.piece(), mask ? &mask->piece() : nullptr, t, unary::Identity{}, keep);
    }
  }
  // C<M> = t (t: this rank's block); the mask may be C itself.
  template <class V>
  static void merge(Matrix<V>& C, const Matrix<V>* mask, const ProcessGrid& g, std::int64_t n, std::int64_t m,
                    LocalMatrix<V> t, const Descriptor& desc) {
    if (!mask && !desc.mask_complement) {
      C = Matrix<V>(g, n, m, std::move(t));
      return;
    }
    if (C.grid() && C.nrows() == n && C.ncols() == m) {
      Local::apply(C.block(), mask ? &mask->block() : nullptr, t, unary::Identity{}, detail::mask_part(desc));
    } else {
      LocalMatrix<V> out;
      Local::apply(out, mask ? &mask->block() : nullptr, t, unary::Identity{}, detail::mask_part(desc));
      C = Matrix<V>(g, n, m, std::move(out));
    }
  }
  template <class Monoid, class T>
  static T combine(const ProcessGrid& g, T mine) {
    if (solo(g)) return mine;
    using W = detail::wire_t<T>;
    W in = W(mine), out{};
    g.world().allreduce(&in, &out, 1, detail::reduce_op_of<Monoid>());
    return T(out);
  }
  // An operation on each block, of two inputs of the same shape (B transposed first if asked).
  template <class V, class Op>
  static void blockwise(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, const Matrix<V>& B,
                        const Descriptor& desc, Op op) {
    if (solo(detail::grid_of(A, "ewise")))
      return op(output_block(C, *A.grid(), transposed_dims(A, desc.transpose_a)), mask ? &mask->block() : nullptr, A.block(),
                B.block(), desc);
    if (desc.transpose_a || desc.transpose_b) {
      Matrix<V> At, Bt;
      if (desc.transpose_a) transpose(At, A);
      if (desc.transpose_b) transpose(Bt, B);
      return blockwise(C, mask, desc.transpose_a ? At : A, desc.transpose_b ? Bt : B, detail::mask_part(desc), op);
    }
    detail::grid_of(A, "ewise");
    if (A.nrows() != B.nrows() || A.ncols() != B.ncols())
      throw Error("dist::Backend: element-wise operands of " + dims(A) + " and " + dims(B));
    op(output_block(C, A), mask ? &mask->block() : nullptr, A.block(), B.block(), desc);
  }

  // C's block of A B by Sparse SUMMA over the stages of the inner dimension: a stage is a run
  // of the inner dimension's P pieces that lie in one column block of A and one row block of B.
  template <class SR, class V>
  static LocalMatrix<V> summa(const ProcessGrid& g, const Matrix<V>* mask, const Matrix<V>& A, const Matrix<V>& B,
                              SR sr, const Descriptor& desc, const MxmOptions& opt) {
    const GridShape s = g.shape();
    const int p = s.rows * s.cols;
    const std::int64_t k = A.ncols();
    const Csr<V> a = Local::to_host(A.block()), b = Local::to_host(B.block());
    const BlockRange a_cols = A.col_range(), b_rows = B.row_range();
    const Descriptor stage_desc{.mask_structural = desc.mask_structural, .mask_complement = desc.mask_complement, .replace = true};
    LocalMatrix<V> sum;
    bool first = true;
    for (int q = 0; q < p;) {
      const int a_col = q / s.rows, b_row = q / s.cols;
      int last = q;
      while (last + 1 < p && (last + 1) / s.rows == a_col && (last + 1) / s.cols == b_row) ++last;
      const std::int64_t k0 = vector_piece(k, s, q).begin, k1 = vector_piece(k, s, last).end;
      q = last + 1;
      if (k1 == k0) continue;
      // A's panel: columns [k0, k1) of grid column a_col's blocks, along each grid row.
      Csr<V> ap;
      if (g.col() == a_col)
        ap = detail::host_block(a, 0, a.nrows, k0 - a_cols.begin, k1 - a_cols.begin);
      detail::broadcast_csr(g.row_comm(), ap, a_col);
      // B's panel: rows [k0, k1) of grid row b_row's blocks, along each grid column.
      Csr<V> bp;
      if (g.row() == b_row)
        bp = detail::host_block(b, k0 - b_rows.begin, k1 - b_rows.begin, 0, b.ncols);
      detail::broadcast_csr(g.col_comm(), bp, b_row);
      LocalMatrix<V> t;
      Local::mxm(t, mask ? &mask->block() : nullptr, Local::from_host(ap), Local::from_host(bp), sr,
                 mask ? stage_desc : Descriptor{}, opt);
      // A positional multiply saw the panel's own inner index: make it global.
      if constexpr (std::is_same_v<typename SR::multiply_op, mult::SecondI>)
        if (k0 != 0) Local::apply(t, nullptr, t, unary::AddScalar{double(k0)});
      if (first) {
        sum = std::move(t);
        first = false;
      } else {
        Local::template ewise_add<typename SR::add_monoid>(sum, nullptr, sum, t);
      }
    }
    if (first) {  // an empty inner dimension: no entries
      Csr<V> empty;
      empty.nrows = vid_t(A.row_range().size());
      empty.ncols = vid_t(B.col_range().size());
      empty.rowptr.assign(std::size_t(empty.nrows) + 1, 0);
      sum = Local::from_host(empty);
    }
    return sum;
  }

  // The whole rows of this rank's row block (every column), gathered along the grid row.
  template <class V>
  static Csr<V> whole_rows(const Matrix<V>& A) {
    const ProcessGrid& g = *A.grid();
    detail::Entries<V> mine = detail::block_entries(A);
    const detail::Entries<V> all = detail::allgather_entries(g.row_comm(), mine);
    const std::int64_t r0 = A.row_range().begin;
    std::vector<vid_t> row(all.size()), col(all.size());
    for (std::size_t e = 0; e < all.size(); ++e) row[e] = vid_t(all.row[e] - r0), col[e] = vid_t(all.col[e]);
    return detail::csr_from_local_entries<V>(vid_t(A.row_range().size()), vid_t(A.ncols()), row, col, all.val, false);
  }

  // Top-k per row (column): the whole row block (column block) on each rank of its grid row
  // (column), the local backend's select there, each rank keeping its own block.
  template <class V>
  static void select_top_k(Matrix<V>& C, const Matrix<V>* mask, const Matrix<V>& A, const SelectSpec& spec,
                           const Descriptor& desc) {
    const ProcessGrid& g = *A.grid();
    const bool by_row = spec.kind == SelectSpec::Kind::TopKPerRow;
    Matrix<V> At;
    if (!by_row) transpose(At, A);
    const Matrix<V>& R = by_row ? A : At;
    const Csr<V> rows = whole_rows(R);
    LocalMatrix<V> kept;
    Local::select(kept, nullptr, Local::from_host(rows), SelectSpec::top_k(SelectSpec::Kind::TopKPerRow, spec.k));
    const Csr<V> whole = Local::to_host(kept);
    const BlockRange cols = R.col_range();
    Matrix<V> T(g, R.nrows(), R.ncols(), Local::from_host(detail::host_block(whole, 0, whole.nrows, cols.begin, cols.end)));
    if (!by_row) {
      Matrix<V> Tt;
      transpose(Tt, T);
      T = std::move(Tt);
    }
    merge(C, mask, g, A.nrows(), A.ncols(), std::move(T.block()), desc);
  }
};

}  // namespace spgraph::dist
