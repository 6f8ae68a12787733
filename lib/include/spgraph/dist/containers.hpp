#pragma once
// The distributed backend's containers (dist/backend.hpp): a matrix or vector of global size,
// each rank holding its block (dist/layout.hpp) in the local backend's own container.
//
// Global sizes and counts are 64-bit; indices inside a block are the local backend's 32-bit
// ones. A default-constructed container belongs to no grid and reads as empty; operations take
// it as an output and give it the grid of their inputs.
//
// Operations on a grid are collective: every rank of the grid calls them in the same order.
// nnz() is one too (an allreduce): call it on every rank or on none.
#include <cstddef>
#include <cstdint>
#include <utility>

#include "spgraph/dist/layout.hpp"
#include "spgraph/dist/process_grid.hpp"
#include "spgraph/error.hpp"
#include "spgraph/types.hpp"

namespace spgraph::dist {

// The grid that dist::Backend's operations without distributed inputs (from_host, zeros) put
// their results on: the innermost GridScope alive on this thread.
class GridScope {
 public:
  explicit GridScope(const ProcessGrid& grid);
  GridScope(const GridScope&) = delete;
  GridScope& operator=(const GridScope&) = delete;
  ~GridScope();

 private:
  const ProcessGrid* previous_;
};

// Throws Error when no GridScope is alive.
const ProcessGrid& current_grid();

template <class Local, class V>
class Matrix {
 public:
  using LocalMatrix = typename Local::template Matrix<V>;
  using value_type = V;

  Matrix() = default;
  Matrix(const ProcessGrid& grid, std::int64_t nrows, std::int64_t ncols, LocalMatrix block)
      : grid_(&grid), nrows_(nrows), ncols_(ncols), block_(std::move(block)) {}

  const ProcessGrid* grid() const { return grid_; }
  std::int64_t nrows() const { return nrows_; }
  std::int64_t ncols() const { return ncols_; }
  // Stored entries of the whole matrix (collective).
  eid_t nnz() const {
    if (!grid_) return 0;
    eid_t mine = block_.nnz(), all = 0;
    if (grid_->world().size() == 1) return mine;
    grid_->world().allreduce(&mine, &all, 1, ReduceOp::Sum);
    return all;
  }
  // This rank's block: rows matrix_row_block(nrows, shape, row()), columns matrix_col_block.
  const LocalMatrix& block() const { return block_; }
  LocalMatrix& block() { return block_; }
  BlockRange row_range() const { return matrix_row_block(nrows_, grid_->shape(), grid_->row()); }
  BlockRange col_range() const { return matrix_col_block(ncols_, grid_->shape(), grid_->col()); }

 private:
  const ProcessGrid* grid_ = nullptr;
  std::int64_t nrows_ = 0, ncols_ = 0;
  LocalMatrix block_;
};

template <class Local, class V>
class Vector {
 public:
  using LocalVector = typename Local::template Vector<V>;
  using value_type = V;

  Vector() = default;
  Vector(const ProcessGrid& grid, std::int64_t size, LocalVector piece)
      : grid_(&grid), size_(size), piece_(std::move(piece)) {}

  const ProcessGrid* grid() const { return grid_; }
  std::size_t size() const { return std::size_t(size_); }
  // This rank's piece: elements vector_piece(size, shape, world rank).
  const LocalVector& piece() const { return piece_; }
  LocalVector& piece() { return piece_; }
  BlockRange range() const { return vector_piece(size_, grid_->shape(), grid_->world().rank()); }

 private:
  const ProcessGrid* grid_ = nullptr;
  std::int64_t size_ = 0;
  LocalVector piece_;
};

}  // namespace spgraph::dist
