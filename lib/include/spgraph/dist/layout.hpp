#pragma once
// Where the distributed backend keeps each vector element and matrix entry on a pr x pc grid of
// P ranks (process_grid.hpp), as pure functions of the sizes and the grid's shape.
//
// Vectors: an n-vector is cut into P pieces, piece r = block_range(n, P, r) on world rank r.
//
// Matrices: an n x m matrix is cut into pr row blocks and pc column blocks, each a union of
// consecutive pieces, and block (i, j) lives on the rank at grid row i, column j:
//   row block i    = pieces i*pc .. i*pc + pc-1 of the n rows (the pieces of grid row i's ranks)
//   column block j = pieces j*pr .. j*pr + pr-1 of the m columns
// so that y = A x needs, on rank (i, j), only
//   - x's column block j: the pieces of ranks j*pr .. j*pr+pr-1, moved one piece a rank to the
//     ranks of grid column j (rank (i, j) takes piece j*pr + i; none move on a 1 x P or P x 1
//     grid), then gathered along the column;
//   - a reduce-scatter of its partial y (row block i) along the grid row, which leaves each rank
//     its own piece of y.
// x' A is the same with rows and columns exchanged. CombBLAS lays vectors out along the grid's
// diagonal instead, which needs a square grid; this layout works for any pr x pc.
#include <cstdint>

#include "spgraph/dist/process_grid.hpp"

namespace spgraph::dist {

// Piece r of an n-vector (world rank r's elements).
inline BlockRange vector_piece(std::int64_t n, GridShape g, int r) { return block_range(n, std::int64_t(g.rows) * g.cols, r); }

// The rows of block row i of an n-row matrix.
inline BlockRange matrix_row_block(std::int64_t n, GridShape g, int i) {
  const std::int64_t p = std::int64_t(g.rows) * g.cols;
  return {block_range(n, p, i * g.cols).begin, block_range(n, p, i * g.cols + g.cols - 1).end};
}

// The columns of block column j of an m-column matrix.
inline BlockRange matrix_col_block(std::int64_t m, GridShape g, int j) {
  const std::int64_t p = std::int64_t(g.rows) * g.cols;
  return {block_range(m, p, j * g.rows).begin, block_range(m, p, j * g.rows + g.rows - 1).end};
}

// The world rank holding the (global) entry (row, col) of an n x m matrix.
inline int matrix_owner(std::int64_t n, std::int64_t m, GridShape g, std::int64_t row, std::int64_t col) {
  const std::int64_t p = std::int64_t(g.rows) * g.cols;
  const int i = int(block_owner(n, p, row) / g.cols);
  const int j = int(block_owner(m, p, col) / g.rows);
  return i * g.cols + j;
}

// The world rank that takes piece q of a column-block vector (rank (q % pr, q / pr)), and the
// piece that rank r takes: the one-piece-a-rank move before a gather along grid columns.
inline int column_gather_rank(GridShape g, int q) { return (q % g.rows) * g.cols + q / g.rows; }
inline int column_gather_piece(GridShape g, int r) { return (r % g.cols) * g.rows + r / g.cols; }

}  // namespace spgraph::dist
